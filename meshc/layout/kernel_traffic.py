"""What a TTMetal kernel's block reads and writes move on one chip: the NoC and DRAM bytes of one
`ttmetal.read_tiles` / `ttmetal.write_tiles` over every core of its program's grid.

A program runs its kernel on every core (y, x) of its grid; a block access selects, of the
buffer folded to 2-d (rows = every dim but the last, cols = the last), the rows band `y` (or `x`)
of the grid's rows (or cols) and likewise the cols ("all": every row / col). How a dim is cut
into equal bands over the grid and which band a core takes is stated here once (`bands`,
`core_band`, `block_dims`, `block_slices`): the ttmetal verifier's block shapes, the ttmetal
interpreter's block of each core and the counts below all read it. The core brings the
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
from meshc.layout.shapes import fmt_shape

SELECTORS = ("y", "x", "all")
"""A block selector: the band of the grid's row index `y`, of its col index `x`, or everything."""


def bands(n: int, sel: str, grid: tuple[int, int], what: str) -> int:
    """How many equal bands of consecutive lines a dim of `n` lines (`what`: the buffer's rows or
    cols) is cut into under selector `sel` on a `grid` of cores: the grid's rows under "y", its
    cols under "x", one under "all". LayoutError when `sel` is not a selector, the grid has no
    cores that way, or the bands are not equal."""
    if sel not in SELECTORS:
        raise LayoutError(f"a block selector is one of {', '.join(SELECTORS)}; got '{sel}'")
    k = 1 if sel == "all" else int(grid[0] if sel == "y" else grid[1])
    if k < 1:
        raise LayoutError(f"the program's core grid {fmt_shape(grid)} has no cores to split the buffer {what} "
                          f"over for selector '{sel}'")
    if n % k:
        raise LayoutError(f"buffer {what} ({n}) do not split into {k} blocks for selector '{sel}'")
    return k


def core_band(sel: str, y, x):
    """The band core (y, x) takes under selector `sel`: y under "y", x under "x", the one band
    (0) under "all"; ints, or arrays of cores."""
    return y if sel == "y" else x if sel == "x" else y * 0


def line_bands(n: int, k: int) -> np.ndarray:
    """(n,) int64: the band each line of a dim of n lines cut into k equal bands falls in."""
    return np.arange(n, dtype=np.int64) // (n // k)


def block_dims(shape2d: tuple[int, int], selectors: tuple[str, str], grid: tuple[int, int]) -> tuple[int, int]:
    """The block a core sees of a buffer folded to 2-d (rows, cols) under (row, col) selectors:
    one band of each dim (`bands`, checked)."""
    return (shape2d[0] // bands(shape2d[0], selectors[0], grid, "rows"),
            shape2d[1] // bands(shape2d[1], selectors[1], grid, "cols"))


def block_slices(shape2d: tuple[int, int], selectors: tuple[str, str], grid: tuple[int, int],
                 core: tuple[int, int]) -> tuple[slice, slice]:
    """The rows and cols of a buffer folded to 2-d that core (y, x) of a `grid` reads or writes
    under (row, col) selectors: its band (`core_band`) of each dim's `block_dims`."""
    h, w = block_dims(shape2d, selectors, grid)
    i, j = core_band(selectors[0], *core), core_band(selectors[1], *core)
    return slice(i * h, (i + 1) * h), slice(j * w, (j + 1) * w)


def _band_weights(line_page: np.ndarray, k: int, pages: int) -> np.ndarray:
    """(k, pages) int64: elements of each of k equal bands (`line_bands`) in each page line."""
    band = line_bands(len(line_page), k)
    return np.bincount(band * pages + line_page, minlength=k * pages).reshape(k, pages)


def band_owner_counts(placement: Placement, grid: tuple[int, int], selectors: tuple[str, str]) -> np.ndarray:
    """(row bands, col bands, owners) int64: the elements of each owner of `placement` in each block
    the selectors cut the buffer (folded to 2-d) into on a `grid` of cores."""
    lay = placement.layout
    rows, cols = lay.outer * lay.height, lay.width
    rb = bands(rows, selectors[0], grid, "rows")
    cb = bands(cols, selectors[1], grid, "cols")
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
    ri, ci = core_band(selectors[0], ys, xs), core_band(selectors[1], ys, xs)
    lay = placement.layout
    h, w = block_dims((lay.outer * lay.height, lay.width), selectors, (gy, gx))
    block = h * w
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
