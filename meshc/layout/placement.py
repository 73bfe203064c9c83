"""Single-chip placement: where every page and every element of a tensor lives (TT-Metal's Tensor and Memory Layouts report).

`place(shape, dtype, memory_config, tile, arch)` computes the page table of a tensor once:
for every page (numbered row-major over the page grid) its owner and its byte offset there.

* Interleaved: page p goes to bank p % nbanks at offset (p // nbanks) * aligned page size;
  DRAM has the architecture's banks (8/12/8), L1 has one bank a worker core (cores in
  row-major order). Alignment: 32 B in DRAM, 16 B in L1.
* Height/width/block sharding: the page grid is cut into shards of `shard_shape`; a shard goes
  to one core (height and width: shards in order onto the cores of the range set in the
  orientation's order; block: shard (i, j) onto core (i, j) of the rectangle, (j, i) for
  col_major). Inside a shard, its pages are in row-major order; a partial last shard keeps the
  full shard's slot numbering and allocation.
* ND sharding: shard i of the row-major shard grid goes to core i % ncores at slot i // ncores;
  every shard is allocated whole (partial shards padded).

Owners are cores `(y, x)` in L1 and bank numbers in DRAM (a sharded DRAM tensor names bank b
as core (0, b)). Everything else derives from the page table plus the tensor layout:
`element_map()` (owner and byte address of every element, as numpy arrays), `element_at()`
(the inverse), `pages_by_owner()`, and `scatter()` / `gather()` (tensor <-> per-owner byte
buffers, moving whole shards/pages with numpy slices).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from meshc.layout.dtypes import DataType, get_dtype
from meshc.layout.errors import CapacityError, LayoutError
from meshc.layout.memory_config import CoreRangeSet, MemoryConfig
from meshc.layout.numerics import decode, encode
from meshc.layout.system import Arch, get_arch
from meshc.layout.tensor_layout import TensorLayout, check_tile, normalize_shape
from meshc.layout.shapes import ceil_div, fmt_shape
from meshc.layout.hardware import DEFAULT_ARCH
from meshc.layout.limits import MAX_DRAM_BANKS, as_int

_STORE = {"f32": "<f4", "f16": "<f2", "bf16": "<u2", "u32": "<u4", "u16": "<u2", "u8": "u1", "si32": "<i4"}
"""How one stored element of each element-by-element data type reads as numpy."""



def _round_up(a: int, b: int) -> int:
    return ceil_div(a, b) * b



@dataclass
class ElementMap:
    """For every element of the tensor (arrays shaped like the tensor): where it lives."""

    owner: np.ndarray
    """Index into `Placement.owners`."""
    address: np.ndarray
    """Byte address in the owner's buffer (block floats: of the sign+mantissa field)."""
    page: np.ndarray
    slot: np.ndarray
    """Position of the element inside its page, in storage order."""


@dataclass
class _Block:
    """A 2D-sharded owner's pages: the page-grid rectangle rows r0:r1, cols c0:c1 of a full shard."""

    r0: int
    r1: int
    c0: int
    c1: int


