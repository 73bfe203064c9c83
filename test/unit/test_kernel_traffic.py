"""meshc.layout.kernel_traffic: the NoC / DRAM bytes of one TTMetal block access over a program's
grid, against a reference written here element by element from the placement model's element
map (`Placement.element_owner`), core by core."""

from __future__ import annotations

import numpy as np
import pytest

from meshc.layout import MemoryConfig, place
from meshc.layout.errors import LayoutError
from meshc.layout.kernel_traffic import band_owner_counts, block_slices, block_traffic, core_band


def _reference(p, grid, selectors, phys):
    """Core by core, element by element: what a core's block moves (this test's own derivation)."""
    shape = p.shape
    owner = p.element_owner().reshape(int(np.prod(shape[:-1])), shape[-1])
    per_elem = p.page_bytes / p.layout.page_elems
    noc, dram = 0, np.zeros(len(p.owners), np.int64)
    for k in range(grid[0] * grid[1]):
        y, x = divmod(k, grid[1])
        cuts = []
        for n, sel in zip(owner.shape, selectors):
            bands, i = {"all": (1, 0), "y": (grid[0], y), "x": (grid[1], x)}[sel]
            step = n // bands
            cuts.append(slice(i * step, (i + 1) * step))
        block = owner[cuts[0], cuts[1]]
        if p.config.buffer == "dram":
            for bank in range(len(p.owners)):
                dram[bank] += round(np.count_nonzero(block == bank) * per_elem)
            noc += round(block.size * per_elem)
        else:
            me = tuple(phys[k])
            mine = p.owners.index(me) if me in p.owners else -1
            noc += round(np.count_nonzero(block != mine) * per_elem)
    return noc, dram


def _cores(grid, offset=(0, 0), transpose=False):
    ys, xs = np.divmod(np.arange(grid[0] * grid[1]), grid[1])
    phys = np.stack([xs, ys] if transpose else [ys, xs], axis=1)
    return phys + np.array(offset)


CASES = [
    # (shape, dtype, memory config, tile, grid, selectors, offset, transpose core map)
    ((64, 128), "bf16", MemoryConfig("l1", "block_sharded", grid=(2, 4)), (32, 32), (2, 4), ("y", "x"), (0, 0), False),
    ((64, 128), "bf16", MemoryConfig("l1", "block_sharded", grid=(2, 4)), (32, 32), (2, 4), ("y", "all"), (0, 0), False),
    ((64, 128), "bf16", MemoryConfig("l1", "block_sharded", grid=(2, 4)), (32, 32), (2, 4), ("all", "x"), (1, 1), False),
    ((64, 128), "f32", MemoryConfig("l1", "width_sharded", grid=(1, 4)), (32, 32), (4, 2), ("x", "y"), (0, 0), True),
    ((256, 64), "bf16", MemoryConfig("l1", "height_sharded", grid=(1, 8)), (32, 32), (4, 2), ("y", "x"), (0, 0), False),
    ((96, 64), "bfp_bf8", MemoryConfig("l1", "interleaved"), (32, 32), (3, 2), ("y", "x"), (0, 0), False),
    ((96, 64), "bfp_bf8", MemoryConfig("dram", "interleaved"), (32, 32), (3, 2), ("y", "x"), (0, 0), False),
    ((2, 40, 64), "bf16", MemoryConfig("dram", "interleaved"), (32, 32), (4, 2), ("y", "x"), (0, 0), False),
    ((2, 40, 64), "bf16", MemoryConfig("l1", "interleaved"), (32, 32), (5, 1), ("y", "all"), (2, 0), False),
    ((64, 48), "f32", MemoryConfig("l1", "height_sharded", grid=(1, 4)), None, (4, 3), ("y", "x"), (0, 0), False),
    ((64, 48), "f32", MemoryConfig("dram", "interleaved"), None, (2, 3), ("all", "x"), (0, 0), False),
    ((64, 384), "bf16", MemoryConfig("dram", "width_sharded", grid=(1, 12)), (32, 32), (1, 6), ("all", "x"), (0, 0), False),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[2].buffer}-{c[2].layout}-{'x'.join(map(str, c[0]))}-{c[1]}")
