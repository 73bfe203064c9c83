"""How a device-local tensor sits in one chip's memories, and mesh buffers of real bytes.

`ShardLayout` is the simulator's executor of a memory config on one chip: the tensor folds
to 2-D (outer dims into the height), and
- interleaved: pages (rows) go round robin over the DRAM banks (or over every core's L1),
  page p to bank p % nbanks at slot p // nbanks, each page padded to the memory's alignment;
- height / width / block sharded: a grid of shards (whole rows, whole columns, or blocks),
  shard k of the row-major shard grid on the k-th core of the grid in the config's
  orientation (row_major: x fastest; col_major: y fastest); the last shards may be partial
  (the bytes past the tensor's edge are padding).
Its `scatter` / `gather` move whole shards as numpy slices (a reshape and a transpose for the
even part, one more slice per ragged edge), never element by element.

A `MeshBuffer` is one lockstep allocation: the same address in every owner (core L1 or DRAM
bank) on every chip of the mesh it spans. Its bytes are a real uint8 array of shape
(devices, owners, bytes an owner), created on first use.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from meshc.layout.dtypes import DataType, get_dtype
from meshc.layout.errors import LayoutError
from meshc.sim.allocator import align_up
from meshc.sim.encoding import storage_dtype

SHARDED = ("height_sharded", "width_sharded", "block_sharded")
LAYOUTS = ("interleaved",) + SHARDED


@dataclass(frozen=True)
class MemorySpec:
    """The parts of a memory config the simulator executes (duck-types meshc.layout.MemoryConfig)."""

    buffer: str = "dram"
    layout: str = "interleaved"
    grid: tuple[int, int] | None = None
    shard_shape: tuple[int, int] | None = None
    orientation: str = "row_major"

    @classmethod
    def of(cls, cfg) -> "MemorySpec":
        if cfg is None:
            return cls()
        if isinstance(cfg, MemorySpec):
            return cfg
        grid = getattr(cfg, "grid", None)
        if grid is not None and not isinstance(grid, tuple):
            bbox = getattr(grid, "bounding_box", None) or getattr(grid, "shape", None)
            grid = tuple(bbox() if callable(bbox) else bbox) if bbox is not None else None
        shard = getattr(cfg, "shard_shape", None)
        return cls(str(getattr(cfg, "buffer", "dram")), str(getattr(cfg, "layout", "interleaved")),
                   None if grid is None else tuple(int(g) for g in grid),
                   None if shard is None else tuple(int(s) for s in shard),
                   str(getattr(cfg, "orientation", "row_major")))

    def __post_init__(self):
        if self.buffer not in ("l1", "dram"):
            raise LayoutError(f"buffer type '{self.buffer}' is not l1 or dram")
        if self.layout not in LAYOUTS:
            raise LayoutError(f"the simulator runs memory layouts {', '.join(LAYOUTS)}; got '{self.layout}'")
        if self.layout in SHARDED and self.buffer != "l1":
            raise LayoutError(f"{self.layout} tensors live in L1, not {self.buffer}")
        if self.orientation not in ("row_major", "col_major"):
            raise LayoutError(f"shard orientation '{self.orientation}' is not row_major or col_major")

    def __str__(self) -> str:
        s = f"{self.buffer} {self.layout}"
        if self.grid:
            s += f" on {self.grid[0]}x{self.grid[1]} cores"
        return s


def fold2d(shape: tuple[int, ...]) -> tuple[int, int]:
    if len(shape) == 0:
        return 1, 1
    return math.prod(shape[:-1]), shape[-1]


@dataclass(frozen=True)
class ShardLayout:
    """A local tensor of `shape` and `dtype` laid out on one chip by a `MemorySpec`."""

    shape: tuple[int, ...]
    dtype: DataType
    spec: MemorySpec
    chip_grid: tuple[int, int]
    dram_banks: int
    alignment: int
    owners: tuple = field(init=False)
    """Owner of each stored block: core (y, x) for L1, bank index for DRAM."""
    grid: tuple[int, int] = field(init=False)
    """Shard grid (rows, cols) for sharded layouts; (slots, nbanks) for interleaved."""
    block: tuple[int, int] = field(init=False)
    """Shard shape in elements (sharded); (1, W) pages (interleaved)."""
    owner_bytes: int = field(init=False)
    """Bytes each owner holds (the lockstep allocation size)."""

    def __post_init__(self):
        H, W = fold2d(self.shape)
        es = storage_dtype(self.dtype).itemsize
        spec = self.spec
        gy_chip, gx_chip = self.chip_grid
        if spec.layout == "interleaved":
            if spec.buffer == "dram":
                owners = tuple(range(self.dram_banks))
            else:
                owners = tuple((y, x) for y in range(gy_chip) for x in range(gx_chip))
            n = len(owners)
            slots = -(-H // n)
            page = align_up(W * es, self.alignment)
            object.__setattr__(self, "owners", owners)
            object.__setattr__(self, "grid", (slots, n))
            object.__setattr__(self, "block", (1, W))
            object.__setattr__(self, "owner_bytes", slots * page)
            return
        grid = spec.grid or self.chip_grid
        gy, gx = grid
        if gy < 1 or gx < 1 or gy > gy_chip or gx > gx_chip:
            raise LayoutError(f"core grid {gy}x{gx} does not fit the chip's {gy_chip}x{gx_chip} worker cores")
        ncores = gy * gx
        if spec.layout == "height_sharded":
            sh = spec.shard_shape[0] if spec.shard_shape else -(-H // ncores)
            sgrid, block = (-(-H // sh), 1), (sh, W)
        elif spec.layout == "width_sharded":
            sw = spec.shard_shape[1] if spec.shard_shape else -(-W // ncores)
            sgrid, block = (1, -(-W // sw)), (H, sw)
        else:
            sh = spec.shard_shape[0] if spec.shard_shape else -(-H // gy)
            sw = spec.shard_shape[1] if spec.shard_shape else -(-W // gx)
            sgrid, block = (-(-H // sh), -(-W // sw)), (sh, sw)
            if sgrid[0] > gy or sgrid[1] > gx:
                raise LayoutError(f"block sharding a {H}x{W} tensor in {block[0]}x{block[1]} shards needs a "
                                  f"{sgrid[0]}x{sgrid[1]} core grid, but the grid is {gy}x{gx}")
        nshards = sgrid[0] * sgrid[1]
        if nshards > ncores:
            raise LayoutError(f"{spec.layout.replace('_', ' ')} a {H}x{W} tensor in {block[0]}x{block[1]} shards "
                              f"makes {nshards} shards, but the grid has only {ncores} cores")
        if spec.layout == "block_sharded":
            if spec.orientation == "row_major":
                owners = tuple((i, j) for i in range(sgrid[0]) for j in range(sgrid[1]))
            else:  # shard rows run along core columns
                owners = tuple((j, i) for i in range(sgrid[0]) for j in range(sgrid[1]))
        else:
            if spec.orientation == "row_major":
                cores = [(y, x) for y in range(gy) for x in range(gx)]
            else:
                cores = [(y, x) for x in range(gx) for y in range(gy)]
            owners = tuple(cores[:nshards])
        object.__setattr__(self, "owners", owners)
        object.__setattr__(self, "grid", sgrid)
        object.__setattr__(self, "block", block)
        object.__setattr__(self, "owner_bytes", block[0] * block[1] * es)

    @property
    def interleaved(self) -> bool:
        return self.spec.layout == "interleaved"

    @property
    def nbytes(self) -> int:
        """Bytes of tensor data (no padding)."""
        H, W = fold2d(self.shape)
        return H * W * storage_dtype(self.dtype).itemsize

    def owner_data_bytes(self) -> np.ndarray:
        """Bytes of real tensor data each owner holds (padding excluded), in owner order."""
        H, W = fold2d(self.shape)
        es = storage_dtype(self.dtype).itemsize
        if self.interleaved:
            slots, n = self.grid
            rows = np.full(n, H // n)
            rows[: H % n] += 1
            return rows * W * es
        (ny, nx), (sh, sw) = self.grid, self.block
        hs = np.minimum(sh, H - np.arange(ny) * sh)
        ws = np.minimum(sw, W - np.arange(nx) * sw)
        return (hs[:, None] * ws[None, :]).reshape(-1) * es

    # ------------------------------------------------------------------ moving shards

    def _views(self, data: np.ndarray) -> np.ndarray:
        """The stored elements of one device, as (shard rows, shard cols, sh, sw) or (nbanks, slots, W)."""
        st = storage_dtype(self.dtype)
        H, W = fold2d(self.shape)
        if self.interleaved:
            slots, n = self.grid
            page = self.owner_bytes // max(slots, 1)
            v = data.reshape(n, slots, page)[:, :, : W * st.itemsize]
            return v.view(st)
        (ny, nx), (sh, sw) = self.grid, self.block
        return data.view(st).reshape(ny, nx, sh, sw)

    def _regions(self):
        """Rectangles of whole shards of one size: (shard row range, shard col range, rows, cols)."""
        H, W = fold2d(self.shape)
        (ny, nx), (sh, sw) = self.grid, self.block
        fy, ry = divmod(H, sh)
        fx, rx = divmod(W, sw)
        rows = [(0, fy, sh)] + ([(fy, fy + 1, ry)] if ry else [])
        cols = [(0, fx, sw)] + ([(fx, fx + 1, rx)] if rx else [])
        for y0, y1, h in rows:
            for x0, x1, w in cols:
                if y1 > y0 and x1 > x0:
                    yield y0, y1, h, x0, x1, w

    def scatter(self, stored: np.ndarray, data: np.ndarray) -> None:
        """Copy one device's tensor (already in storage dtype) into its (owners, bytes) array."""
        H, W = fold2d(self.shape)
        t = stored.reshape(H, W)
        v = self._views(data)
        if self.interleaved:
            slots, n = self.grid
            full = H // n
            if full:
                v[:, :full, :] = t[: full * n].reshape(full, n, W).transpose(1, 0, 2)
            rem = H - full * n
            if rem:
                v[:rem, full, :] = t[full * n:]
            return
        sh, sw = self.block
        for y0, y1, h, x0, x1, w in self._regions():
            src = t[y0 * sh: y0 * sh + (y1 - y0) * h, x0 * sw: x0 * sw + (x1 - x0) * w]
            v[y0:y1, x0:x1, :h, :w] = src.reshape(y1 - y0, h, x1 - x0, w).transpose(0, 2, 1, 3)

    def gather(self, data: np.ndarray, out: np.ndarray) -> None:
        """Copy one device's (owners, bytes) array back into its tensor `out` (storage dtype)."""
        H, W = fold2d(self.shape)
        t = out.reshape(H, W)
        v = self._views(data)
        if self.interleaved:
            slots, n = self.grid
            full = H // n
            if full:
                t[: full * n].reshape(full, n, W)[...] = v[:, :full, :].transpose(1, 0, 2)
            rem = H - full * n
            if rem:
                t[full * n:] = v[:rem, full, :]
            return
        sh, sw = self.block
        for y0, y1, h, x0, x1, w in self._regions():
            dst = t[y0 * sh: y0 * sh + (y1 - y0) * h, x0 * sw: x0 * sw + (x1 - x0) * w]
            dst.reshape(y1 - y0, h, x1 - x0, w)[...] = v[y0:y1, x0:x1, :h, :w].transpose(0, 2, 1, 3)


@dataclass
class MeshBuffer:
    """A lockstep allocation over `devices` (chip ids), each holding `layout` at `address`."""

    id: int
    name: str
    layout: ShardLayout
    devices: tuple[int, ...]
    """Chip id of each device of the mesh, in device order."""
    address: int
    _data: np.ndarray | None = None
    freed: bool = False

    @property
    def memory(self) -> str:
        return self.layout.spec.buffer

    @property
    def data(self) -> np.ndarray:
        """The bytes, (devices, owners, bytes an owner); allocated on first use."""
        if self.freed:
            raise LayoutError(f"buffer '{self.name}' was deallocated")
        if self._data is None:
            self._data = np.zeros((len(self.devices), len(self.layout.owners), self.layout.owner_bytes), np.uint8)
        return self._data

    def device_bytes(self) -> int:
        return len(self.layout.owners) * self.layout.owner_bytes