class Placement:
    """A tensor placed on one chip: the page table and everything derived from it."""

    def __init__(self, layout: TensorLayout, config: MemoryConfig, arch: Arch, owners: list,
                 page_owner: np.ndarray, page_slot: np.ndarray, owner_slots: np.ndarray,
                 shard_pages: tuple[int, int] | None = None, blocks: "list[_Block] | None" = None,
                 oob=0):
        self.layout = layout
        self.config = config
        self.arch = arch
        self.owners: list = owners
        """Owners in order: cores (y, x) or bank numbers."""
        self.page_owner = page_owner
        """Owner index (into `owners`) of every page."""
        self.page_slot = page_slot
        """Slot (in aligned pages) of every page inside its owner's buffer."""
        self.owner_slots = owner_slots
        """Slots (aligned pages) allocated on each owner."""
        self.alignment = arch.l1_alignment if config.buffer == "l1" else arch.dram_alignment
        self.aligned_page_bytes = _round_up(layout.page_bytes, self.alignment)
        self.page_offset = page_slot * self.aligned_page_bytes
        self._shard_pages = shard_pages
        self._blocks = blocks
        self.oob = oob

    # ------------------------------------------------------------------ basic facts
    @property
    def shape(self) -> tuple[int, ...]:
        return self.layout.shape

    @property
    def dtype(self) -> DataType:
        return self.layout.dtype

    @property
    def num_pages(self) -> int:
        return self.layout.num_pages

    @property
    def page_bytes(self) -> int:
        return self.layout.page_bytes

    @property
    def shard_pages(self) -> tuple[int, int] | None:
        """Pages (rows, cols) of one shard under height/width/block sharding; None otherwise."""
        return self._shard_pages

    @property
    def shard_blocks(self) -> list[tuple[int, int, int, int]] | None:
        """Height/width/block sharding: each owner's rectangle of the page grid, (r0, r1, c0, c1)
        with r1, c1 exclusive (a partial last shard is smaller); None otherwise."""
        if self._blocks is None:
            return None
        return [(b.r0, b.r1, b.c0, b.c1) for b in self._blocks]

    @property
    def shard_grid(self) -> tuple[int, int]:
        """The grid of shards (rows, cols) the simulator computes on: height/width/block sharding's
        shard rectangles (rows of distinct first page rows), ND sharding one column of its owners,
        (1, 1) for interleaved pages."""
        if self.config.layout == "interleaved":
            return (1, 1)
        blocks = self._blocks
        if blocks:
            rows = len({b.r0 for b in blocks})
            return rows, len(blocks) // rows
        return (len(self.owners), 1)

    def slot_table(self) -> np.ndarray:
        """(owners, slots) int64: the page in every slot of every owner, -1 where none sits."""
        return self._slot_table

    def owner_bytes(self) -> dict:
        """Bytes allocated on each owner."""
        return {o: int(n) * self.aligned_page_bytes for o, n in zip(self.owners, self.owner_slots)}

    @cached_property
    def _owner_order(self) -> tuple[np.ndarray, np.ndarray]:
        order = np.argsort(self.page_owner, kind="stable")
        bounds = np.searchsorted(self.page_owner[order], np.arange(len(self.owners) + 1))
        return order, bounds

    def owner_page_ids(self, k: int) -> np.ndarray:
        """Page ids held by owner number k, in page order."""
        order, bounds = self._owner_order
        return order[bounds[k] : bounds[k + 1]]

    def pages_by_owner(self) -> dict:
        """{owner: [page ids]} for every owner holding a page; pages in increasing order."""
        out = {}
        for k, o in enumerate(self.owners):
            ids = self.owner_page_ids(k)
            if len(ids):
                out[o] = [int(p) for p in ids]
        return out

    # ------------------------------------------------------------------ the element map
    @cached_property
    def page_elements(self) -> np.ndarray:
        """(num_pages, page_elems): flat tensor index in every page slot, -1 for padding."""
        return self.layout.page_elements()

    @cached_property
    def _element_map(self) -> ElementMap:
        pe = self.page_elements.reshape(-1)
        valid = np.flatnonzero(pe >= 0)
        n = self.layout.page_elems
        page = np.empty(self.layout.size, dtype=np.int64)
        slot = np.empty(self.layout.size, dtype=np.int64)
        page[pe[valid]], slot[pe[valid]] = np.divmod(valid, n)
        owner = self.page_owner[page]
        address = self.page_offset[page] + self.layout.slot_byte_offset(slot)
        shp = self.shape
        return ElementMap(owner.reshape(shp), address.reshape(shp), page.reshape(shp), slot.reshape(shp))

    def element_map(self) -> ElementMap:
        """Owner index and byte address of every element: THE placement function."""
        return self._element_map

    def element_owner(self) -> np.ndarray:
        return self._element_map.owner

    def element_address(self) -> np.ndarray:
        return self._element_map.address

    @cached_property
    def _slot_table(self) -> np.ndarray:
        """(num owners, max slots) -> page id, -1 where no page sits."""
        t = np.full((len(self.owners), max(int(self.owner_slots.max(initial=0)), 1)), -1, dtype=np.int64)
        t[self.page_owner, self.page_slot] = np.arange(self.num_pages)
        return t

    def element_at(self, owner, address, nibble=0) -> np.ndarray:
        """The inverse map: flat tensor index of the element at (owner index, byte address).

        -1 where the byte holds no element (padding, alignment, block-float exponents, or
        outside the buffer). For bfp_bf4, `nibble` picks the low (0) or high (1) element of a byte.
        """
        owner = np.asarray(owner, dtype=np.int64)
        address = np.asarray(address, dtype=np.int64)
        owner, address, nibble = np.broadcast_arrays(owner, address, np.asarray(nibble, dtype=np.int64))
        table = self._slot_table
        slot_i, inner = np.divmod(address, self.aligned_page_bytes)
        ok = (owner >= 0) & (owner < table.shape[0]) & (slot_i >= 0) & (slot_i < table.shape[1])
        page = np.where(ok, table[np.where(ok, owner, 0), np.where(ok, slot_i, 0)], -1)
        d, n = self.dtype, self.layout.page_elems
        if d.is_block_float:
            field = inner - n // 16
            per_byte = 8 // d.bits
            elem = field * per_byte + nibble
            inside = (field >= 0) & (elem < n)
        else:
            elem, rem = np.divmod(inner, d.itemsize)
            inside = (rem == 0) & (elem < n)
        ok = (page >= 0) & inside
        pe = self.page_elements
        return np.where(ok, pe[np.where(ok, page, 0), np.where(ok, elem, 0)], -1)

    # ------------------------------------------------------------------ bytes
    def encode_pages(self, tensor) -> np.ndarray:
        """(num_pages, page_bytes) uint8: every page of the tensor, encoded."""
        pages = self.layout.to_pages(tensor, self.oob)
        return encode(pages, self.dtype)

    def decode_pages(self, enc: np.ndarray) -> np.ndarray:
        return self.layout.from_pages(decode(enc, self.dtype, self.layout.page_elems, copy=False))

    def _store_dtype(self) -> np.dtype | None:
        """The numpy dtype of one stored element, for data types stored element by element
        (all but the block floats, whose pages hold shared exponents)."""
        d = self.dtype
        if d.is_block_float or not np.little_endian:
            return None
        return np.dtype(_STORE[d.name])

    def _page_source(self, tensor) -> np.ndarray:
        """(page rows, page cols, ...) array of the pages: a view of the tensor's stored elements
        (encoded element by element, in tensor order) when the tensor fills its pages, else the
        encoded pages."""
        x = np.asarray(tensor)
        store = self._store_dtype()
        if store is not None and x.size == self.layout.size and x.shape in (self.shape, ()):
            stored = encode(x.reshape(self.shape), self.dtype).view(store)
            v = self.layout.page_view(stored)
            if v is not None:
                return v
        rows, cols = self.layout.page_grid
        return self.encode_pages(x).reshape(rows, cols, self.page_bytes)

    def _slot_view(self, buf: np.ndarray, like: np.ndarray) -> np.ndarray:
        """An owner's (slots, aligned bytes) buffer seen as (slots, *page storage dims) of like.dtype."""
        t = buf[:, : self.page_bytes]
        if like.dtype != np.uint8:
            t = t.view(like.dtype)
        return t.reshape(buf.shape[:1] + like.shape[2:])

    def scatter(self, tensor) -> dict:
        """{owner: uint8 buffer} holding the tensor as the device does (bytes outside pages are 0).

        Whole pages (and, for height/width/block sharding, whole shards) move as numpy slices of
        a page view of the tensor; data types stored as their host bytes (f32, u32, u16, u8, si32)
        are not encoded at all, bf16 and f16 element by element, block floats page by page.
        The buffers are views into one allocation.
        """
        src = self._page_source(tensor)
        ab = self.aligned_page_bytes
        n = len(self.owners)
        big = np.zeros((n, int(self.owner_slots.max(initial=0)), ab), dtype=np.uint8)
        if self._blocks is not None:
            sr, sc = self._shard_pages  # type: ignore[misc]
            for k, b in enumerate(self._blocks):
                t = self._slot_view(big[k], src)
                t = t.reshape((sr, sc) + t.shape[1:])
                t[: b.r1 - b.r0, : b.c1 - b.c0] = src[b.r0 : b.r1, b.c0 : b.c1]
        else:
            rows, cols = self.layout.page_grid
            t = self._slot_view(big.reshape(-1, ab), src)
            t = t.reshape((n, big.shape[1]) + t.shape[1:])
            t[self.page_owner.reshape(rows, cols), self.page_slot.reshape(rows, cols)] = src
        return {o: big[k, : int(self.owner_slots[k])].reshape(-1) for k, o in enumerate(self.owners)}

    def gather(self, buffers: dict) -> np.ndarray:
        """The tensor held in per-owner byte buffers (the inverse of `scatter`)."""
        ab = self.aligned_page_bytes
        rows, cols = self.layout.page_grid
        store = self._store_dtype()
        out = np.empty(self.shape, dtype=store) if store is not None else None
        dst = self.layout.page_view(out) if out is not None else None
        if dst is None:
            out = None
            dst = np.empty((rows, cols, self.page_bytes), dtype=np.uint8)
        for k, o in enumerate(self.owners):
            slots = int(self.owner_slots[k])
            need = slots * ab
            if need == 0:
                continue
            if o not in buffers:
                raise LayoutError(f"no buffer for {_owner_name(o)}, which holds pages of the tensor")
            buf = np.asarray(buffers[o])
            if buf.dtype != np.uint8:
                raise LayoutError(f"the buffer of {_owner_name(o)} holds {buf.dtype}; buffers are uint8 bytes")
            buf = buf.reshape(-1)
            if buf.size < need:
                raise LayoutError(f"the buffer of {_owner_name(o)} has {buf.size} B; the tensor needs {need} B there")
            t = self._slot_view(buf[:need].reshape(slots, ab), dst)
            if self._blocks is not None:
                b = self._blocks[k]
                sr, sc = self._shard_pages  # type: ignore[misc]
                t = t.reshape((sr, sc) + t.shape[1:])
                dst[b.r0 : b.r1, b.c0 : b.c1] = t[: b.r1 - b.r0, : b.c1 - b.c0]
            else:
                ids = self.owner_page_ids(k)
                r, c = np.divmod(ids, cols)
                dst[r, c] = t[self.page_slot[ids]]
        if out is not None:
            n = self.shape[-1]
            return decode(out.view(np.uint8), self.dtype, n, copy=False).reshape(self.shape)
        return self.decode_pages(dst.reshape(self.num_pages, self.page_bytes))

    def __repr__(self) -> str:
        return (f"Placement({fmt_shape(self.shape)}x{self.dtype.name}, tile={self.layout.tile}, "
                f"{self.config.buffer} {self.config.layout}, {self.num_pages} pages on {len(self.owners)} owners)")


