"""TTNN's mesh mappers and composers, and `distribute` / `aggregate` built on sharding specs.

Mappers (tensor -> one piece per device):
* `ShardTensorToMesh(dim)`: split `dim` over every device, in row-major device order.
* `ShardTensor2dMesh(dims=(d0, d1))`: on a 2D mesh (rows, cols), split `d0` over the rows
  (mesh axis 0) and `d1` over the columns (axis 1); None replicates along that axis. The two
  dims must differ, as TTNN requires ("dims must be unique"); one dim over both axes is
  `ShardTensorToMesh(dim)` or the spec `S01`.
* `ShardTensorNdMesh(dims)`: meshc's generalisation of the 2D mapper (TTNN's
  `create_mesh_mapper` with one placement per mesh axis), one entry per mesh axis, dims unique.
* `ReplicateTensorToMesh()`: every device gets the whole tensor.

Composers (pieces -> tensor), as TTNN composes:
* `ConcatMeshToTensor(dim)`: concatenate every device's piece along `dim` in device order
  (replicas included, as TTNN does); fewer pieces than devices (what a 1-D mapper leaves, below)
  are the first devices' and are concatenated as they are.
* `ConcatMesh2dToTensor(dims=(d0, d1))`: concatenate along `d1` within each mesh row, then the
  rows along `d0` (dims unique, as TTNN requires). meshc also accepts None for an axis: read only
  the first device along it.
* `ConcatMeshNdToTensor(dims)`: the same with one entry per mesh axis.

Every mapper and composer is a `ShardingSpec` in disguise (`.spec(mesh, rank)`), so splitting
and gathering are implemented once, in `meshc.layout.sharding_spec`. Splits follow torch.chunk,
with TTNN's rules (checked against ttnn 0.81.1's `distribute_tensor`, test_mesh_mappers.py): the
pieces must be equal; a mapper over a 1-D distribution (`ShardTensorToMesh`, or
`ShardTensorNdMesh` on a 1-D mesh) whose torch.chunk split gives k equal pieces for more than k
devices puts them on the first k devices in row-major order and leaves the others empty (they
are absent from `distribute`'s result); a mapper over 2 or more mesh axes needs as many pieces as
devices along each. `pad=True` (meshc's) zero-pads a dim that torch.chunk would split unevenly,
at its end, to a multiple of the piece count (aggregate(..., shape=) trims it again).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from meshc.layout.errors import LayoutError
from meshc.layout.limits import as_int, check_elements
from meshc.layout.mesh import Mesh, ShardingSpec, chunk_bounds, dims_from_shard_dims
from meshc.layout.sharding_spec import format_spec, from_global, parse_spec, to_global
from meshc.layout.shapes import ceil_div, fmt_shape


def as_mesh(mesh_shape: Mesh | Sequence[int] | int) -> Mesh:
    if isinstance(mesh_shape, Mesh):
        return mesh_shape
    if isinstance(mesh_shape, (int, np.integer)) and not isinstance(mesh_shape, bool):
        return Mesh((int(mesh_shape),))
    if isinstance(mesh_shape, (str, bytes)) or not hasattr(mesh_shape, "__iter__"):
        raise LayoutError(f"a mesh shape is a device count or a sequence of axis sizes such as (2, 4); "
                          f"got {mesh_shape!r}")
    return Mesh(tuple(mesh_shape))


def _norm_dim(who: str, dim: int, rank: int) -> int:
    if not -rank <= dim < rank:
        raise LayoutError(f"{who}: dim {dim} is out of range for a tensor of rank {rank} "
                          f"(expected {-rank} <= dim < {rank})")
    return dim % rank


def _axis_spec(who: str, mesh: Mesh, rank: int, per_axis: Sequence[int | None]) -> ShardingSpec:
    """The spec of 'mesh axis i shards tensor dim per_axis[i]' (None: replicated along axis i);
    the dims must be unique, as TTNN's ND mappers and composers require."""
    if len(per_axis) != mesh.rank:
        raise LayoutError(f"{who} gives {len(per_axis)} dims for a {mesh.rank}-d mesh {mesh}: "
                          f"expected one entry (a tensor dim or None) per mesh axis")
    shard_dims = [-1 if d is None else _norm_dim(who, as_int(d, f"{who}: a tensor dim"), rank) for d in per_axis]
    for a, d in enumerate(shard_dims):
        if d >= 0 and d in shard_dims[:a]:
            first = shard_dims.index(d)
            axes = "".join(str(i) for i, x in enumerate(shard_dims) if x == d)
            raise LayoutError(f"{who}: dims must be unique (as TTNN requires): tensor dim {d} is given for mesh "
                              f"axes {first} and {a}; to split one dim over several mesh axes use "
                              f"ShardTensorToMesh({d}) (every axis) or a sharding spec with S{axes} on dim {d}")
    return ShardingSpec(mesh, dims_from_shard_dims(shard_dims, rank))


