"""Shardings written the way JAX and PyTorch write them, read as meshc's ShardingSpec, so that
`meshc.visualize_sharding` takes what a JAX or DTensor user already has:

* JAX: a `NamedSharding` (its `mesh` and `spec`), or a `PartitionSpec` with a JAX `Mesh` (or a
  meshc Mesh whose axes are named): one entry a tensor dim, `None` (replicated), an axis name,
  or a tuple of axis names (major first); a spec shorter than the tensor leaves the rest
  replicated;
* DTensor (PyTorch, ColossalAI): placements, one a mesh dim: `Shard(d)` splits tensor dim d along
  that mesh dim, `Replicate()`, `Partial()` (partial sums over it); with a mesh shape, a meshc
  Mesh or a `DeviceMesh` (its shape and `mesh_dim_names`).

Nothing here imports jax or torch: the objects are read by their class names and attributes.
Anything else (a spec string such as `"[S0, R]"`, a ShardingSpec) is returned as it is.
"""

from __future__ import annotations

from meshc.layout.errors import LayoutError
from meshc.layout.mesh import Mesh, ShardingSpec


def _kind(obj) -> str:
    name = type(obj).__name__
    if name == "P" and type(obj).__module__.startswith("jax"):  # jax >= 0.6 names the class P
        return "PartitionSpec"
    return name


def _jax_mesh(mesh) -> Mesh:
    """A meshc Mesh (axis names kept) from a JAX Mesh, a meshc Mesh, or a DeviceMesh."""
    if isinstance(mesh, Mesh):
        return mesh
    names = tuple(getattr(mesh, "axis_names", None) or getattr(mesh, "mesh_dim_names", None) or ())
    devices = getattr(mesh, "devices", None)
    if devices is not None and hasattr(devices, "shape"):
        shape = tuple(devices.shape)
    elif hasattr(mesh, "mesh") and hasattr(mesh.mesh, "shape"):  # torch DeviceMesh
        shape = tuple(mesh.mesh.shape)
    elif isinstance(mesh, (tuple, list)):
        shape = tuple(int(n) for n in mesh)
    else:
        raise LayoutError(f"cannot read a device mesh from a {_kind(mesh)}: give a JAX Mesh, a meshc Mesh or a "
                          "shape such as (2, 4)")
    return Mesh(tuple(int(n) for n in shape), names)


def _partition_spec(entries, mesh: Mesh, rank: int) -> ShardingSpec:
    entries = list(entries)
    if len(entries) > rank:
        raise LayoutError(f"PartitionSpec {tuple(entries)} has {len(entries)} entries for a rank-{rank} tensor")
    dims = []
    for e in entries + [None] * (rank - len(entries)):
        names = () if e is None else (e,) if isinstance(e, str) else tuple(e)
        axes = []
        for n in names:
            if n not in mesh.names:
                raise LayoutError(f"PartitionSpec names mesh axis '{n}', but the mesh's axes are "
                                  f"{', '.join(mesh.names) or 'unnamed'}")
            axes.append(mesh.names.index(n))
        dims.append(tuple(axes))
    return ShardingSpec(mesh, tuple(dims))


def _placements(placements, mesh: Mesh, rank: int) -> ShardingSpec:
    if len(placements) != mesh.rank:
        raise LayoutError(f"{len(placements)} placements for a mesh of {mesh.rank} dims ({mesh}): give one a mesh dim")
    dims: list[list[int]] = [[] for _ in range(rank)]
    partial = []
    for axis, p in enumerate(placements):
        kind = _kind(p)
        if kind == "Shard":
            d = int(p.dim)
            if not -rank <= d < rank:
                raise LayoutError(f"Shard({d}) on mesh dim {axis}: the tensor has rank {rank}")
            dims[d % rank].append(axis)
        elif kind == "Partial":
            partial.append(axis)
        elif kind != "Replicate":
            raise LayoutError(f"placement {p!r} on mesh dim {axis} is not Shard(dim), Replicate() or Partial()")
    return ShardingSpec(mesh, tuple(tuple(d) for d in dims), tuple(partial))


def is_placements(spec) -> bool:
    return isinstance(spec, (list, tuple)) and bool(spec) and \
        all(_kind(p) in ("Shard", "Replicate", "Partial") for p in spec)


def as_spec(spec, mesh, rank: int):
    """`spec` as a ShardingSpec when it is written the JAX or DTensor way (see the module
    docstring), with the mesh it names; otherwise `(spec, mesh)` unchanged. Returns (spec, mesh)."""
    if _kind(spec) == "NamedSharding":
        return _partition_spec(tuple(spec.spec), _jax_mesh(spec.mesh), rank), None
    if _kind(spec) == "PartitionSpec":
        if mesh is None:
            raise LayoutError("a PartitionSpec names mesh axes: give the mesh too (mesh=jax Mesh, or a meshc Mesh "
                              "with axis names)")
        return _partition_spec(tuple(spec), _jax_mesh(mesh), rank), None
    if is_placements(spec):
        if mesh is None:
            raise LayoutError("DTensor placements are one a mesh dim: give the mesh too, e.g. mesh=(2, 4)")
        return _placements(tuple(spec), _jax_mesh(mesh), rank), None
    if mesh is not None and not isinstance(mesh, (Mesh, tuple, list, int)):
        return spec, _jax_mesh(mesh)  # a JAX Mesh or DeviceMesh beside a spec string
    return spec, mesh