def _owner_name(o) -> str:
    return f"core {o}" if isinstance(o, tuple) else f"DRAM bank {o}"


# ----------------------------------------------------------------------------- place()

def place(shape, dtype, memory_config: MemoryConfig, tile=(32, 32), arch: str = DEFAULT_ARCH,
          num_banks: int | None = None, oob=0) -> Placement:
    """Place a tensor on one chip. Raises LayoutError (CapacityError) for what cannot be placed.

    `num_banks` overrides the number of interleaving banks (DRAM banks, or the first cores of
    the chip in row-major order for L1); `oob` is the value padding elements hold.
    """
    shape = normalize_shape(shape)
    d = get_dtype(dtype)
    tile = check_tile(tile)
    a = get_arch(arch)
    cfg = memory_config
    if not isinstance(cfg, MemoryConfig):
        raise LayoutError(f"expected a MemoryConfig; got {type(cfg).__name__}")
    if cfg.layout == "interleaved":
        p = _interleaved(shape, d, tile, cfg, a, num_banks)
    elif cfg.layout == "nd_sharded":
        p = _nd_sharded(shape, d, tile, cfg, a)
    else:
        p = _sharded_2d(shape, d, tile, cfg, a)
    p.oob = oob
    _check_capacity(p)
    return p


def _interleaved(shape, d, tile, cfg: MemoryConfig, a: Arch, num_banks) -> Placement:
    layout = TensorLayout(shape, d, tile)
    rows, cols = a.grid
    nb = (a.dram_banks if cfg.buffer == "dram" else rows * cols) if num_banks is None \
        else as_int(num_banks, "num_banks")
    # DRAM: up to MAX_DRAM_BANKS (the bank list is materialised); L1: the chip's cores
    limit, what = (MAX_DRAM_BANKS, "meshc.layout.limits.MAX_DRAM_BANKS") if cfg.buffer == "dram" \
        else (rows * cols, f"the {rows}x{cols} cores of {a.name}")
    if not 1 <= nb <= limit:
        raise LayoutError(f"{cfg.buffer} interleaving needs between 1 and {limit} banks ({what}); "
                          f"got num_banks = {nb}")
    owners = list(range(nb)) if cfg.buffer == "dram" else [divmod(i, cols) for i in range(nb)]
    pages = np.arange(layout.num_pages, dtype=np.int64)
    page_owner, page_slot = pages % nb, pages // nb
    owner_slots = np.bincount(page_owner, minlength=nb).astype(np.int64)
    return Placement(layout, cfg, a, owners, page_owner, page_slot, owner_slots)


