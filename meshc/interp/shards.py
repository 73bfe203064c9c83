"""Per-device pieces of a run's outputs, as JAX users meet them (`jax.Array.addressable_shards`):
`RunResult.addressable_shards(output)` is a list with one `Shard` a device of the mesh, in device
order, each with its `device` (mesh coordinates, device id, chip), its `index` (the slices of the
global tensor it holds, or None when the global tensor is not known), its `replica_id` (0 for
the first device holding that piece) and its `data`.

* A host output (the program gathers it): the devices' pieces are the blocks the program
  gathers it from (the `aggregate_tensor` / `enqueue_read_buffer` / `mesh_shard` that returns it,
  read by meshc.viz.values), sliced out of the gathered tensor.
* An output left on the devices (a list of per-device arrays): each device's own array; `index`
  is known when `spec` says how the pieces make one tensor (a sharding spec string, a
  ShardingSpec, a JAX NamedSharding or DTensor placements, as meshc.visualize_sharding takes).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from meshc.dialects.tt import module_device
from meshc.interp.common import find_entry
from meshc.layout.errors import LayoutError
from meshc.viz.foreign import as_spec
from meshc.viz.model import MeshView, default_chips, mesh_view
from meshc.viz.values import ValueViewError, describe_value, value_names


@dataclass(frozen=True)
class Device:
    """A device of the mesh: its row-major `id`, its mesh `coords` and the `chip` that runs it."""

    id: int
    coords: tuple[int, ...]
    chip: int


@dataclass(frozen=True)
class Shard:
    """One device's piece of an output (`jax.Shard`: device, index, replica_id, data)."""

    device: Device
    index: tuple[slice, ...] | None
    """The piece's slices of the global tensor (None: the global tensor is not known)."""
    replica_id: int
    data: np.ndarray


def _coords(mesh: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [tuple(int(i) for i in c) for c in np.ndindex(*mesh)]


def _chips(result, mesh: tuple[int, ...]) -> tuple[int, ...]:
    dev = module_device(result.module) if result.module is not None else None
    if dev is not None and len(dev.chip_ids) == int(np.prod(mesh)):
        return tuple(int(c) for c in dev.chip_ids)
    return default_chips(mesh, result.system)


def _position(result, output) -> int:
    if isinstance(output, str):
        if output not in result.names:
            raise LayoutError(f"the run has no output '{output}' (its outputs: {', '.join(result.names) or 'none'})")
        return result.names.index(output)
    if not -len(result.outputs) <= int(output) < len(result.outputs):
        raise LayoutError(f"output {output} out of range: the run has {len(result.outputs)} outputs")
    return int(output) % len(result.outputs)


def _gathered_from(result, i: int) -> MeshView | None:
    """The mesh view of the blocks the program gathers host output `i` from, if it says."""
    if result.module is None:
        return None
    ret = find_entry(result.module, result.entry).body.blocks.first.last_op
    names = {v: n for n, v in value_names(result.module)}
    name = names.get(ret.operands[i]) if ret is not None and i < len(ret.operands) else None
    if name is None:
        return None
    try:
        view = describe_value(result.module, name)
    except ValueViewError:
        return None
    return view if isinstance(view, MeshView) else None


def _from_view(view: MeshView, arrays, chips) -> list[Shard]:
    shards = []
    for d, coords in enumerate(_coords(view.mesh.shape)):
        block = view.blocks[view.device_block[coords]]
        index = tuple(slice(a, b) for a, b in block.bounds)
        data = arrays(d, index)
        shards.append(Shard(Device(d, coords, chips[d]), index, block.devices.index(coords), data))
    return shards


def output_shards(result, output: int | str = 0, spec=None) -> list[Shard]:
    """The per-device pieces of `result`'s output (by position or name); see the module docstring."""
    i = _position(result, output)
    value = result.outputs[i]
    mesh = tuple(int(n) for n in result.mesh_shape)
    chips = _chips(result, mesh)
    if isinstance(value, list):
        if spec is None:
            return [Shard(Device(d, c, chips[d]), None, 0, np.asarray(value[d])) for d, c in enumerate(_coords(mesh))]
        spec, spec_mesh = as_spec(spec, mesh, np.ndim(value[0]))
        probe = mesh_view(np.shape(value[0]), spec, spec_mesh, chips=chips)
        shape = tuple(n * p for n, p in zip(np.shape(value[0]), probe.pieces()))
        view = mesh_view(shape, probe.spec, chips=chips)
        return _from_view(view, lambda d, index: np.asarray(value[d]), chips)
    host = np.asarray(value)
    view = _gathered_from(result, i)
    if view is None or view.shape != host.shape or view.mesh.shape != mesh:
        index = tuple(slice(0, n) for n in host.shape)
        return [Shard(Device(d, c, chips[d]), index, d, host) for d, c in enumerate(_coords(mesh))]
    return _from_view(view, lambda d, index: host[index], chips)