class MeshMapper(ABC):
    """Base of the mappers: `spec(mesh, rank)` says which piece each device gets."""

    pad: bool = False

    @abstractmethod
    def spec(self, mesh: Mesh | Sequence[int], rank: int) -> ShardingSpec:
        """The sharding spec of this mapper for a tensor of `rank` dims on `mesh`."""


@dataclass(frozen=True)
class ShardTensorToMesh(MeshMapper):
    dim: int
    pad: bool = False

    def __post_init__(self):
        object.__setattr__(self, "dim", _dim_arg("ShardTensorToMesh", self.dim))

    def spec(self, mesh, rank):
        mesh = as_mesh(mesh)
        dims = [()] * rank
        dims[_norm_dim(str(self), self.dim, rank)] = tuple(range(mesh.rank))
        return ShardingSpec(mesh, tuple(dims))

    def __str__(self):
        return f"ShardTensorToMesh(dim={self.dim}{', pad=True' if self.pad else ''})"


@dataclass(frozen=True)
class ShardTensor2dMesh(MeshMapper):
    dims: tuple[int | None, int | None]
    pad: bool = False

    def __post_init__(self):
        object.__setattr__(self, "dims", _dims_arg("ShardTensor2dMesh", self.dims))
        if len(self.dims) != 2:
            raise LayoutError(f"ShardTensor2dMesh takes dims=(d0, d1), one per mesh axis; got {self.dims}")

    def spec(self, mesh, rank):
        mesh = as_mesh(mesh)
        if mesh.rank != 2:
            raise LayoutError(f"{self} needs a 2D mesh (rows, cols), got mesh {mesh} with {mesh.rank} axes; "
                              f"use ShardTensorNdMesh with one dim per mesh axis")
        return _axis_spec(str(self), mesh, rank, self.dims)

    def __str__(self):
        return f"ShardTensor2dMesh(dims={_dims_text(self.dims)}{', pad=True' if self.pad else ''})"


@dataclass(frozen=True)
class ShardTensorNdMesh(MeshMapper):
    dims: tuple[int | None, ...]
    pad: bool = False

    def __post_init__(self):
        object.__setattr__(self, "dims", _dims_arg("ShardTensorNdMesh", self.dims))

    def spec(self, mesh, rank):
        return _axis_spec(str(self), as_mesh(mesh), rank, self.dims)

    def __str__(self):
        return f"ShardTensorNdMesh(dims={_dims_text(self.dims)}{', pad=True' if self.pad else ''})"


@dataclass(frozen=True)
class ReplicateTensorToMesh(MeshMapper):
    def spec(self, mesh, rank):
        return ShardingSpec(as_mesh(mesh), ((),) * rank)

    def __str__(self):
        return "ReplicateTensorToMesh()"


def _dim_arg(who: str, dim) -> int:
    if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):
        raise LayoutError(f"{who} takes dim=<a tensor dim> (an int, negative from the end); got {dim!r}")
    return int(dim)


def _dims_arg(who: str, dims) -> tuple:
    """`dims=` as a tuple of tensor dims or None, one per mesh axis; LayoutError for anything else."""
    if isinstance(dims, (str, bytes)) or not isinstance(dims, Sequence):
        raise LayoutError(f"{who} takes dims=(d0, d1, ...), one tensor dim (or None) per mesh axis; "
                          f"got {dims!r}")
    for d in dims:
        if d is not None and (isinstance(d, bool) or not isinstance(d, (int, np.integer))):
            raise LayoutError(f"{who}: each entry of dims is a tensor dim (an int) or None; got {d!r} in {dims!r}")
    return tuple(None if d is None else int(d) for d in dims)