def _owners_of(cfg: MemoryConfig, a: Arch, cores: list) -> list:
    """Check the cores against the chip; DRAM shards name bank b as core (0, b)."""
    rows, cols = a.grid
    if cfg.buffer == "dram":
        for c in cores:
            if c[0] != 0 or c[1] >= a.dram_banks:
                raise LayoutError(f"DRAM shards go to banks, named as cores (0, b) with b < {a.dram_banks} "
                                  f"on {a.name}; core {c} is not one")
        return [c[1] for c in cores]
    for c in cores:
        if c[0] >= rows or c[1] >= cols:
            raise LayoutError(f"core {c} lies outside the {rows}x{cols} worker grid of {a.name}")
    return list(cores)


def _derive_shard_2d(cfg: MemoryConfig, layout_rows: int, layout_cols: int, ph: int, pw: int,
                     hp: int, wp: int) -> tuple[int, int]:
    """A shard shape from the grid, in elements: pages split as evenly as the grid allows."""
    crs: CoreRangeSet = cfg.grid  # type: ignore[assignment]
    n = crs.num_cores
    if cfg.layout == "height_sharded":
        return ceil_div(layout_rows, n) * ph, wp
    if cfg.layout == "width_sharded":
        return hp, ceil_div(layout_cols, n) * pw
    gr, gc = crs.ranges[0].shape
    if cfg.orientation == "col_major":
        gr, gc = gc, gr
    return ceil_div(layout_rows, gr) * ph, ceil_div(layout_cols, gc) * pw


