"""What a TTMetal kernel's block reads and writes move on one chip: the NoC and DRAM bytes of one
`ttmetal.read_tiles` / `ttmetal.write_tiles` over every core of its program's grid.

A program runs its kernel on every core (y, x) of its grid; a block access selects, of the
buffer folded to 2-d (rows = every dim but the last, cols = the last), the rows band `y` (or `x`)
of the grid's rows (or cols) and likewise the cols ("all": every row / col). The core brings the
block in (or stores it): every element of it held by another owner crosses the chip's NoC. For
an L1 buffer that is every element not on the core itself; for a DRAM buffer every element
crosses the NoC and is read from (written to) the bank that holds it. A byte count is the element
count times the page's bytes an element (`page_bytes / page_elems`, block floats' shared
exponents included), rounded for each core, as a core moves whole elements of its block.

`block_traffic` is the one place this fact is computed: the simulator (meshc/interp/ttmetal.py)
counts a program's traffic with it, and the TTMetal memory optimizer prices a buffer's placement
options with it. It works on the page grid, not on elements: the folded rows and cols map
separably onto page rows and page cols (a page is a tile, or a row-major page of one row), so the
count of an owner's elements in a band pair is (rows of the band in each page row) x (owner's
pages) x (cols of the band in each page col), a few array products over pages, whatever the
tensor's size.

Pure Python and numpy: no IR.
"""

from __future__ import annotations

import numpy as np

from meshc.layout.errors import LayoutError
from meshc.layout.placement import Placement

SELECTORS = ("y", "x", "all")
"""A block selector: the band of the grid's row index `y`, of its col index `x`, or everything."""


def _bands(n: int, sel: str, grid: tuple[int, int], what: str) -> int:
    """How many bands a dim of `n` splits into under selector `sel` (checked)."""
    if sel not in SELECTORS:
        raise LayoutError(f"a block selector is one of {', '.join(SELECTORS)}; got '{sel}'")
    k = 1 if sel == "all" else int(grid[0] if sel == "y" else grid[1])
    if k < 1 or n % k:
        raise LayoutError(f"the buffer's {n} {what} do not split into {k} blocks for selector '{sel}'")
    return k


def _band_weights(line_page: np.ndarray, bands: int, pages: int) -> np.ndarray:
    """(bands, pages) int64: elements of each band (of equal consecutive lines) in each page line."""
    step = len(line_page) // bands
    band = np.arange(len(line_page), dtype=np.int64) // step
    return np.bincount(band * pages + line_page, minlength=bands * pages).reshape(bands, pages)


def band_owner_counts(placement: Placement, grid: tuple[int, int], selectors: tuple[str, str]) -> np.ndarray:
    """(row bands, col bands, owners) int64: the elements of each owner of `placement` in each block
    the selectors cut the buffer (folded to 2-d) into on a `grid` of cores."""
    lay = placement.layout
    rows, cols = lay.outer * lay.height, lay.width
    rb = _bands(rows, selectors[0], grid, "rows")
    cb = _bands(cols, selectors[1], grid, "cols")
    ph, pw = lay.page_shape
    prow_n, pcol_n = lay.page_grid
    r = np.arange(rows, dtype=np.int64)
    row_page = (r // lay.height) * (lay.slice_height // ph) + (r % lay.height) // ph
    col_page = np.arange(cols, dtype=np.int64) // pw
    rw = _band_weights(row_page, rb, prow_n)
    cw = _band_weights(col_page, cb, pcol_n)
    k = len(placement.owners)
    owner = placement.page_owner.reshape(prow_n, pcol_n)
    # per row band, page col and owner: elements of the band's rows in that page col of the owner
    nb, npr = np.nonzero(rw)
    idx = ((nb[:, None] * pcol_n + np.arange(pcol_n)[None, :]) * k + owner[npr, :]).reshape(-1)
    per = np.bincount(idx, weights=np.repeat(rw[nb, npr].astype(np.float64), pcol_n), minlength=rb * pcol_n * k)
    per = np.rint(per).astype(np.int64).reshape(rb, pcol_n, k)
    return np.einsum("rpk,cp->rck", per, cw)


def _owner_index(owners: np.ndarray, cores: np.ndarray) -> np.ndarray:
    """For each core (y, x) of `cores`, its index in `owners` ((k, 2) cores), -1 when none."""
    span = int(max(owners.max(initial=0), cores.max(initial=0))) + 1
    key = owners[:, 0] * span + owners[:, 1]
    order = np.argsort(key, kind="stable")
    want = cores[:, 0] * span + cores[:, 1]
    pos = np.minimum(np.searchsorted(key[order], want), len(key) - 1)  # a placement has an owner
    return np.where(key[order][pos] == want, order[pos], -1)


def block_traffic(placement: Placement, grid: tuple[int, int], selectors: tuple[str, str],
                  phys_cores) -> tuple[int, np.ndarray]:
    """(NoC bytes, DRAM bytes per owner index) of one `read_tiles` or `write_tiles` of a buffer
    placed as `placement`, selecting blocks by `selectors` (row selector, col selector: "y", "x"
    or "all") on a program's `grid` (rows, cols) of cores, summed over every core of the grid on
    one chip (read and write move the same bytes; a read's DRAM bytes are bank reads, a write's
    bank writes).

    `phys_cores`: (grid rows x grid cols, 2) physical core (y, x) of each logical core, row-major
    over the grid (`core_map` plus `grid_offset` of the program). An L1 buffer's block moves its
    elements held by other cores than the physical core itself; a DRAM buffer's block moves all of
    them, and the DRAM array (indexed like `placement.owners`: owner k is bank owners[k]) holds the
    bytes read from (written to) each bank. An L1 buffer gives an all-zero DRAM array."""
    gy, gx = int(grid[0]), int(grid[1])
    counts = band_owner_counts(placement, (gy, gx), selectors)
    ys, xs = np.divmod(np.arange(gy * gx, dtype=np.int64), gx)
    pick = {"y": ys, "x": xs, "all": np.zeros_like(ys)}
    ri, ci = pick[selectors[0]], pick[selectors[1]]
    lay = placement.layout
    block = (lay.outer * lay.height // counts.shape[0]) * (lay.width // counts.shape[1])
    per_elem = placement.page_bytes / lay.page_elems
    k = len(placement.owners)
    if placement.config.buffer == "dram":
        dram = np.rint(counts[ri, ci, :] * per_elem).astype(np.int64).sum(axis=0)
        noc = int(np.rint(block * per_elem)) * gy * gx
        return noc, dram
    phys = np.asarray(phys_cores, dtype=np.int64).reshape(gy * gx, 2)
    mine = _owner_index(np.asarray(placement.owners, dtype=np.int64).reshape(k, 2), phys)
    local = np.where(mine >= 0, counts[ri, ci, np.maximum(mine, 0)], 0)
    noc = int(np.rint((block - local) * per_elem).sum())
    return noc, np.zeros(k, dtype=np.int64)