def _dims_text(dims) -> str:
    return "(" + ", ".join("None" if d is None else str(d) for d in dims) + ")"


class MeshComposer(ABC):
    """Base of the composers: `spec(mesh, rank)` says which piece each device holds."""

    @abstractmethod
    def spec(self, mesh: Mesh | Sequence[int], rank: int) -> ShardingSpec:
        """The sharding spec of the pieces this composer assembles."""


@dataclass(frozen=True)
class ConcatMeshToTensor(MeshComposer):
    dim: int

    def __post_init__(self):
        object.__setattr__(self, "dim", _dim_arg("ConcatMeshToTensor", self.dim))

    def spec(self, mesh, rank):
        return ShardTensorToMesh(self.dim).spec(mesh, rank)

    def __str__(self):
        return f"ConcatMeshToTensor(dim={self.dim})"


@dataclass(frozen=True)
class ConcatMesh2dToTensor(MeshComposer):
    dims: tuple[int | None, int | None]

    def __post_init__(self):
        object.__setattr__(self, "dims", _dims_arg("ConcatMesh2dToTensor", self.dims))
        if len(self.dims) != 2:
            raise LayoutError(f"ConcatMesh2dToTensor takes dims=(d0, d1), one per mesh axis; got {self.dims}")

    def spec(self, mesh, rank):
        mesh = as_mesh(mesh)
        if mesh.rank != 2:
            raise LayoutError(f"{self} needs a 2D mesh (rows, cols), got mesh {mesh} with {mesh.rank} axes; "
                              f"use ConcatMeshNdToTensor with one dim per mesh axis")
        return _axis_spec(str(self), mesh, rank, self.dims)

    def __str__(self):
        return f"ConcatMesh2dToTensor(dims={_dims_text(self.dims)})"


@dataclass(frozen=True)
class ConcatMeshNdToTensor(MeshComposer):
    dims: tuple[int | None, ...]

    def __post_init__(self):
        object.__setattr__(self, "dims", _dims_arg("ConcatMeshNdToTensor", self.dims))

    def spec(self, mesh, rank):
        return _axis_spec(str(self), as_mesh(mesh), rank, self.dims)

    def __str__(self):
        return f"ConcatMeshNdToTensor(dims={_dims_text(self.dims)})"


def mapper_from_spec(spec: ShardingSpec | str, mesh=None) -> MeshMapper:
    """The TTNN mapper (or ShardTensorNdMesh) that distributes as `spec` does; LayoutError if none.

    No mapper makes partial sums, and a mapper shards each dim over its mesh axes in ascending
    axis order, so `S10` (axis 1 major) has none.
    """
    spec = spec if isinstance(spec, ShardingSpec) else parse_spec(spec, mesh)
    text = format_spec(spec)
    if spec.partial:
        raise LayoutError(f"no mesh mapper makes partial sums; spec {text} has partial axes {spec.partial}")
    sharded = [(d, axes) for d, axes in enumerate(spec.dims) if axes]
    for d, axes in sharded:
        if list(axes) != sorted(axes):
            raise LayoutError(f"no mesh mapper shards dim {d} over mesh axes {axes} in that order "
                              f"(mappers take the axes in ascending order); spec {text}")
    if not sharded:
        return ReplicateTensorToMesh()
    if len(sharded) == 1 and sharded[0][1] == tuple(range(spec.mesh.rank)):
        return ShardTensorToMesh(sharded[0][0])
    per_axis: list[int | None] = [None] * spec.mesh.rank
    for d, axes in sharded:
        if len(axes) > 1:
            raise LayoutError(f"no mesh mapper shards dim {d} over mesh axes {axes} unless it is the only "
                              f"sharded dim and uses every axis (ShardTensorToMesh); spec {text}")
        for a in axes:
            per_axis[a] = d
    if spec.mesh.rank == 2:
        return ShardTensor2dMesh(tuple(per_axis))
    return ShardTensorNdMesh(tuple(per_axis))