def _sharded_2d(shape, d, tile, cfg: MemoryConfig, a: Arch) -> Placement:
    crs: CoreRangeSet = cfg.grid  # type: ignore[assignment]
    probe = TensorLayout(shape, d, tile)  # whole-row pages: the folded, padded extents
    hp, wp = probe.padded_shape
    if tile is None:
        ph, pw0 = 1, 1
        rows_pages, cols_elems = hp, wp
        ss = cfg.shard_shape or _derive_shard_2d(cfg, rows_pages, cols_elems, 1, 1, hp, wp)
    else:
        ph, pw0 = tile
        ss = cfg.shard_shape or _derive_shard_2d(cfg, hp // ph, wp // pw0, ph, pw0, hp, wp)
    sh, sw = ss
    what = f"shard shape {fmt_shape(ss)}"
    if tile is not None and (sh % tile[0] or sw % tile[1]):
        raise LayoutError(f"{what} is not a whole number of {fmt_shape(tile)} tiles")
    if cfg.layout == "height_sharded" and sw != wp:
        raise LayoutError(f"height sharding keeps whole rows: the shard width must be the tensor width {wp}"
                          f"{' (padded to tiles)' if tile else ''}; got {what}")
    if cfg.layout == "width_sharded" and sh != hp:
        raise LayoutError(f"width sharding keeps whole columns: the shard height must be the folded tensor "
                          f"height {hp}{' (padded to tiles)' if tile else ''}; got {what}")
    layout = TensorLayout(shape, d, tile, page_width=None if tile else (wp if cfg.layout == "height_sharded" else sw))
    rows, cols = layout.page_grid
    if tile is None:
        sr, sc = sh, 1
    else:
        sr, sc = sh // tile[0], sw // tile[1]
    gr, gc = ceil_div(rows, sr), ceil_div(cols, sc)  # the shard grid
    nshards = gr * gc
    if cfg.layout == "block_sharded":
        rng = crs.ranges[0]
        cr, cc = rng.shape
        need = (gr, gc) if cfg.orientation == "row_major" else (gc, gr)
        if need[0] > cr or need[1] > cc:
            raise LayoutError(f"block sharding cuts the {rows}x{cols}-page tensor into {gr}x{gc} shards of "
                              f"{sr}x{sc} pages ({what}); a {cfg.orientation} shard grid needs "
                              f"{need[0]}x{need[1]} cores but the core grid {rng} is {cr}x{cc}")
        si, sj = np.divmod(np.arange(nshards), gc)
        if cfg.orientation == "row_major":
            cores = [(rng.start[0] + int(i), rng.start[1] + int(j)) for i, j in zip(si, sj)]
        else:
            cores = [(rng.start[0] + int(j), rng.start[1] + int(i)) for i, j in zip(si, sj)]
    else:
        all_cores = crs.cores(cfg.orientation)
        if nshards > len(all_cores):
            raise LayoutError(f"{cfg.layout.replace('_', ' ')} cuts the tensor into {nshards} shards of {what} "
                              f"but the core range set {crs} has only {len(all_cores)} cores")
        cores = all_cores[:nshards]
    owners = _owners_of(cfg, a, cores)
    r, c = np.divmod(np.arange(rows * cols, dtype=np.int64), cols)
    page_owner = (r // sr) * gc + (c // sc)  # shard k sits on owner k
    page_slot = (r % sr) * sc + (c % sc)
    owner_slots = np.full(nshards, sr * sc, dtype=np.int64)
    blocks = [_Block(int(i) * sr, min(int(i) * sr + sr, rows), int(j) * sc, min(int(j) * sc + sc, cols))
              for i, j in zip(*np.divmod(np.arange(nshards), gc))]
    return Placement(layout, cfg, a, owners, page_owner, page_slot, owner_slots,
                     shard_pages=(sr, sc), blocks=blocks)


def _nd_sharded(shape, d, tile, cfg: MemoryConfig, a: Arch) -> Placement:
    ss = cfg.shard_shape
    assert ss is not None
    if len(ss) != len(shape):
        raise LayoutError(f"nd sharding needs one shard extent per tensor dim: shard shape {fmt_shape(ss)} has "
                          f"{len(ss)} dims, the tensor {fmt_shape(shape)} has {len(shape)}")
    layout = TensorLayout(shape, d, tile, page_width=None if tile else ss[-1])
    if len(shape) == 1:  # a vector is one row: shard it as a 1 x n matrix
        shape, ss = (1,) + tuple(shape), (layout.page_shape[0],) + tuple(ss)
    if tile is not None and (ss[-2] % tile[0] or ss[-1] % tile[1]):
        raise LayoutError(f"shard shape {fmt_shape(ss)}: its last two extents must be whole {fmt_shape(tile)} tiles")
    ph, pw = layout.page_shape
    # page coordinates over (outer dims..., page row in slice, page col)
    o, pr, pc = layout.page_coords()
    outer_shape = shape[:-2]
    outer_idx = np.unravel_index(o, outer_shape) if outer_shape else ()
    local_shard_pages = [ss[-2] // ph, ss[-1] // pw]
    grid = [ceil_div(n, s) for n, s in zip(shape, ss)]  # shard grid over the tensor dims
    coords = [ix for ix in outer_idx] + [pr, pc]
    per_dim_page_extent = list(ss[:-2]) + local_shard_pages
    shard_id = np.zeros_like(pr)
    local = np.zeros_like(pr)
    for k, (cidx, ext) in enumerate(zip(coords, per_dim_page_extent)):
        shard_id = shard_id * grid[k] + cidx // ext
        local = local * ext + cidx % ext
    pages_per_shard = math.prod(per_dim_page_extent)
    nshards = math.prod(grid)
    crs: CoreRangeSet = cfg.grid  # type: ignore[assignment]
    cores = crs.cores(cfg.orientation)
    ncores = min(len(cores), nshards)
    owners = _owners_of(cfg, a, cores[:ncores])
    page_owner = shard_id % ncores
    page_slot = (shard_id // ncores) * pages_per_shard + local
    shards_on = np.bincount(np.arange(nshards) % ncores, minlength=ncores)
    owner_slots = shards_on.astype(np.int64) * pages_per_shard
    return Placement(layout, cfg, a, owners, page_owner, page_slot, owner_slots)


def _check_capacity(p: Placement) -> None:
    cap = p.arch.l1_size if p.config.buffer == "l1" else p.arch.dram_bank_size
    where = f"the L1 of a {p.arch.name} core" if p.config.buffer == "l1" else f"a {p.arch.name} DRAM bank"
    need = p.owner_slots * p.aligned_page_bytes
    if len(need) and need.max() > cap:
        k = int(np.argmax(need))
        raise CapacityError(f"{p.config.layout.replace('_', ' ')} {fmt_shape(p.shape)}x{p.dtype.name} needs "
                            f"{int(need[k])} B on {_owner_name(p.owners[k])}, but {where} "
                            f"holds {cap} B: {int(need[k]) - cap} B short")
