"""How a device-local tensor sits in one chip's memories, and mesh buffers as regions of them.

`ShardLayout` is the simulator's handle on `meshc.layout.place(...)`: the placement model says
which owner (core L1 or DRAM bank) holds which page at which offset, and how many bytes each
owner allocates; the simulator only executes it. `scatter` / `gather` move tensors in and out of
the owners' byte regions, every device of a mesh at once: `values` carry leading batch axes
(the devices, or the mesh axes) and each owner's region is a (*batch, bytes) view into the
byte-addressed memory of meshc/sim/store.py. Row-major pages of a non-block type (interleaved,
height / width / block sharded) move as one strided slice copy an owner (a shard, or a bank's
rows), whole shard rows as single items; tiles and block floats go page by page through
`Placement.encode_pages` (one copy an owner). test/unit/test_sim_memory.py checks the bytes
against `Placement.scatter` byte for byte.

A `MeshBuffer` is one lockstep allocation: the same address in every owner on every chip of the
mesh; its bytes are the regions at that address (`regions`), not a copy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np

from meshc.layout.buffer_pieces import reshaped_view
from meshc.layout.dtypes import DataType, get_dtype
from meshc.layout.errors import LayoutError
from meshc.layout.memory_config import MemoryConfig
from meshc.layout.placement import Placement, place
from meshc.layout.shapes import fold_2d
from meshc.sim.encoding import decode, encode, roundtrips, storage_dtype
from meshc.sim.stream_copy import copy_rows
from meshc.layout.hardware import DEFAULT_ARCH

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


@lru_cache(maxsize=1024)
def shard_layout(shape: tuple[int, ...], dtype, config: MemoryConfig, tile=None, arch: str = DEFAULT_ARCH):
    """The (cached) ShardLayout of a local tensor: a program places the same shapes again and again."""
    return ShardLayout(shape, dtype, config, tile, arch)


@dataclass(frozen=True)
class ShardLayout:
    """A local tensor of `shape` and `dtype` placed on one chip by `config` (tile None: row-major)."""

    shape: tuple[int, ...]
    dtype: DataType
    config: MemoryConfig
    tile: tuple[int, int] | None = None
    arch: str = DEFAULT_ARCH
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

    @cached_property
    def grid(self) -> tuple[int, int]:
        """The shard grid (rows, cols) of a sharded layout (the placement model's)."""
        return self.placement.shard_grid

    @cached_property
    def nbytes(self) -> int:
        """Bytes of tensor data (pages, without alignment padding)."""
        return self.placement.num_pages * self.placement.page_bytes

    @cached_property
    def stored(self) -> np.dtype | None:
        """The numpy dtype a stored element is viewed as on the fast path (None off it)."""
        return storage_dtype(self.dtype) if self.fast else None

    @cached_property
    def owner_data(self) -> tuple[int, ...]:
        """Bytes of pages each owner holds (alignment padding excluded), in owner order."""
        p = self.placement
        return tuple(int(n) for n in np.bincount(p.page_owner, minlength=len(self.owners)) * p.page_bytes)

    def owner_data_bytes(self) -> np.ndarray:
        return np.asarray(self.owner_data, np.int64)

    @cached_property
    def owner_grid(self) -> tuple[int, int]:
        """The owners as a grid (owner k at (k // cols, k % cols)): the shard grid of a sharded
        layout, (owners, 1) for interleaving."""
        return (len(self.owners), 1) if self.interleaved else self.grid

    @cached_property
    def _regions(self) -> list:
        """Fast path: rectangles of equal shards, (shard rows y0:y1 of h rows, shard cols x0:x1
        of w elements), with the full shard extent (sh, sw)."""
        H, W = fold_2d(self.shape)
        sh = self.placement.shard_pages[0]
        sw = self.placement.page_bytes // storage_dtype(self.dtype).itemsize
        fy, ry = divmod(H, sh)
        fx, rx = divmod(W, sw)
        rows = [(0, fy, sh)] + ([(fy, fy + 1, ry)] if ry else [])
        cols = [(0, fx, sw)] + ([(fx, fx + 1, rx)] if rx else [])
        return [(y0, y1, h, x0, x1, w, sh, sw) for y0, y1, h in rows for x0, x1, w in cols if y1 > y0 and x1 > x0]

    def shard_pairs(self, t: np.ndarray, grid: np.ndarray):
        """(owner-side view, tensor-side view) pairs of the fast path: `t` is the tensors
        (*batch, H, W) of the storage type, `grid` the owners' bytes (gy, gx, *batch, bytes)."""
        p = self.placement
        st = t.dtype
        ab = p.aligned_page_bytes
        H, W = t.shape[-2:]
        batch = t.shape[:-2]
        nb = len(batch)
        gy, gx = grid.shape[:2]
        if self.interleaved:
            n = gy * gx
            slots = self.owner_bytes // ab
            v = grid.reshape((n,) + grid.shape[2:])[..., : slots * ab].reshape((n,) + batch + (slots, ab))
            v = v[..., : W * st.itemsize].view(st)  # (n, *batch, slots, W)
            full, rem = divmod(H, n)
            if full:
                yield v[..., :full, :], np.moveaxis(t[..., : full * n, :].reshape(batch + (full, n, W)), -2, 0)
            if rem:
                yield v[:rem, ..., full, :], np.moveaxis(t[..., full * n:, :], -2, 0)
            return
        sr = p.shard_pages[0]
        pw = p.page_bytes // st.itemsize
        v = grid[..., : sr * ab].reshape((gy, gx) + batch + (sr, ab))[..., : pw * st.itemsize].view(st)
        for y0, y1, h, x0, x1, w, sh, sw in self._regions:
            src = t[..., y0 * sh: y0 * sh + (y1 - y0) * h, x0 * sw: x0 * sw + (x1 - x0) * w]
            src = src.reshape(batch + (y1 - y0, h, x1 - x0, w))
            src = np.moveaxis(src, (nb, nb + 2), (0, 1))  # (y, x, *batch, h, w)
            yield v[y0:y1, x0:x1, ..., :h, :w], src

    @cached_property
    def _owner_pages(self) -> list:
        """Per owner holding pages: (owner, its page ids, their slots, slots allocated)."""
        p = self.placement
        out = []
        for k in range(len(self.owners)):
            ids = p.owner_page_ids(k)
            if len(ids):
                out.append((k, ids, p.page_slot[ids], self.owner_bytes // p.aligned_page_bytes))
        return out

    # ------------------------------------------------------------------ moving bytes

    def scatter(self, values: np.ndarray, regions: list[np.ndarray], grid: np.ndarray | None = None) -> None:
        """Store tensors `values` (*batch, *shape), host values, into the owners' bytes: regions[k]
        (*batch, owner bytes) is owner k's region (a view into the memory); `grid`, when given,
        is all of them as one (gy, gx, *batch, owner bytes) view (`owner_grid`), and the fast
        path then moves every shard of every device in one copy a rectangle of equal shards."""
        values = np.asarray(values)
        batch = values.shape[: values.ndim - len(self.shape)]
        if not self.fast:
            p = self.placement
            flat = values.reshape((-1,) + self.shape)
            pages = np.stack([p.encode_pages(v) for v in flat]) if flat.shape[0] != 1 else p.encode_pages(flat[0])[None]
            pb, ab = p.page_bytes, p.aligned_page_bytes
            for k, ids, slots, nslots in self._owner_pages:
                r = regions[k].reshape((-1, nslots, ab))
                r[:, slots, :pb] = pages[:, ids]
            return
        t = encode(values.reshape(batch + fold_2d(self.shape)), self.dtype)
        tmp = grid is None
        if tmp:  # owners that are no rectangle: through one temporary grid
            grid = np.zeros(self.owner_grid + batch + (self.owner_bytes,), np.uint8)
        for dst, src in self.shard_pairs(t, grid):
            _copy(dst, src)
        if tmp:
            flat = grid.reshape((-1,) + grid.shape[2:])
            for k, r in enumerate(regions):
                r[...] = flat[k]

    def gather(self, regions: list[np.ndarray], out: np.ndarray | None = None, raw: bool = False,
               grid: np.ndarray | None = None) -> np.ndarray:
        """Tensors (*batch, *shape), host values, from the owners' bytes (the inverse of
        `scatter`); `out` (stored element type) may be given to receive them; `raw` leaves stored
        elements undecoded (bf16 bit patterns) on the fast path."""
        batch = (grid.shape[2:-1] if grid is not None else regions[0].shape[:-1]) if (regions or grid is not None) else ()
        if not self.fast:
            p = self.placement
            pb, ab = p.page_bytes, p.aligned_page_bytes
            nb = int(np.prod(batch, dtype=np.int64))
            pages = np.empty((nb, p.num_pages, pb), np.uint8)
            for k, ids, slots, nslots in self._owner_pages:
                pages[:, ids] = regions[k].reshape((-1, nslots, ab))[:, slots, :pb]
            res = np.stack([p.decode_pages(pg) for pg in pages]) if nb != 1 else p.decode_pages(pages[0])[None]
            res = res.reshape(batch + self.shape)
            if out is not None:
                out[...] = res
                return out
            return res
        st = storage_dtype(self.dtype)
        if out is None or out.dtype != st:
            out = np.empty(batch + self.shape, st)
        t = reshaped_view(out, batch + fold_2d(self.shape))
        if t is None:
            out[...] = self.gather(regions, None, raw=True, grid=grid)
            return out if raw else decode(out, self.dtype)
        if grid is None:
            grid = np.stack(regions).reshape(self.owner_grid + batch + (self.owner_bytes,))
        for src, dst in self.shard_pairs(t, grid):
            _copy(dst, src)
        return out if raw else decode(out, self.dtype)


def _copy(dst: np.ndarray, src: np.ndarray) -> None:
    """dst[...] = src, moving each contiguous last-axis row as one opaque item when both allow
    (numpy then copies a row with one memmove instead of element by element; a large copy goes
    through meshc/sim/stream_copy.py's streaming stores when meshc has them)."""
    a, b = as_items(dst), as_items(src)
    if a is not None and b is not None:
        if not copy_rows(a, b):
            a[...] = b
    else:
        dst[...] = src


def as_items(a: np.ndarray) -> np.ndarray | None:
    """`a` with each last-axis row viewed as one opaque item, or None when the rows are not contiguous."""
    if a.ndim == 0 or a.shape[-1] == 0 or (a.shape[-1] > 1 and a.strides[-1] != a.itemsize):
        return None
    try:
        return a.view(np.dtype((np.void, a.shape[-1] * a.itemsize)))[..., 0]
    except ValueError:
        return None


@dataclass
class MeshBuffer:
    """A lockstep allocation: `layout` on every chip of the mesh, at `address` in each owner."""

    id: int
    name: str
    layout: ShardLayout
    devices: tuple[int, ...]
    """Chip id of each device of the mesh, in device order."""
    address: int
    store: object = None
    """The meshc.sim.store.Memory the buffer lives in (None: an abstract run, no bytes)."""
    units: tuple[int, ...] = ()
    """The memory unit (core y * cols + x, or bank) of each owner of the layout."""
    freed: bool = False
    _cache: dict = field(default_factory=dict, repr=False)
    shared: np.ndarray | None = field(default=None, repr=False)
    """The buffer's bytes held by the buffer itself: (owners, *pattern, owner bytes), `pattern`
    the mesh shape with 1 along the mesh axes whose chips hold the same tensor (all 1: one copy
    for every chip, as a new buffer's zeros). Copy-on-write: an access that may write one chip
    (`regions`, `grid`) first expands it to the whole mesh, still the buffer's own array, sized
    by its allocation (nothing grows). None: the bytes are in `store`'s array, after someone
    looked at that array whole (`Memory.array`). Allocation and counting never look here."""
    mesh: tuple[int, ...] = ()
    """The mesh shape of `devices` (the axes `shared`'s pattern follows)."""
    version: int = 0
    """Bumped when the bytes move to another array (cached views go stale)."""
    blank: bool = False
    """`shared` is a new buffer's zeros (expanding it needs no copy)."""
    values: dict = field(default_factory=dict, repr=False)
    """Host values the bytes were written from, by position in `shared`'s pattern, kept
    (read-only) only where decoding the bytes gives them back bit for bit (`exact`): reading
    them back is then no decode. Dropped whenever the bytes may change."""
    pending: list | None = field(default=None, repr=False)
    """Host values whose encoding the bytes are, one a position of `shared`'s pattern, not
    encoded yet (`shared` is then a zero-stride placeholder of the right shape): `hold` takes
    them, `settle` encodes them the first time anyone looks at bytes (`regions`, `grid`,
    `shared_views`, `materialise`), so a tensor that is only computed and read back as values
    is never laid out in pages. The bytes seen are the same as if they had been written at once."""

    @property
    def memory(self) -> str:
        return self.layout.config.buffer

    def check_live(self) -> None:
        if self.freed:
            raise LayoutError(f"buffer '{self.name}' was deallocated; its bytes may now belong to another buffer")
        alloc = self.store.allocators[self.units[0]] if self.units else None
        if alloc is not None and alloc.owners.get(self.address) != self.id:
            raise LayoutError(f"buffer '{self.name}' at address {self.address} of {alloc.name} overlaps memory "
                              f"that now belongs to another allocation")

    def share(self, shared: np.ndarray | None) -> None:
        """Hold the buffer's bytes as `shared` (see the field; None: drop them)."""
        self.shared = shared
        self.version += 1
        self.blank = False
        self.pending = None
        self.values.clear()
        if shared is None:
            self.store.shared.pop(self.id, None)
        else:
            self.store.shared[self.id] = self

    def materialise(self) -> None:
        """Move the buffer's own bytes into every chip's memory array, at its address."""
        self.settle()
        s = self.shared
        if s is None:
            return
        self.share(None)
        n = self.layout.owner_bytes
        for k, u in enumerate(self.units):  # one broadcast copy an owner, every chip at once
            r = self.store.region(u, self.address, n)
            r.reshape(tuple(self.mesh) + (n,))[...] = s[k]

    def _expand(self) -> np.ndarray:
        """The own bytes with one copy a chip, (owners, *mesh, owner bytes) (copy-on-write)."""
        self.settle()
        s = self.shared
        mesh = tuple(self.mesh)
        if s.shape[1:-1] != mesh or self.blank:  # (a new buffer's zeros are no array yet)
            shape = (s.shape[0],) + mesh + (s.shape[-1],)
            if self.blank:
                full = np.zeros(shape, np.uint8)  # the operating system's zero pages until written
            else:
                full = np.empty(shape, np.uint8)
                full[...] = s
            self.share(full)
            s = full
        return s

    def shared_views(self, index: tuple = ()) -> tuple[list[np.ndarray], np.ndarray | None]:
        """(regions, grid) of the own bytes at `index` (slices of the pattern's axes): owner k's
        (*batch, owner bytes), and all of them as (gy, gx, *batch, owner bytes) when the owners
        form the layout's grid (else None)."""
        self.settle()
        s = self.shared[(slice(None),) + index]
        if self.blank:  # read a new buffer's zeros from a real (contiguous) array
            s = np.zeros(s.shape, np.uint8)
        gy, gx = self.layout.owner_grid
        grid = s.reshape((gy, gx) + s.shape[1:]) if gy * gx == s.shape[0] else None
        return list(s), grid

    def _live_bytes(self) -> None:
        if self.store is None:
            raise LayoutError(f"buffer '{self.name}' has no bytes: the run is abstract (shapes only)")
        self.check_live()
        self.values.clear()  # a writable view of the bytes goes out

    def exact(self, v: np.ndarray) -> bool:
        """Whether decoding the bytes of host values `v` gives `v` back bit for bit (of the
        tensor's shape; encoding.roundtrips: not for block floats)."""
        return v.shape == self.layout.shape and roundtrips(v, self.layout.dtype)

    def hold(self, pattern: tuple[int, ...], vals: list[np.ndarray]) -> None:
        """Hold vals[p], the tensor at position p (row-major) of `pattern` (the mesh shape with 1
        along the axes whose chips hold the same tensor), as the buffer's contents, encoded
        into bytes only when bytes are looked at (`pending`). The arrays become the buffer's:
        it keeps read-only views of them, and the caller must not change them afterwards."""
        self.check_live()
        shape = (len(self.units),) + tuple(pattern) + (self.layout.owner_bytes,)
        self.share(np.broadcast_to(np.zeros((), np.uint8), shape))
        held = []
        for p, v in enumerate(vals):
            r = np.asarray(v).view()
            r.flags.writeable = False
            held.append(r)
            if self.exact(r):
                self.values[p] = r
        self.pending = held

    def settle(self) -> None:
        """Encode the `pending` host values into the buffer's own bytes (one array, sized by
        the allocation, zeros where no page sits), exactly as writing them would have."""
        vals = self.pending
        if vals is None:
            return
        kept = dict(self.values)
        pattern = self.shared.shape[1:-1]
        self.share(np.zeros(self.shared.shape, np.uint8))
        one = (1,) * len(pattern)
        for p, idx in enumerate(np.ndindex(*pattern)):
            regions, grid = self.shared_views(tuple(slice(i, i + 1) for i in idx))
            self.layout.scatter(np.asarray(vals[p]).reshape(one + self.layout.shape), regions, grid)
        self.values.update(kept)  # the bytes decode to them still

    def regions(self, rows=slice(None)) -> list[np.ndarray]:
        """Each owner's bytes of the buffer on the chips `rows` (all by default): (chips, owner bytes) views."""
        self._live_bytes()
        n = self.layout.owner_bytes
        if self.shared is not None:
            s = self._expand()
            return [s[k].reshape(-1, n)[rows] for k in range(s.shape[0])]
        return [self.store.region(u, self.address, n, rows) for u in self.units]

    def grid(self, rows=slice(None)) -> np.ndarray | None:
        """All owners' bytes as one (gy, gx, chips, owner bytes) view (owner k at (k // gx, k % gx),
        layout.owner_grid), or None when the owners' memory units are not a rectangle."""
        self._live_bytes()
        if self.shared is not None:
            s = self._expand()
            gy, gx = self.layout.owner_grid
            return s.reshape((gy, gx, -1, s.shape[-1]))[:, :, rows] if gy * gx == s.shape[0] else None
        return self.store.grid(self.units, self.layout.owner_grid, self.address, self.layout.owner_bytes, rows)

    def cached(self, key, build):
        """build(), kept while the arrays the buffer's bytes are in stay where they are (views of
        them stay valid)."""
        self.check_live()
        if self.shared is not None:
            self._expand()
        gen = (self.store.generation, self.version)
        hit = self._cache.get(key)
        if hit is None or hit[0] != gen:
            hit = (gen, build())
            self._cache[key] = hit
        return hit[1]

    def device_bytes(self) -> int:
        return len(self.layout.owners) * self.layout.owner_bytes