def spec_of(mapper, mesh: Mesh, rank: int) -> ShardingSpec:
    """The sharding spec of a mapper, composer, ShardingSpec or spec text, for a tensor of `rank`."""
    if isinstance(mapper, (MeshMapper, MeshComposer)):
        return mapper.spec(mesh, rank)
    spec = _given_spec(mapper, mesh)
    if spec.rank != rank:
        raise LayoutError(f"spec {format_spec(spec)} has {spec.rank} dims, but the tensor has rank {rank}: "
                          "give one entry a tensor dim")
    return spec


def _given_spec(mapper, mesh: Mesh) -> ShardingSpec:
    if isinstance(mapper, ShardingSpec):
        if mapper.mesh.shape != mesh.shape:
            raise LayoutError(f"spec {format_spec(mapper)} is for mesh {mapper.mesh}, not {mesh}")
        return mapper
    if isinstance(mapper, str):
        try:  # a spec that names its own mesh (`on [DP=2, TP=4]`, named axes with sizes) keeps its names
            spec = parse_spec(mapper)
        except LayoutError as e:
            if "names no mesh" not in str(e):
                raise
            spec = parse_spec(mapper, mesh)
        if spec.mesh.shape != mesh.shape:
            raise LayoutError(f"spec {format_spec(spec)} is for mesh {spec.mesh}, not {mesh}")
        return spec
    raise LayoutError(f"expected a mesh mapper, composer or sharding spec, got {mapper!r}")


def split_sizes(n: int, k: int) -> list[int]:
    """The piece sizes torch.chunk gives when n elements split into k pieces (empty ones kept)."""
    return [b - a for a, b in (chunk_bounds(n, k, i) for i in range(k))]


def uneven_error(mapper, d: int, n: int, k: int) -> LayoutError:
    """The error for a dim that torch.chunk does not split into equal pieces."""
    return LayoutError(
        f"{mapper}: dim {d} of size {n} does not split into {k} equal pieces "
        f"(torch.chunk gives {split_sizes(n, k)}); use a size divisible by {k}, "
        f"or pad=True to zero-pad it to {max(ceil_div(n, k), 1) * k}")


def distribute(tensor: np.ndarray, mesh_shape, mapper, copy: bool = True) -> dict[tuple[int, ...], np.ndarray]:
    """Split `tensor` over the mesh as `mapper` says: {device coord: piece}, row-major coord order.

    `mapper` is a mesh mapper, a ShardingSpec or spec text. A mapper needs equal pieces (a
    LayoutError names the dim and the torch.chunk sizes otherwise) unless it has `pad=True`.
    """
    tensor = np.asarray(tensor)
    check_elements(tensor.shape, tensor.itemsize, f"the tensor {fmt_shape(tensor.shape)}")
    mesh = as_mesh(mesh_shape)
    spec = spec_of(mapper, mesh, tensor.ndim)
    shard = [ceil_div(n, spec.num_pieces(d)) for d, n in enumerate(tensor.shape)]
    check_elements([mesh.size] + shard, tensor.itemsize, f"distributing {fmt_shape(tensor.shape)} "
                                                         f"over mesh {mesh}")
    if isinstance(mapper, MeshMapper):
        flat = _flat_dim(mapper, mesh, tensor.ndim)
        if flat is not None:
            fewer = _fewer_pieces(mapper, tensor, flat, mesh, copy)
            if fewer is not None:
                return fewer
        pads = []
        for d, n in enumerate(tensor.shape):
            k = spec.num_pieces(d)
            size = ceil_div(n, k)
            if n != size * k:
                if not mapper.pad:
                    raise uneven_error(mapper, d, n, k)
                size = max(size, 1)
            pads.append((0, size * k - n))
        if any(p for _, p in pads):
            tensor = np.pad(tensor, pads)
    return from_global(tensor, spec, copy=copy)


def _flat_dim(mapper, mesh: Mesh, rank: int) -> int | None:
    """The tensor dim a mapper or composer over a 1-D distribution splits over every device
    (ShardTensorToMesh / ConcatMeshToTensor, or the Nd ones on a 1-D mesh), else None."""
    if isinstance(mapper, (ShardTensorToMesh, ConcatMeshToTensor)):
        return _norm_dim(str(mapper), mapper.dim, rank)
    if isinstance(mapper, (ShardTensorNdMesh, ConcatMeshNdToTensor)) and mesh.rank == 1 \
            and len(mapper.dims) == 1 and mapper.dims[0] is not None:
        return _norm_dim(str(mapper), mapper.dims[0], rank)
    return None


