"""How a device-local tensor sits in one chip's memories, and mesh buffers of real bytes.

`ShardLayout` is the simulator's handle on `meshc.layout.place(...)`: the placement model says
which owner (core L1 or DRAM bank) holds which page at which offset, and how many bytes each
owner allocates; the simulator only executes it. Moving a tensor in and out of its owners'
bytes goes through `Placement.scatter` / `gather`, except on the fast path (row-major pages
of a non-block type, interleaved or height / width / block sharded), where the same bytes are
written with one reshape + transpose per device instead of per-owner buffers: the fast path
is checked byte for byte against `Placement.scatter` in test/unit/test_sim_memory.py.

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
from meshc.layout.memory_config import MemoryConfig
from meshc.layout.placement import Placement, place
from meshc.sim.encoding import encode, storage_dtype

FAST_LAYOUTS = ("interleaved", "height_sharded", "width_sharded", "block_sharded")
DEFAULT_CONFIG = MemoryConfig("dram", "interleaved")


def memory_config(cfg) -> MemoryConfig:
    """A MemoryConfig from a MemoryConfig, None (DRAM interleaved) or a (buffer, layout, ...) tuple."""
    if cfg is None:
        return DEFAULT_CONFIG
    if isinstance(cfg, MemoryConfig):
        return cfg
    if isinstance(cfg, tuple):
        return MemoryConfig(*cfg)
    raise LayoutError(f"expected a memory config, got {cfg!r}")


def fold2d(shape: tuple[int, ...]) -> tuple[int, int]:
    if len(shape) == 0:
        return 1, 1
    return math.prod(shape[:-1]), shape[-1]


@dataclass(frozen=True)
class ShardLayout:
    """A local tensor of `shape` and `dtype` placed on one chip by `config` (tile None: row-major)."""

    shape: tuple[int, ...]
    dtype: DataType
    config: MemoryConfig
    tile: tuple[int, int] | None = None
    arch: str = "wormhole_b0"
    placement: Placement = field(init=False, repr=False, compare=False)
    owners: tuple = field(init=False)
    """Owner of each stored block, placement order: core (y, x) for L1, bank index for DRAM."""
    owner_bytes: int = field(init=False)
    """Bytes each owner allocates (the lockstep allocation size: the largest owner's)."""
    fast: bool = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "dtype", get_dtype(self.dtype))
        p = place(self.shape, self.dtype, self.config, tile=self.tile, arch=self.arch)
        object.__setattr__(self, "placement", p)
        object.__setattr__(self, "owners", tuple(p.owners))
        object.__setattr__(self, "owner_bytes", int(max(p.owner_bytes().values(), default=0)))
        row_major = self.tile is None and not self.dtype.is_block_float
        fast = row_major and (self.interleaved or (self.config.layout in FAST_LAYOUTS and p.shard_pages is not None))
        object.__setattr__(self, "fast", bool(fast))

    @property
    def buffer(self) -> str:
        return self.config.buffer

    @property
    def interleaved(self) -> bool:
        return self.config.layout == "interleaved"

    @property
    def grid(self) -> tuple[int, int]:
        """The shard grid (rows, cols) of a sharded layout."""
        if self.interleaved:
            return (1, 1)
        blocks = self.placement.shard_blocks
        if blocks:
            rows = len({r0 for r0, _, _, _ in blocks})
            return rows, len(blocks) // rows
        return (len(self.owners), 1)

    @property
    def nbytes(self) -> int:
        """Bytes of tensor data (pages, without alignment padding)."""
        return self.placement.num_pages * self.placement.page_bytes

    def owner_data_bytes(self) -> np.ndarray:
        """Bytes of pages each owner holds (alignment padding excluded), in owner order."""
        p = self.placement
        return np.bincount(p.page_owner, minlength=len(self.owners)) * p.page_bytes

    # ------------------------------------------------------------------ moving bytes

    def _pages(self, data: np.ndarray) -> np.ndarray:
        """One device's bytes as (owners, slots, aligned page bytes): page p of the tensor sits at
        [page_owner[p], page_slot[p], :page_bytes] (the placement model's page table)."""
        ab = self.placement.aligned_page_bytes
        return data.reshape(len(self.owners), self.owner_bytes // ab, ab)

    def _fast_view(self, data: np.ndarray) -> np.ndarray:
        """One device's stored elements: (nbanks, slots, W) interleaved, (ny, nx, sh, sw) sharded."""
        p = self.placement
        st = storage_dtype(self.dtype)
        ab = p.aligned_page_bytes
        H, W = fold2d(self.shape)
        if self.interleaved:
            n = len(self.owners)
            slots = self.owner_bytes // ab
            return data[:, : slots * ab].reshape(n, slots, ab)[:, :, : W * st.itemsize].view(st)
        sr, _ = p.shard_pages
        ny, nx = self.grid
        pw = p.page_bytes // st.itemsize
        v = data[:, : sr * ab].reshape(ny * nx, sr, ab)[:, :, : pw * st.itemsize].view(st)
        return v.reshape(ny, nx, sr, pw)

    def _regions(self):
        """Rectangles of equal shards: (shard rows y0:y1 of h rows, shard cols x0:x1 of w cols)."""
        H, W = fold2d(self.shape)
        ny, nx = self.grid
        sh = self.placement.shard_pages[0]
        sw = self.placement.page_bytes // storage_dtype(self.dtype).itemsize
        fy, ry = divmod(H, sh)
        fx, rx = divmod(W, sw)
        rows = [(0, fy, sh)] + ([(fy, fy + 1, ry)] if ry else [])
        cols = [(0, fx, sw)] + ([(fx, fx + 1, rx)] if rx else [])
        for y0, y1, h in rows:
            for x0, x1, w in cols:
                if y1 > y0 and x1 > x0:
                    yield y0, y1, h, x0, x1, w, sh, sw

    def _copy(self, dst: np.ndarray, src: np.ndarray, perm: tuple[int, ...]) -> None:
        """dst[...] = src.transpose(perm), moving each contiguous last-axis row as one item."""
        a, b = _as_items(dst), _as_items(src)
        if a is not None and b is not None and perm[-1] == len(perm) - 1:
            a[...] = b.transpose(perm[:-1])
        else:
            dst[...] = src.transpose(perm)

    def scatter(self, values: np.ndarray, data: np.ndarray) -> None:
        """Store one device's tensor (host values) into its (owners, bytes) array."""
        if not self.fast:
            p = self.placement
            self._pages(data)[p.page_owner, p.page_slot, : p.page_bytes] = p.encode_pages(values)
            return
        H, W = fold2d(self.shape)
        t = encode(np.asarray(values).reshape(H, W), self.dtype)
        v = self._fast_view(data)
        if self.interleaved:
            n = len(self.owners)
            full = H // n
            if full:
                self._copy(v[:, :full, :], t[: full * n].reshape(full, n, W), (1, 0, 2))
            rem = H - full * n
            if rem:
                v[:rem, full, :] = t[full * n:]
            return
        for y0, y1, h, x0, x1, w, sh, sw in self._regions():
            src = t[y0 * sh: y0 * sh + (y1 - y0) * h, x0 * sw: x0 * sw + (x1 - x0) * w]
            self._copy(v[y0:y1, x0:x1, :h, :w], src.reshape(y1 - y0, h, x1 - x0, w), (0, 2, 1, 3))

    def gather(self, data: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """One device's tensor (host values) from its (owners, bytes) array."""
        if not self.fast:
            p = self.placement
            return p.decode_pages(self._pages(data)[p.page_owner, p.page_slot, : p.page_bytes])
        from meshc.sim.encoding import decode

        H, W = fold2d(self.shape)
        st = storage_dtype(self.dtype)
        if out is None or out.dtype != st or out.shape != tuple(self.shape):
            out = np.empty(self.shape, st)
        t = out.reshape(H, W)
        if not np.shares_memory(t, out):  # a strided `out` that does not fold: go through a temporary
            out[...] = self.gather(data, None)
            return decode(out, self.dtype)
        v = self._fast_view(data)
        if self.interleaved:
            n = len(self.owners)
            full = H // n
            if full:
                self._copy(t[: full * n].reshape(full, n, W), v[:, :full, :], (1, 0, 2))
            rem = H - full * n
            if rem:
                t[full * n:] = v[:rem, full, :]
        else:
            for y0, y1, h, x0, x1, w, sh, sw in self._regions():
                dst = t[y0 * sh: y0 * sh + (y1 - y0) * h, x0 * sw: x0 * sw + (x1 - x0) * w]
                self._copy(dst.reshape(y1 - y0, h, x1 - x0, w), v[y0:y1, x0:x1, :h, :w], (0, 2, 1, 3))
        return decode(out, self.dtype)


def _as_items(a: np.ndarray) -> np.ndarray | None:
    """`a` with each last-axis row viewed as one opaque item (numpy then copies a row with one
    memmove instead of element by element), or None when the rows are not contiguous."""
    if a.ndim == 0 or a.shape[-1] == 0 or a.strides[-1] != a.itemsize:
        return None
    try:
        return a.view(np.dtype((np.void, a.shape[-1] * a.itemsize)))[..., 0]
    except ValueError:
        return None


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
        return self.layout.config.buffer

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
