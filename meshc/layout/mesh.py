"""Device meshes and sharding specs: which slice of a tensor every device of a mesh holds.

A `Mesh` is an N-d arrangement of devices with optional axis names (`[DP=2, CP=2, TP=2]`);
devices are numbered row-major, last axis fastest. A `ShardingSpec` says, for every tensor
dim, which mesh axes shard it (major first: `S01` splits over axis 0, then within each piece
over axis 1), and over which axes the tensor is only a partial sum. Splits follow
torch.chunk: pieces of ceil(n / k), the last ones shorter or empty; on the devices every piece
sits at the start of a buffer of ceil(n / k) (`buffer_shape`), the rest padding.

This is the one place that answers "which elements does device d hold" for mesh
distribution; mesh mappers, the reshard planner and the simulator all ask it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import product

import numpy as np

from meshc.layout.errors import LayoutError
from meshc.layout.limits import MAX_DEVICES, as_ints, check_count
from meshc.layout.shapes import ceil_div, fmt_shape


@dataclass(frozen=True)
class Mesh:
    shape: tuple[int, ...]
    names: tuple[str, ...] = ()
    """Axis names; empty means the axes are known by index only."""

    def __post_init__(self):
        object.__setattr__(self, "shape", as_ints(self.shape, "a mesh shape"))
        object.__setattr__(self, "names", tuple(self.names))
        if not self.shape or any(n < 1 for n in self.shape):
            raise LayoutError(f"a mesh needs at least one axis and every axis at least one device, got {self.shape}")
        check_count(math.prod(self.shape), MAX_DEVICES, f"mesh {fmt_shape(self.shape)}", "devices")
        if self.names and len(self.names) != len(self.shape):
            raise LayoutError(f"mesh has {len(self.shape)} axes but {len(self.names)} names")
        if len(set(self.names)) != len(self.names):
            raise LayoutError(f"mesh axis names must be unique, got {self.names}")

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def axis(self, key: int | str) -> int:
        if isinstance(key, str) and not key.isdigit():
            if key not in self.names:
                raise LayoutError(f"mesh has no axis named '{key}'; its axes are {list(self.names) or list(range(self.rank))}")
            return self.names.index(key)
        a = int(key)
        if not 0 <= a < self.rank:
            raise LayoutError(f"mesh axis {a} out of range for a {self.rank}-d mesh {self.shape}")
        return a

    def coords(self) -> list[tuple[int, ...]]:
        """Every device coordinate, in device-id (row-major) order."""
        return list(product(*[range(n) for n in self.shape]))

    def device_id(self, coord: tuple[int, ...]) -> int:
        return int(np.ravel_multi_index(tuple(coord), self.shape))

    def coord_of(self, device: int) -> tuple[int, ...]:
        return tuple(int(i) for i in np.unravel_index(device, self.shape))

    def __str__(self) -> str:
        if self.names:
            return "[" + ", ".join(f"{n}={s}" for n, s in zip(self.names, self.shape)) + "]"
        return fmt_shape(self.shape)


def chunk_bounds(n: int, k: int, i: int) -> tuple[int, int]:
    """[start, stop) of piece i when n elements split into k pieces as torch.chunk does."""
    size = ceil_div(n, k) if n else 0
    start = min(i * size, n)
    return start, min(start + size, n)


@dataclass(frozen=True)
class ShardingSpec:
    mesh: Mesh
    dims: tuple[tuple[int, ...], ...]
    """For each tensor dim, the mesh axes sharding it, major first; () means replicated (R)."""
    partial: tuple[int, ...] = ()
    """Mesh axes over which the devices hold partial sums of the tensor (reduce to get it)."""
    dim_names: tuple[str, ...] = field(default=(), compare=False)
    """Optional tensor dim names of the named form `[B=2/DP=2, ...]`; not part of equality."""
    dim_sizes: tuple[int | None, ...] = field(default=(), compare=False)
    """Optional tensor dim sizes the named form declared (None = not given); not part of equality."""

    def __post_init__(self):
        object.__setattr__(self, "dims", tuple(tuple(int(a) for a in d) for d in self.dims))
        object.__setattr__(self, "partial", tuple(int(a) for a in self.partial))
        object.__setattr__(self, "dim_names", tuple(self.dim_names))
        object.__setattr__(self, "dim_sizes", tuple(None if n is None else int(n) for n in self.dim_sizes))
        for extra, what in ((self.dim_names, "dim_names"), (self.dim_sizes, "dim_sizes")):
            if extra and len(extra) != len(self.dims):
                raise LayoutError(f"sharding spec has {len(self.dims)} dims but {len(extra)} {what}")
        used = [a for d in self.dims for a in d] + list(self.partial)
        for a in used:
            if not 0 <= a < self.mesh.rank:
                raise LayoutError(f"sharding spec uses mesh axis {a}, but the mesh {self.mesh} has {self.mesh.rank} axes")
        if len(set(used)) != len(used):
            raise LayoutError(f"sharding spec uses a mesh axis more than once: {self.dims} partial {self.partial}")

    @property
    def rank(self) -> int:
        return len(self.dims)

    def replicated_axes(self) -> tuple[int, ...]:
        used = {a for d in self.dims for a in d} | set(self.partial)
        return tuple(a for a in range(self.mesh.rank) if a not in used)

    def num_pieces(self, dim: int) -> int:
        return math.prod(self.mesh.shape[a] for a in self.dims[dim])

    def piece_index(self, coord: tuple[int, ...], dim: int) -> int:
        """Index of the piece of `dim` a device holds (mixed radix over the dim's axes, major first)."""
        idx = 0
        for a in self.dims[dim]:
            idx = idx * self.mesh.shape[a] + coord[a]
        return idx

    def local_bounds(self, shape: tuple[int, ...], coord: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
        """Per tensor dim, the [start, stop) a device holds."""
        self.check_shape(shape)
        return tuple(
            chunk_bounds(n, self.num_pieces(d), self.piece_index(coord, d)) for d, n in enumerate(shape)
        )

    def local_slices(self, shape: tuple[int, ...], coord: tuple[int, ...]) -> tuple[slice, ...]:
        return tuple(slice(a, b) for a, b in self.local_bounds(shape, coord))

    def local_shape(self, shape: tuple[int, ...], coord: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(b - a for a, b in self.local_bounds(shape, coord))

    def is_even(self, shape: tuple[int, ...]) -> bool:
        return all(n % self.num_pieces(d) == 0 for d, n in enumerate(shape))

    def buffer_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        """The shape of every device's buffer for a tensor of `shape`: ceil(n / k) a dim split into
        k pieces. An uneven split is held padded, as JAX, Shardy and DTensor hold it: a device's
        piece (`local_bounds`, torch.chunk) fills the start of its buffer, the rest is padding that
        no op reads and no move sends (the last pieces are shorter or empty). Even: the piece."""
        self.check_shape(shape)
        return tuple(ceil_div(n, self.num_pieces(d)) if n else 0 for d, n in enumerate(shape))

    def padding_elements(self, shape: tuple[int, ...]) -> int:
        """Elements of padding over all devices' buffers (0 for an even split)."""
        buffer = math.prod(self.buffer_shape(shape))
        held = sum(math.prod(self.local_shape(shape, c)) for c in self.mesh.coords())
        return buffer * self.mesh.size - held

    def check_shape(self, shape: tuple[int, ...]) -> None:
        if len(shape) != self.rank:
            raise LayoutError(f"sharding spec {self} has {self.rank} dims but the tensor has rank {len(shape)} {tuple(shape)}")

    def __str__(self) -> str:
        def axis(a: int) -> str:
            return self.mesh.names[a] if self.mesh.names else str(a)

        def one(d: tuple[int, ...]) -> str:
            if not d:
                return "R"
            if self.mesh.names:
                return "S(" + ",".join(axis(a) for a in d) + ")"
            return "S" + "".join(str(a) for a in d)

        text = "[" + ", ".join(one(d) for d in self.dims) + "]"
        if self.partial:
            text += " P(" + ",".join(axis(a) for a in self.partial) + ")"
        return text


@dataclass(frozen=True)
class UnboundMesh(Mesh):
    """The mesh of a spec written without one (`#tt.sharding<[S0, R]>`): its axes are indices
    into the mesh the spec is later bound to (a module's device mesh), sizes unknown (1 here).
    Never equal to a `Mesh`, so an unbound spec is never mistaken for a bound one."""


def bind_spec(spec: ShardingSpec, mesh: Mesh) -> ShardingSpec:
    """An unbound spec over `mesh`; a bound one must already be over a mesh of that shape."""
    if not isinstance(spec.mesh, UnboundMesh):
        if spec.mesh.shape != mesh.shape:
            raise LayoutError(f"spec {spec} is over the mesh {spec.mesh}, not the mesh {mesh}")
        return spec
    used = [a for d in spec.dims for a in d] + list(spec.partial)
    if used and max(used) >= mesh.rank:
        raise LayoutError(f"spec {spec} uses mesh axis {max(used)}, but the mesh {mesh} has {mesh.rank} axes")
    return ShardingSpec(mesh, spec.dims, spec.partial, spec.dim_names, spec.dim_sizes)


def dims_from_shard_dims(shard_dims, rank: int) -> tuple[tuple[int, ...], ...]:
    """Per tensor dim, the mesh axes splitting it (major first), when mesh axis `a` splits tensor
    dim `shard_dims[a]` (-1: none): a ShardingSpec's `dims` from a mesh_shard's `shard_dims`."""
    dims: list[list[int]] = [[] for _ in range(rank)]
    for axis, d in enumerate(shard_dims):
        if d >= rank:
            raise LayoutError(f"shard_dims entry {d} (mesh axis {axis}) is not a dim of a rank-{rank} tensor; "
                              f"expected -1 (replicate) or a dim below {rank}")
        if d >= 0:
            dims[d].append(axis)
    return tuple(tuple(x) for x in dims)


def spec_from_shard_dims(shard_dims, rank: int, mesh_shape) -> ShardingSpec:
    """The ShardingSpec a mesh_shard's (or a host <-> mesh transfer's) `shard_dims` state over
    `mesh_shape`: per mesh axis, the tensor dim it splits or -1. The inverse of `shard_dims_of`."""
    if isinstance(mesh_shape, Mesh):
        mesh = mesh_shape
    else:
        mesh = Mesh((int(mesh_shape),) if np.ndim(mesh_shape) == 0 else tuple(int(n) for n in mesh_shape))
    shard_dims = [int(d) for d in shard_dims]
    if len(shard_dims) > mesh.rank:
        raise LayoutError(f"shard_dims {shard_dims} has {len(shard_dims)} entries for a mesh of {mesh.rank} axes; "
                          f"expected one entry per mesh axis")
    return ShardingSpec(mesh, dims_from_shard_dims(shard_dims, rank))


def states_shard_dims(spec: ShardingSpec) -> bool:
    """Can `shard_dims` state `spec`: no partial sums, each dim's mesh axes in ascending order."""
    return not spec.partial and all(list(d) == sorted(d) for d in spec.dims)


def shard_dims_of(spec: ShardingSpec) -> tuple[int, ...]:
    """`spec` as `shard_dims` (per mesh axis, the tensor dim it splits, -1 for none: a replicated
    spec is all -1); LayoutError when shard_dims cannot state it. The inverse of
    `spec_from_shard_dims`."""
    if not states_shard_dims(spec):
        raise LayoutError(f"shard_dims cannot state the sharding {spec}: it has partial sums or splits a dim "
                          f"over mesh axes in descending order")
    dims = [-1] * spec.mesh.rank
    for d, axes in enumerate(spec.dims):
        for a in axes:
            dims[a] = d
    return tuple(dims)