def _fewer_pieces(mapper: MeshMapper, tensor: np.ndarray, d: int, mesh: Mesh, copy: bool):
    """TTNN's 1-D distribution when torch.chunk gives fewer, equal pieces than devices: the
    pieces on the first devices in row-major order, the others left out; None otherwise."""
    n, k = tensor.shape[d], mesh.size
    if n == 0:
        if mapper.pad:
            return None
        raise LayoutError(f"{mapper}: dim {d} has size 0, which torch.chunk splits into no pieces "
                          f"(TTNN refuses it too: no chunks were produced)")
    size = ceil_div(n, k)
    count = ceil_div(n, size)
    if count == k or n % size:
        return None
    out = {}
    for coord, piece in zip(mesh.coords(), np.split(tensor, count, axis=d)):
        if copy:
            piece = piece.copy()
        else:
            piece = piece.view()
            piece.flags.writeable = False
        out[coord] = piece
    return out


def aggregate(shards: Mapping | Sequence, mesh_shape, composer, shape: Sequence[int] | None = None) -> np.ndarray:
    """Put the pieces back together as `composer` says; `shape` trims a padded result.

    A composer over a 1-D distribution (ConcatMeshToTensor) also takes fewer shards than devices,
    those of the first devices in row-major order (what a 1-D mapper leaves when torch.chunk
    gives fewer pieces than devices), and concatenates them, as TTNN does."""
    mesh = as_mesh(mesh_shape)
    if isinstance(shards, (str, bytes)) or not isinstance(shards, (Mapping, Sequence)):
        raise LayoutError(f"aggregate takes the shards as {{device coord: array}} or a list in device order; "
                          f"got {type(shards).__name__}")
    if not len(shards):
        raise LayoutError(f"aggregate got 0 shards for mesh {mesh} of {mesh.size} devices; expected one shard a "
                          f"device (or, for ConcatMeshToTensor, those of the first devices)")
    any_shard = next(iter(shards.values())) if isinstance(shards, Mapping) else shards[0]
    rank = np.ndim(any_shard)
    flat = _flat_dim(composer, mesh, rank) if isinstance(composer, MeshComposer) else None
    if len(shards) != mesh.size:
        if flat is None or len(shards) > mesh.size:
            raise LayoutError(f"aggregate got {len(shards)} shards for mesh {mesh} of {mesh.size} devices; "
                              "expected one shard a device (fewer only for ConcatMeshToTensor: those of the "
                              "first devices, as a 1-D mapper leaves them)")
        pieces = _leading_shards(shards, mesh)
        try:
            out = np.concatenate(pieces, axis=flat)
        except ValueError:
            raise LayoutError(f"{composer}: the shards' shapes {[p.shape for p in pieces]} do not concatenate "
                              f"along dim {flat}") from None
    else:
        out = to_global(shards, spec_of(composer, mesh, rank))
    if shape is not None:
        shape = tuple(int(n) for n in shape)
        if len(shape) != out.ndim or any(s > o for s, o in zip(shape, out.shape)):
            raise LayoutError(f"cannot trim the gathered tensor {out.shape} to {shape}")
        out = out[tuple(slice(0, n) for n in shape)]
    return out


def _leading_shards(shards, mesh: Mesh) -> list[np.ndarray]:
    """Shards held by the first k devices in row-major order, as a list; LayoutError when the
    devices given are not the first k."""
    k = len(shards)
    first = list(mesh.coords())[:k]
    if isinstance(shards, Mapping):
        got = {tuple(int(i) for i in c): v for c, v in shards.items()}
        if set(got) != set(first):
            raise LayoutError(f"aggregate got shards for devices {sorted(got)} of mesh {mesh}; fewer shards than "
                              f"devices must be those of the first {k} devices in row-major order {first}")
        pieces = [np.asarray(got[c]) for c in first]
    else:
        pieces = [np.asarray(v) for v in shards]
    if len({p.ndim for p in pieces}) != 1:
        raise LayoutError(f"aggregate got shards of ranks {sorted({p.ndim for p in pieces})}; expected one rank")
    return pieces
