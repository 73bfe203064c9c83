"""Save a sharded tensor as one .npy per device plus a JSON manifest, or as one safetensors
file with the manifest in its metadata; merge it back on the CPU.

The item ColossalAI's DTensor doc leaves open ("sharding info saving and offline tensor
merge"). A checkpoint directory holds either `manifest.json` and `device_<id>.npy` for every
device of the mesh (device ids row-major), or (`fmt="safetensors"`) `shards.safetensors`, whose
tensors are named `device_<id>` and whose metadata key `manifest` holds the same manifest as
JSON text. The manifest records the format, the spec text (`format_spec`, mesh included), the
mesh shape and axis names, the global shape, the dtype, and per device its id, coordinate, file
and the [start, stop) bounds it holds. `merge_sharded` re-derives the bounds from the spec and
checks every fact of the manifest against the files before gathering with `to_global`; a
missing, extra or mis-shaped shard is a `CheckpointError` that names the device and the file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from meshc.layout.errors import LayoutError
from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.sharding_spec import format_spec, global_shape_of, parse_spec, to_global
from safetensors.numpy import save_file
from safetensors import safe_open

FORMAT = "meshc-sharded-tensor/1"
MANIFEST = "manifest.json"
SAFETENSORS = "shards.safetensors"


class CheckpointError(LayoutError):
    """A checkpoint directory that does not match its manifest; says which file and what is wrong."""


def _file(device: int) -> str:
    return f"device_{device}.npy"


def save_sharded(directory: str | os.PathLike, shards: Mapping | Sequence, spec: ShardingSpec | str,
                 mesh=None, shape: Sequence[int] | None = None, fmt: str = "npy") -> Path:
    """Write {device coord: piece} (or a list in device order) under `directory`; returns the path
    of the manifest (`fmt="npy"`) or of the safetensors file holding it (`fmt="safetensors"`).

    `shape` is the global shape (default: what the pieces add up to); every piece must have the
    shape the spec gives its device.
    """
    if fmt not in ("npy", "safetensors"):
        raise CheckpointError(f"unknown checkpoint format '{fmt}'; expected npy or safetensors")
    if not isinstance(spec, ShardingSpec):
        spec = parse_spec(spec, mesh)
    mesh = spec.mesh
    if isinstance(shards, Mapping):
        shards = {tuple(int(i) for i in k): np.asarray(v) for k, v in shards.items()}
    else:
        shards = list(shards)
        if len(shards) != mesh.size:
            raise CheckpointError(f"got {len(shards)} shards for the {mesh.size} devices of mesh {mesh}")
        shards = dict(zip(mesh.coords(), (np.asarray(s) for s in shards)))
    shape = tuple(int(n) for n in shape) if shape is not None else global_shape_of(shards, spec)
    dtypes = {s.dtype for s in shards.values()}
    if len(dtypes) != 1:
        raise CheckpointError(f"the shards have different dtypes {sorted(map(str, dtypes))}; a checkpoint has one")
    dtype = dtypes.pop()
    if dtype.hasobject:
        raise CheckpointError("object arrays cannot be saved as plain .npy shards")
    entries = []
    for coord in mesh.coords():
        if coord not in shards:
            raise CheckpointError(f"no shard for device {coord} of mesh {mesh}")
        piece = shards[coord]
        want = spec.local_shape(shape, coord)
        if piece.shape != want:
            raise CheckpointError(f"the shard of device {coord} has shape {piece.shape}, the spec "
                                  f"{format_spec(spec)} gives it {want} of the global {shape}")
        entries.append({"device": mesh.device_id(coord), "coord": list(coord), "file": _file(mesh.device_id(coord)),
                        "bounds": [list(b) for b in spec.local_bounds(shape, coord)]})
    extra = sorted(set(shards) - set(mesh.coords()))
    if extra:
        raise CheckpointError(f"shards for devices {extra} that mesh {mesh} does not have")
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    manifest = {"format": FORMAT, "spec": format_spec(spec), "mesh_shape": list(mesh.shape),
                "mesh_axis_names": list(mesh.names), "global_shape": list(shape), "dtype": dtype.str,
                "devices": entries}
    if fmt == "safetensors":
        for e in entries:
            e["file"] = SAFETENSORS
            e["tensor"] = f"device_{e['device']}"
        tensors = {e["tensor"]: np.ascontiguousarray(shards[tuple(e["coord"])]) for e in entries}
        path = out / SAFETENSORS
        save_file(tensors, str(path), metadata={"manifest": json.dumps(manifest)})
        return path
    for e in entries:
        np.save(out / e["file"], shards[tuple(e["coord"])], allow_pickle=False)
    path = out / MANIFEST
    path.write_text(json.dumps(manifest, indent=1) + "\n")
    return path


def _field(manifest: dict, key: str, kind, where: Path):
    if key not in manifest:
        raise CheckpointError(f"{where}: the manifest has no '{key}'")
    if not isinstance(manifest[key], kind):
        raise CheckpointError(f"{where}: '{key}' should be a {kind.__name__}, got {manifest[key]!r}")
    return manifest[key]


def _read_safetensors(path: Path) -> tuple[str, object]:
    """(manifest JSON text, the open file) of a safetensors checkpoint."""
    try:
        f = safe_open(str(path), framework="np")
    except Exception as e:  # safetensors raises its own error types for a damaged file
        raise CheckpointError(f"{path}: not a readable safetensors file ({e})") from None
    text = (f.metadata() or {}).get("manifest")
    if text is None:
        raise CheckpointError(f"{path}: its metadata has no 'manifest'; not a meshc sharded-tensor checkpoint")
    return text, f


def merge_sharded(directory: str | os.PathLike) -> np.ndarray:
    """Read a checkpoint written by `save_sharded` (either format) and return the global tensor,
    checking everything."""
    root = Path(directory)
    path = root / MANIFEST
    st_file = None
    if path.is_file():
        text = path.read_text()
    elif (root / SAFETENSORS).is_file():
        path = root / SAFETENSORS
        text, st_file = _read_safetensors(path)
    else:
        raise CheckpointError(f"{root}: no {MANIFEST} and no {SAFETENSORS}; not a sharded-tensor checkpoint")
    try:
        manifest = json.loads(text)
    except json.JSONDecodeError as e:
        raise CheckpointError(f"{path}: not valid JSON ({e.msg} at line {e.lineno})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise CheckpointError(f"{path}: format is {manifest.get('format') if isinstance(manifest, dict) else None!r}, "
                              f"expected '{FORMAT}'")
    mesh_shape = tuple(_field(manifest, "mesh_shape", list, path))
    names = tuple(_field(manifest, "mesh_axis_names", list, path))
    shape = tuple(_field(manifest, "global_shape", list, path))
    try:
        mesh = Mesh(mesh_shape, names)
        spec = parse_spec(_field(manifest, "spec", str, path), mesh)
        dtype = np.dtype(_field(manifest, "dtype", str, path))
    except (LayoutError, TypeError) as e:
        raise CheckpointError(f"{path}: {e}") from None
    entries = _field(manifest, "devices", list, path)
    by_coord: dict[tuple[int, ...], dict] = {}
    for e in entries:
        if not isinstance(e, dict) or not {"device", "coord", "file", "bounds"} <= set(e):
            raise CheckpointError(f"{path}: a device entry needs device, coord, file and bounds, got {e!r}")
        coord = tuple(e["coord"])
        if coord not in set(mesh.coords()):
            raise CheckpointError(f"{path}: extra shard for device {coord}, which mesh {mesh} does not have")
        if coord in by_coord:
            raise CheckpointError(f"{path}: device {coord} is listed twice")
        if e["device"] != mesh.device_id(coord):
            raise CheckpointError(f"{path}: device {coord} is id {mesh.device_id(coord)} in mesh {mesh}, "
                                  f"the manifest says {e['device']}")
        by_coord[coord] = e
    missing = [c for c in mesh.coords() if c not in by_coord]
    if missing:
        raise CheckpointError(f"{path}: no shard for devices {missing} of mesh {mesh}")
    listed = {e["file"] for e in entries}
    stray = [] if st_file is not None else sorted(p.name for p in root.glob("device_*.npy") if p.name not in listed)
    if stray:
        raise CheckpointError(f"{root}: shard files {stray} are not in the manifest")
    shards = {}
    for coord, e in by_coord.items():
        bounds = spec.local_bounds(shape, coord)
        if [list(b) for b in bounds] != e["bounds"]:
            raise CheckpointError(f"{path}: device {coord} is listed with bounds {e['bounds']}, the spec "
                                  f"{manifest['spec']} gives it {[list(b) for b in bounds]}")
        fname = root / e["file"]
        if st_file is not None:
            name = e.get("tensor")
            if name not in set(st_file.keys()):
                raise CheckpointError(f"{fname}: no tensor {name!r} for device {coord}")
            piece = st_file.get_tensor(name)
        else:
            if not fname.is_file():
                raise CheckpointError(f"{fname}: missing shard of device {coord}")
            try:
                piece = np.load(fname, mmap_mode="r", allow_pickle=False)
            except (ValueError, OSError) as err:
                raise CheckpointError(f"{fname}: not a readable .npy file ({err})") from None
        want = tuple(b - a for a, b in bounds)
        if piece.shape != want:
            raise CheckpointError(f"{fname}: shard of device {coord} has shape {piece.shape}, expected {want}")
        if piece.dtype != dtype:
            raise CheckpointError(f"{fname}: shard of device {coord} has dtype {piece.dtype}, the manifest says {dtype}")
        shards[coord] = piece
    return to_global(shards, spec, shape)
