"""TT-Mesh's ShardedBufferConfig: lowering mesh mappers to it, and executing it (host <-> mesh).

The 2D form (the TT-Mesh sharding spec) sees a tensor flattened to a 2D buffer: x = the innermost dim, y = the
product of all outer dims (b * z * y for a 4D tensor). `shard_shape` (x, y) cuts that buffer
into a grid of shards, read in row-major order; a 0 means "the shard spans the whole buffer
along that axis and is replicated along the other mesh axis". Placement on a (rows, cols) mesh:

* no 0: ROW_MAJOR puts shard i on device (i // cols, i % cols) (along a mesh row, then wrap),
  COL_MAJOR on (i % rows, i // rows) (down a column, then wrap);
* one 0: ROW_MAJOR puts shard i on every device of mesh column i, COL_MAJOR on every device of
  mesh row i (the orientation picks the axis the shards spread over);
* both 0: the whole buffer on every device.

Because the flattening merges every outer dim into y, the 2D form can only shard an outer dim
whose outer neighbours are all 1 (or split into single indices): `lower_mesh_mapper` raises
UnsupportedSharding otherwise, as the TT-Mesh sharding spec asks. The ND form (`NDShardedBufferConfig`,
`lower_mesh_mapper_nd`) keeps every dim, with a shard shape and a list of mesh axes per dim, and
expresses every mapper without a transpose (and padded uneven splits). A 2D config is an ND config
over the 2-d tensor (y, x) (`ShardedBufferConfig.to_nd`).

`write_sharded` / `read_sharded` move the bytes with numpy slices, one copy per device buffer.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from meshc.layout.errors import LayoutError, UnsupportedSharding
from meshc.layout.limits import as_int, tensor_shape as tensor_shape_of
from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.mesh_mappers import MeshMapper, as_mesh, spec_of, uneven_error
from meshc.layout.sharding_spec import format_spec
from meshc.layout.shapes import ceil_div, fmt_shape, fold_2d
from meshc.layout.dtypes import get_dtype

ROW_MAJOR = "row_major"
COL_MAJOR = "col_major"
ORIENTATIONS = (ROW_MAJOR, COL_MAJOR)

Coord = tuple[int, ...]


def _pair(name: str, v) -> tuple[int, int]:
    t = tuple(int(n) for n in v)
    if len(t) != 2 or any(n < 0 for n in t):
        raise LayoutError(f"{name} must be a pair (x, y) of non-negative integers, got {v}")
    return t


@dataclass(frozen=True)
class ShardedBufferConfig:
    """The 2D TT-Mesh config; shapes are (x, y) = (width, height) of the flattened buffer."""

    global_buffer_size: int
    shard_shape: tuple[int, int]
    global_buffer_shape: tuple[int, int]
    mesh_shard_orientation: str = ROW_MAJOR

    def __post_init__(self):
        object.__setattr__(self, "global_buffer_size", int(self.global_buffer_size))
        object.__setattr__(self, "shard_shape", _pair("shard_shape", self.shard_shape))
        object.__setattr__(self, "global_buffer_shape", _pair("global_buffer_shape", self.global_buffer_shape))
        if self.mesh_shard_orientation not in ORIENTATIONS:
            raise LayoutError(f"mesh_shard_orientation must be 'row_major' or 'col_major', "
                              f"got '{self.mesh_shard_orientation}'")
        gx, gy = self.global_buffer_shape
        if gx < 1 or gy < 1:
            raise LayoutError(f"global_buffer_shape {self.global_buffer_shape} must be at least 1x1")
        if self.global_buffer_size < 1 or self.global_buffer_size % (gx * gy):
            raise LayoutError(f"global_buffer_size {self.global_buffer_size} is not a whole number of datums "
                              f"of the {gx}x{gy} buffer (expected x * y * datum_size)")
        for axis, s, g in (("x", self.shard_shape[0], gx), ("y", self.shard_shape[1], gy)):
            if s and g % s:
                raise LayoutError(f"shard {axis} {s} does not divide the global buffer's {axis} {g} "
                                  f"(TT-Mesh needs shards that divide the buffer)")

    @property
    def datum_size(self) -> int:
        return self.global_buffer_size // (self.global_buffer_shape[0] * self.global_buffer_shape[1])

    @property
    def replicated(self) -> bool:
        """True when the shards are replicated along a mesh axis (a 0 in shard_shape)."""
        return 0 in self.shard_shape

    @property
    def physical_shard_shape(self) -> tuple[int, int]:
        """(x, y) of one shard, a 0 replaced by the whole buffer's extent."""
        return tuple(s or g for s, g in zip(self.shard_shape, self.global_buffer_shape))

    @property
    def shard_grid(self) -> tuple[int, int]:
        """(shards along y, shards along x): the grid the shards are read from, row-major."""
        (px, py), (gx, gy) = self.physical_shard_shape, self.global_buffer_shape
        return gy // py, gx // px

    def device_shards(self, mesh_shape) -> np.ndarray:
        """Per device (row-major device order), the index of the shard it holds in read order, or -1.

        Vectorized over the mesh (a galaxy of galaxies costs a few numpy ops); `placement` and
        the simulator's host transfers both read it."""
        mesh, _ = _mesh_2d(mesh_shape)
        rows, cols = mesh.shape
        ny, nx = self.shard_grid
        n = ny * nx
        r, c = np.divmod(np.arange(rows * cols), cols)
        if self.shard_shape == (0, 0):
            return np.zeros(rows * cols, np.int64)
        row_major = self.mesh_shard_orientation == ROW_MAJOR
        if self.replicated:
            slots, what = (cols, "columns") if row_major else (rows, "rows")
            shard = c if row_major else r
        else:
            slots, what = rows * cols, "devices"
            shard = r * cols + c if row_major else c * rows + r
        if n > slots:
            how = f"{self.mesh_shard_orientation.upper()}{' with replication' if self.replicated else ''}"
            raise LayoutError(f"the config cuts the buffer into {n} shards ({ny}x{nx}) but {how} places them on "
                              f"the {slots} {what} of mesh {mesh}: more shards than places")
        return np.where(shard < n, shard, -1)

    def placement(self, mesh_shape) -> list[tuple[tuple[int, int], list[Coord]]]:
        """[((shard row, shard col), [device coords holding it])], shards in read order."""
        mesh, to_coord = _mesh_2d(mesh_shape)
        cols = mesh.shape[1]
        shards = self.device_shards(mesh_shape)
        nx = self.shard_grid[1]
        holders: dict[int, list[Coord]] = {}
        for dev, s in enumerate(shards.tolist()):
            if s >= 0:
                holders.setdefault(s, []).append(to_coord(dev // cols, dev % cols))
        return [((s // nx, s % nx), holders[s]) for s in sorted(holders)]

    def to_nd(self, mesh_shape) -> "NDShardedBufferConfig":
        """The same placement as an ND config over the 2-d tensor (y, x)."""
        mesh, _ = _mesh_2d(mesh_shape)
        rows, cols = mesh.shape
        ny, nx = self.shard_grid
        px, py = self.physical_shard_shape
        row_major = self.mesh_shard_orientation == ROW_MAJOR
        if self.shard_shape == (0, 0):
            axes = ((), ())
        elif self.replicated:
            axis = (1,) if row_major else (0,)
            axes = (axis, ()) if self.shard_shape[0] == 0 else ((), axis)
        else:
            # shard i = sy * nx + sx sits on device i in row-major (or column-major) device order;
            # that is an ND placement only when the shard grid matches the mesh axis by axis.
            seq = (0, 1) if row_major else (1, 0)
            if nx == 1:
                axes = (seq, ())
            elif ny == 1:
                axes = ((), seq)
            elif (ny, nx) == ((rows, cols) if row_major else (cols, rows)):
                axes = ((seq[0],), (seq[1],))
            else:
                raise LayoutError(f"a {ny}x{nx} shard grid wraps around the {rows}x{cols} mesh in a way no ND "
                                  f"config (one mesh axis list per dim) expresses")
        nd = NDShardedBufferConfig(self.global_buffer_size, (self.global_buffer_shape[1], self.global_buffer_shape[0]),
                                   (py, px), mesh.shape, axes)
        if nd.shard_grid != (ny, nx):
            raise LayoutError(f"the {ny}x{nx} shard grid does not fill the {rows}x{cols} mesh; "
                              f"no ND config places it the same way")
        return nd


def _mesh_2d(mesh_shape):
    """The (rows, cols) mesh TT-Mesh sees, and a map from its coords back to the caller's."""
    mesh = as_mesh(mesh_shape)
    if mesh.rank == 1:
        return Mesh((1, mesh.shape[0])), lambda r, c: (c,)
    if mesh.rank != 2:
        raise UnsupportedSharding(f"the 2D ShardedBufferConfig places shards on a 2D (rows, cols) mesh; mesh {mesh} "
                                  f"has {mesh.rank} axes: use the ND form (lower_mesh_mapper_nd)")
    return mesh, lambda r, c: (r, c)


@dataclass(frozen=True)
class NDShardedBufferConfig:
    """The ND form: the tensor keeps its dims; each dim is cut into shards spread over mesh axes.

    `shard_shape[d]` is the shard's extent along dim d (the whole dim when it is not split);
    `dim_axes[d]` the mesh axes dim d's shards spread over, major first (as in a ShardingSpec);
    mesh axes in no list replicate. Shard p of dim d covers [p * s, (p + 1) * s), clipped to the
    tensor; a clipped (or empty) shard is zero-padded to the full shard shape on the device.
    """

    global_buffer_size: int
    global_shape: tuple[int, ...]
    shard_shape: tuple[int, ...]
    mesh_shape: tuple[int, ...]
    dim_axes: tuple[tuple[int, ...], ...]

    def __post_init__(self):
        object.__setattr__(self, "global_buffer_size", int(self.global_buffer_size))
        for name in ("global_shape", "shard_shape", "mesh_shape"):
            object.__setattr__(self, name, tuple(int(n) for n in getattr(self, name)))
        object.__setattr__(self, "dim_axes", tuple(tuple(int(a) for a in d) for d in self.dim_axes))
        r = len(self.global_shape)
        if r < 1 or len(self.shard_shape) != r or len(self.dim_axes) != r:
            raise LayoutError(f"global_shape {self.global_shape}, shard_shape {self.shard_shape} and dim_axes "
                              f"{self.dim_axes} must have one entry per tensor dim")
        spec = self.spec()  # checks the axes
        for d, (n, s) in enumerate(zip(self.global_shape, self.shard_shape)):
            k = spec.num_pieces(d)
            if n < 0 or s < 1 or s * k < n or (n and s > ceil_div(n, k)) or (n == 0 and s != 1):
                raise LayoutError(f"dim {d}: a shard of {s} over {k} pieces does not cover {n} elements "
                                  f"(expected shard {max(ceil_div(n, k), 1)})")
        elems = math.prod(self.global_shape)
        if elems and (self.global_buffer_size < 1 or self.global_buffer_size % elems):
            raise LayoutError(f"global_buffer_size {self.global_buffer_size} is not a whole number of datums "
                              f"of the {self.global_shape} tensor")

    @property
    def datum_size(self) -> int:
        return self.global_buffer_size // max(math.prod(self.global_shape), 1)

    @property
    def shard_grid(self) -> tuple[int, ...]:
        mesh = self.mesh_shape
        return tuple(math.prod(mesh[a] for a in axes) for axes in self.dim_axes)

    @property
    def padded(self) -> bool:
        return any(s * k != n for n, s, k in zip(self.global_shape, self.shard_shape, self.shard_grid))

    def spec(self) -> ShardingSpec:
        return ShardingSpec(Mesh(self.mesh_shape), self.dim_axes)

    def shard_bounds(self, coord: Coord) -> tuple[tuple[int, int], ...]:
        """Per dim, the [start, stop) of the tensor the device's shard holds (before padding)."""
        spec = self.spec()
        return tuple((min(p * s, n), min((p + 1) * s, n))
                     for n, s, p in ((n, s, spec.piece_index(coord, d))
                                     for d, (n, s) in enumerate(zip(self.global_shape, self.shard_shape))))


def placement_mesh(config, mesh_shape) -> tuple[int, ...]:
    """The mesh shape `config` places shards on: the mesh itself for the ND form (checked against
    the config's), the (rows, cols) mesh TT-Mesh sees for the 2D form."""
    if isinstance(config, NDShardedBufferConfig):
        mesh = as_mesh(mesh_shape)
        if mesh.shape != config.mesh_shape:
            raise LayoutError(f"the config is for mesh {fmt_shape(config.mesh_shape)}, not {mesh}")
        return mesh.shape
    if isinstance(config, ShardedBufferConfig):
        return _mesh_2d(mesh_shape)[0].shape
    raise LayoutError(f"expected a ShardedBufferConfig or NDShardedBufferConfig, got {config!r}")


def config_origins(config, mesh_shape) -> np.ndarray:
    """(devices, dims): per device in row-major device order, the origin of the block `config`
    gives it, in the tensor (ND form) or in the 2D buffer (y, x) (2D form); vectorized over the
    mesh. LayoutError when the config leaves a device without a block."""
    mesh = placement_mesh(config, mesh_shape)
    if isinstance(config, NDShardedBufferConfig):
        coords = np.indices(mesh).reshape(len(mesh), -1).T
        origins = np.zeros((coords.shape[0], len(config.shard_shape)), np.int64)
        for d, axes in enumerate(config.dim_axes):
            idx = np.zeros(coords.shape[0], np.int64)
            for a in axes:
                idx = idx * mesh[a] + coords[:, a]
            origins[:, d] = idx * config.shard_shape[d]
        return origins
    shards = config.device_shards(mesh_shape)
    if (shards < 0).any():
        raise LayoutError("the config leaves devices without a shard; a transfer needs one on every device")
    px, py = config.physical_shard_shape
    sy, sx = np.divmod(shards, config.shard_grid[1])
    return np.stack([sy * py, sx * px], axis=1).astype(np.int64)


def _flat2d(shape: Sequence[int]) -> tuple[int, int]:
    """(height, width) of the 2D buffer a tensor flattens to: (prod of outer dims, innermost)."""
    if len(shape) == 0:
        raise LayoutError("a 0-d tensor has no 2D buffer form; reshape it to (1,) first")
    return fold_2d(shape)


def _even_spec(tensor_shape, mesh: Mesh, mapper) -> ShardingSpec:
    spec = spec_of(mapper, mesh, len(tensor_shape))
    if spec.partial:
        raise LayoutError(f"a buffer config holds data, not partial sums; spec {format_spec(spec)} has partial axes")
    return spec


def _shape_and_datum(tensor_shape, datum_size) -> tuple[tuple[int, ...], int]:
    shape = tensor_shape_of(tensor_shape, "tensor_shape", minimum=1)
    datum_size = as_int(datum_size, "datum_size")
    if datum_size < 1:
        raise LayoutError(f"datum_size must be at least 1 byte, got {datum_size}")
    return shape, datum_size


def lower_mesh_mapper(tensor_shape: Sequence[int], mesh_shape, mapper, datum_size: int) -> ShardedBufferConfig:
    """The 2D ShardedBufferConfig that distributes as `mapper` does (TT-Mesh's faithful form).

    Raises UnsupportedSharding when the flattened 2D buffer cannot express the mapper (an outer
    dim sharded while a dim outside it stays > 1; a mesh with more than 2 axes), LayoutError when
    the pieces are not equal.
    """
    shape, datum_size = _shape_and_datum(tensor_shape, datum_size)
    height, width = _flat2d(shape)
    user_mesh = as_mesh(mesh_shape)
    mesh, _ = _mesh_2d(user_mesh)
    spec = _even_spec(shape, user_mesh, mapper)
    if user_mesh.rank == 1:
        spec = ShardingSpec(mesh, tuple(tuple(a + 1 for a in d) for d in spec.dims))
    who = str(mapper) if not isinstance(mapper, (str, ShardingSpec)) else f"spec {format_spec(spec)}"
    for d, n in enumerate(shape):
        k = spec.num_pieces(d)
        if n % k or n < k:
            if isinstance(mapper, MeshMapper) and not mapper.pad:
                raise uneven_error(mapper, d, n, k)
            raise LayoutError(f"{who}: dim {d} of size {n} does not split into {k} equal shards, and a "
                              f"ShardedBufferConfig needs shards that divide the buffer; pad the tensor to a "
                              f"multiple of {k} on the host first, or use lower_mesh_mapper_nd (padded shards)")
    outer = [d for d in range(len(shape) - 1) if spec.num_pieces(d) > 1]
    if outer:
        last = max(outer)
        for d in range(last):
            if shape[d] // spec.num_pieces(d) != 1:
                names = "bzy"[-(len(shape) - 1):] if len(shape) <= 4 else None
                dim_name = f"dim {last}" + (f" ({names[last]})" if names else "")
                raise UnsupportedSharding(
                    f"{who} shards {dim_name} of tensor {shape}, but each shard keeps "
                    f"{shape[d] // spec.num_pieces(d)} indices of the outer dim {d}: TT-Mesh flattens the tensor to "
                    f"a 2D buffer (x={width}, y={height}) where such a shard is not one block of rows. The 2D "
                    f"ShardedBufferConfig shards y only when b = z = 1 and z only when b = 1. Transpose dim {last} "
                    f"to the front (or innermost) first, or use the ND form (lower_mesh_mapper_nd)")
    h_seq = [a for d in range(len(shape) - 1) for a in spec.dims[d]]
    w_seq = list(spec.dims[-1])
    kh = math.prod(mesh.shape[a] for a in h_seq)
    kw = math.prod(mesh.shape[a] for a in w_seq)
    seq = h_seq + w_seq
    if not seq:
        shard, orientation = (0, 0), ROW_MAJOR
    elif len(seq) == 1 and mesh.shape[1 - seq[0]] > 1:  # the other mesh axis replicates
        orientation = ROW_MAJOR if seq[0] == 1 else COL_MAJOR
        shard = (0, height // kh) if h_seq else (width // kw, 0)
    elif len(seq) == 1:  # the other mesh axis has one device: nothing is replicated
        orientation = ROW_MAJOR if seq[0] == 1 else COL_MAJOR
        shard = (width // kw, height // kh)
    else:
        orientation = ROW_MAJOR if seq == [0, 1] else COL_MAJOR
        shard = (width // kw, height // kh)
    return ShardedBufferConfig(height * width * datum_size, shard, (width, height), orientation)


def lower_mesh_mapper_nd(tensor_shape: Sequence[int], mesh_shape, mapper, datum_size: int) -> NDShardedBufferConfig:
    """The ND config that distributes as `mapper` does: every mapper, on meshes of any rank.

    A mapper with pad=True (or a spec) may split unevenly: shards are ceil(n / k) and the last
    ones are zero-padded, as `distribute` pads.
    """
    shape, datum_size = _shape_and_datum(tensor_shape, datum_size)
    if not shape:
        raise LayoutError("a 0-d tensor has no buffer form; reshape it to (1,) first")
    mesh = as_mesh(mesh_shape)
    spec = _even_spec(shape, mesh, mapper)
    shard = []
    for d, n in enumerate(shape):
        k = spec.num_pieces(d)
        if n % k and isinstance(mapper, MeshMapper) and not mapper.pad:
            raise uneven_error(mapper, d, n, k)
        shard.append(max(ceil_div(n, k), 1))
    return NDShardedBufferConfig(math.prod(shape) * datum_size, shape, tuple(shard), mesh.shape, spec.dims)


def datum_size(dtype) -> int:
    """Bytes a datum of a host tensor of `dtype` (a DataType or name) takes in a config's
    global_buffer_size: the element size (block floats, stored per tile, count 1 a datum)."""
    d = get_dtype(dtype)
    return 1 if d.is_block_float else d.itemsize


def _scalar_as_one(shape: tuple[int, ...], spec: ShardingSpec) -> tuple[tuple[int, ...], ShardingSpec]:
    """A 0-d tensor as the one-element, replicated 1-d tensor its transfer moves (TTNN holds a
    scalar as a one-element tensor); any other shape and spec as they are."""
    if shape:
        return shape, spec
    return (1,), ShardingSpec(spec.mesh, ((),), spec.partial)


def lower_distribution(tensor_shape: Sequence[int], spec: ShardingSpec, datum_size: int):
    """The config distributing `tensor_shape` as `spec` says: the faithful 2D config
    (ShardedBufferConfig) or, where TT-Mesh's 2D infra cannot express it, the ND one
    (NDShardedBufferConfig); the config's class is its form. LayoutError when neither expresses it.
    A 0-d tensor (a scalar, which no mesh axis can split) travels as one element, replicated."""
    shape, spec = _scalar_as_one(tuple(int(n) for n in tensor_shape), spec)
    try:
        return lower_mesh_mapper(shape, spec.mesh, spec, datum_size)
    except UnsupportedSharding:
        return lower_mesh_mapper_nd(shape, spec.mesh, spec, datum_size)


def check_config_fits(config, full_shape: Sequence[int], local_shape: Sequence[int], mesh_shape,
                      datum_size: int) -> None:
    """LayoutError unless `config` distributes a `full_shape` host tensor of `datum_size`-byte
    datums over `mesh_shape` so that every device receives exactly one `local_shape` piece."""
    full = tuple(int(n) for n in full_shape)
    local = tuple(int(n) for n in local_shape)
    if not full:  # a scalar: one element on every device
        full = local = (1,)
    size = math.prod(full) * int(datum_size)
    if config.global_buffer_size != size:
        raise LayoutError(f"global_buffer_size {config.global_buffer_size} is not the {size} bytes of the "
                          f"{fmt_shape(full)} tensor ({datum_size} B a datum)")
    if isinstance(config, NDShardedBufferConfig):
        mesh = as_mesh(mesh_shape)
        if config.mesh_shape != mesh.shape:
            raise LayoutError(f"the ND config is for mesh {list(config.mesh_shape)}, the program's mesh is {mesh}")
        if config.global_shape != full:
            raise LayoutError(f"global_shape {list(config.global_shape)} is not the tensor's shape {list(full)}")
        if config.shard_shape != local:
            raise LayoutError(f"shard_shape {list(config.shard_shape)} is not the per-device shape {list(local)}")
        return
    height, width = _flat2d(full)
    if config.global_buffer_shape != (width, height):
        raise LayoutError(f"global_buffer_shape {list(config.global_buffer_shape)} is not [{width}, {height}], the "
                          f"tensor {list(full)} flattened along y (x = the innermost dim, y = the rest)")
    empty = np.flatnonzero(config.device_shards(mesh_shape) < 0)
    if empty.size:
        coord = as_mesh(mesh_shape).coord_of(int(empty[0]))
        raise LayoutError(f"the config leaves {empty.size} device(s) of mesh {as_mesh(mesh_shape)} without a shard "
                          f"(the first at {coord}): {config.shard_grid[0] * config.shard_grid[1]} shards, "
                          f"{config.mesh_shard_orientation}")
    lh, lw = _flat2d(local) if local else (1, 1)
    px, py = config.physical_shard_shape
    if (px, py) != (lw, lh):
        raise LayoutError(f"a shard of the config is {px}x{py} (x, y), but each device holds a "
                          f"{fmt_shape(local)} piece, {lw}x{lh} (x, y) when flattened")


def check_config_places(config, spec: ShardingSpec, full_shape: Sequence[int], datum_size: int) -> None:
    """LayoutError unless `config` gives every device of `spec`'s mesh exactly the block of the
    `full_shape` host tensor that `spec` gives it (in either form: 2D or ND). `spec` must split the
    tensor evenly (the transfer ops check that first)."""
    full, spec = _scalar_as_one(tuple(int(n) for n in full_shape), spec)
    mesh = spec.mesh
    local = spec.local_shape(full, (0,) * mesh.rank)
    check_config_fits(config, full, local, mesh, datum_size)
    got = config_origins(config, mesh)
    starts = config_origins(NDShardedBufferConfig(config.global_buffer_size, full, local, mesh.shape, spec.dims), mesh)
    if isinstance(config, NDShardedBufferConfig):
        want = starts
    else:  # the origin of each device's block in the 2D buffer (y, x)
        inner = np.array([math.prod(full[d + 1:-1]) for d in range(len(full) - 1)], np.int64)
        want = np.stack([starts[:, :-1] @ inner, starts[:, -1]], axis=1)
    wrong = np.flatnonzero((got != want).any(axis=1))
    if wrong.size:
        dev = int(wrong[0])
        raise LayoutError(f"the config gives device {mesh.coord_of(dev)} the block at {got[dev].tolist()} of the "
                          f"{'tensor' if isinstance(config, NDShardedBufferConfig) else '2D buffer (y, x)'}, but "
                          f"the sharding {spec} gives it the block at {want[dev].tolist()} "
                          f"({wrong.size} of {mesh.size} devices differ)")


# ---- executing a config ----------------------------------------------------------------------

def _check_tensor(tensor: np.ndarray, size: int, what: str) -> None:
    if tensor.nbytes != size:
        raise LayoutError(f"the tensor {tensor.shape} {tensor.dtype} has {tensor.nbytes} bytes but the {what} "
                          f"holds global_buffer_size = {size}")


def write_sharded(tensor: np.ndarray, config, mesh_shape) -> dict[Coord, np.ndarray]:
    """Distribute `tensor` as `config` (2D or ND) says: {device coord: its 2D buffer (height, width)}.

    Devices the config gives no shard are absent. Every buffer is its own contiguous copy.
    """
    tensor = np.asarray(tensor)
    if isinstance(config, NDShardedBufferConfig):
        return _write_nd(tensor, config, mesh_shape)
    if not isinstance(config, ShardedBufferConfig):
        raise LayoutError(f"expected a ShardedBufferConfig or NDShardedBufferConfig, got {config!r}")
    height, width = _flat2d(tensor.shape)
    if (width, height) != config.global_buffer_shape:
        raise LayoutError(f"the tensor {tensor.shape} flattens to a buffer (x={width}, y={height}), the config's "
                          f"global_buffer_shape is {config.global_buffer_shape}")
    _check_tensor(tensor, config.global_buffer_size, "config")
    flat = tensor.reshape(height, width)
    px, py = config.physical_shard_shape
    out: dict[Coord, np.ndarray] = {}
    for (sy, sx), devices in config.placement(mesh_shape):
        block = flat[sy * py:(sy + 1) * py, sx * px:(sx + 1) * px]
        for dev in devices:
            out[dev] = np.array(block, order="C", copy=True)
    return out


def read_sharded(buffers: Mapping[Coord, np.ndarray], config, mesh_shape,
                 shape: Sequence[int] | None = None) -> np.ndarray:
    """Gather device buffers back into the tensor (2D (y, x), or `shape`).

    A 2D config replicated along a mesh axis cannot be read back (TT-Mesh refuses it too: the
    data is on several devices); an ND config reads a replicated shard from its first device.
    """
    buffers = {tuple(int(i) for i in k): np.asarray(v) for k, v in buffers.items()}
    if isinstance(config, NDShardedBufferConfig):
        out = _read_nd(buffers, config, mesh_shape)
    elif isinstance(config, ShardedBufferConfig):
        if config.replicated:
            raise LayoutError(f"cannot read back a buffer replicated along a mesh axis (shard_shape "
                              f"{config.shard_shape}): each shard lives on several devices; read one "
                              f"device's buffer instead")
        placement = config.placement(mesh_shape)
        px, py = config.physical_shard_shape
        gx, gy = config.global_buffer_shape
        dtype = _buffers_dtype(buffers, [devs[0] for _, devs in placement])
        out = np.empty((gy, gx), dtype=dtype)
        for (sy, sx), (dev,) in placement:
            out[sy * py:(sy + 1) * py, sx * px:(sx + 1) * px] = _buffer(buffers, dev, (py, px))
        _check_tensor(out, config.global_buffer_size, "config")
    else:
        raise LayoutError(f"expected a ShardedBufferConfig or NDShardedBufferConfig, got {config!r}")
    if shape is not None:
        shape = tuple(int(n) for n in shape)
        if math.prod(shape) != out.size:
            raise LayoutError(f"cannot view the {out.shape} buffer as a tensor of shape {shape}")
        out = out.reshape(shape)
    return out


def _buffers_dtype(buffers: Mapping[Coord, np.ndarray], devices: list[Coord]):
    for dev in devices:
        if dev not in buffers:
            raise LayoutError(f"no buffer for device {dev}, which the config gives a shard")
    return np.result_type(*[buffers[d].dtype for d in devices])


def _buffer(buffers, dev: Coord, shape: tuple[int, ...]) -> np.ndarray:
    b = buffers[dev]
    if b.shape != shape:
        if b.size != math.prod(shape):
            raise LayoutError(f"the buffer of device {dev} has shape {b.shape}, the config's shard is {shape}")
        b = b.reshape(shape)
    return b


def _write_nd(tensor: np.ndarray, config: NDShardedBufferConfig, mesh_shape) -> dict[Coord, np.ndarray]:
    mesh = as_mesh(mesh_shape)
    if mesh.shape != config.mesh_shape:
        raise LayoutError(f"the config is for mesh {fmt_shape(config.mesh_shape)}, not {mesh}")
    if tensor.shape != config.global_shape:
        raise LayoutError(f"the tensor has shape {tensor.shape}, the config's global_shape is {config.global_shape}")
    _check_tensor(tensor, config.global_buffer_size, "config")
    h, w = _flat2d(config.shard_shape)
    out: dict[Coord, np.ndarray] = {}
    for coord in mesh.coords():
        bounds = config.shard_bounds(coord)
        piece = tensor[tuple(slice(a, b) for a, b in bounds)]
        if piece.shape == config.shard_shape:
            buf = np.array(piece, order="C", copy=True)
        else:
            buf = np.zeros(config.shard_shape, dtype=tensor.dtype)
            buf[tuple(slice(0, b - a) for a, b in bounds)] = piece
        out[coord] = buf.reshape(h, w)
    return out


def _read_nd(buffers, config: NDShardedBufferConfig, mesh_shape) -> np.ndarray:
    mesh = as_mesh(mesh_shape)
    if mesh.shape != config.mesh_shape:
        raise LayoutError(f"the config is for mesh {fmt_shape(config.mesh_shape)}, not {mesh}")
    replicated = config.spec().replicated_axes()
    readers = [c for c in mesh.coords() if not any(c[a] for a in replicated)]
    dtype = _buffers_dtype(buffers, readers)
    out = np.empty(config.global_shape, dtype=dtype)
    for coord in readers:
        bounds = config.shard_bounds(coord)
        shard = _buffer(buffers, coord, config.shard_shape)
        out[tuple(slice(a, b) for a, b in bounds)] = shard[tuple(slice(0, b - a) for a, b in bounds)]
    _check_tensor(out, config.global_buffer_size, "config")
    return out