def test_block_traffic_matches_the_element_reference(case):
    shape, dtype, cfg, tile, grid, sel, offset, transpose = case
    p = place(shape, dtype, cfg, tile=tile)
    phys = _cores(grid, offset, transpose)
    noc, dram = block_traffic(p, grid, sel, phys)
    want_noc, want_dram = _reference(p, grid, sel, phys)
    assert noc == want_noc
    assert dram.tolist() == want_dram.tolist()
    if cfg.buffer == "l1":
        assert not dram.any()


def test_own_shards_move_nothing_and_elsewhere_everything():
    """A block-sharded 64x128 bf16 buffer on cores (0..1, 0..3), read block (y, x) by the core
    holding it, moves nothing; read by a grid shifted off its cores, the whole 16 KiB."""
    p = place((64, 128), "bf16", MemoryConfig("l1", "block_sharded", grid=(2, 4)))
    assert block_traffic(p, (2, 4), ("y", "x"), _cores((2, 4)))[0] == 0
    assert block_traffic(p, (2, 4), ("y", "x"), _cores((2, 4), (2, 0)))[0] == 64 * 128 * 2


def test_dram_reads_every_byte_from_its_bank():
    """A 64x64 bf16 tensor interleaved over 12 DRAM banks: 4 tiles of 2048 bytes in banks 0..3;
    every core of a 2x2 grid reading the whole buffer reads each tile once (4 x 8 KiB on the NoC)."""
    p = place((64, 64), "bf16", MemoryConfig("dram", "interleaved"))
    noc, dram = block_traffic(p, (2, 2), ("all", "all"), _cores((2, 2)))
    assert noc == 4 * 64 * 64 * 2
    assert dram.tolist()[:4] == [4 * 2048] * 4 and not dram[4:].any()


def test_band_counts_sum_to_the_blocks():
    p = place((2, 40, 64), "bf16", MemoryConfig("l1", "interleaved"))
    counts = band_owner_counts(p, (4, 2), ("y", "x"))
    assert counts.shape == (4, 2, len(p.owners))
    assert (counts.sum(axis=2) == (80 // 4) * (64 // 2)).all()


def test_a_block_that_does_not_split_is_refused():
    p = place((64, 64), "bf16", MemoryConfig("dram", "interleaved"))
    with pytest.raises(LayoutError, match="do not split into 3 blocks"):
        block_traffic(p, (3, 1), ("y", "all"), _cores((3, 1)))
    with pytest.raises(LayoutError, match="block selector"):
        block_traffic(p, (1, 1), ("z", "all"), _cores((1, 1)))


def test_a_cores_block_is_its_band_of_each_dim():
    # 96 rows x 64 cols on a 3x2 grid: "y" cuts the rows into 3 bands of 32 (core row y takes band
    # y), "x" the cols into 2 of 32; "x" on the rows cuts them into 2 bands of 48; "all" is one band
    assert block_slices((96, 64), ("y", "x"), (3, 2), (2, 1)) == (slice(64, 96), slice(32, 64))
    assert block_slices((96, 64), ("y", "x"), (3, 2), (0, 0)) == (slice(0, 32), slice(0, 32))
    assert block_slices((96, 64), ("x", "all"), (3, 2), (2, 1)) == (slice(48, 96), slice(0, 64))
    assert block_slices((96, 64), ("all", "y"), (2, 2), (1, 0)) == (slice(0, 96), slice(32, 64))
    with pytest.raises(LayoutError, match=r"buffer rows \(64\) do not split into 3 blocks for selector 'y'"):
        block_slices((64, 64), ("y", "all"), (3, 2), (0, 0))


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[2].buffer}-{c[2].layout}-{'x'.join(map(str, c[0]))}-{c[1]}")
def test_the_element_blocks_and_the_page_band_counts_cut_alike(case):
    """Each core's element block (`block_slices`, what the interpreter reads and writes) holds,
    owner by owner, the elements `band_owner_counts` (page granularity) gives its band pair."""
    shape, dtype, cfg, tile, grid, sel, _, _ = case
    p = place(shape, dtype, cfg, tile=tile)
    owner = p.element_owner().reshape(int(np.prod(shape[:-1])), shape[-1])
    counts = band_owner_counts(p, grid, sel)
    for y in range(grid[0]):
        for x in range(grid[1]):
            rows, cols = block_slices(owner.shape, sel, grid, (y, x))
            got = np.bincount(owner[rows, cols].reshape(-1), minlength=len(p.owners))
            assert got.tolist() == counts[core_band(sel[0], y, x), core_band(sel[1], y, x)].tolist()
