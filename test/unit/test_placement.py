"""The single-chip placement model against the Tensor and Memory Layouts report's figures and hand-derived layouts.

Every expected number here is derived by hand in the test (from the Tensor and Memory Layouts report's text or the rules
written in docs/placement.md), never read back from the code.
"""

import numpy as np
import pytest

from meshc.layout import CapacityError, CoreRange, CoreRangeSet, LayoutError, MemoryConfig, place
from meshc.layout.tensor_layout import TensorLayout

DRAM = MemoryConfig("dram", "interleaved")
L1 = MemoryConfig("l1", "interleaved")


# ----------------------------------------------------------------------------- seed figures

def test_figure1_row_major_64x64_is_64_pages_one_a_row():
    p = place((64, 64), "bf16", DRAM, tile=None)
    assert p.num_pages == 64
    em = p.element_map()
    assert np.array_equal(em.page, np.repeat(np.arange(64), 64).reshape(64, 64))
    assert np.array_equal(em.slot, np.tile(np.arange(64), 64).reshape(64, 64))
    assert p.page_bytes == 64 * 2


def test_figure2_tiled_64x64_is_4_tiles():
    p = place((64, 64), "bf16", DRAM, tile=(32, 32))
    assert p.num_pages == 4
    page = p.element_map().page
    want = np.zeros((64, 64), int)
    want[:32, 32:], want[32:, :32], want[32:, 32:] = 1, 2, 3
    assert np.array_equal(page, want)
    assert p.page_bytes == 32 * 32 * 2


def test_figure3_four_pages_interleaved_over_three_banks():
    # 4 rows of 16 bf16 = 4 pages of 32 B; DRAM alignment 32 B
    p = place((4, 16), "bf16", DRAM, tile=None, num_banks=3)
    assert [int(b) for b in p.page_owner] == [0, 1, 2, 0]
    assert p.pages_by_owner() == {0: [0, 3], 1: [1], 2: [2]}
    assert [int(o) for o in p.page_offset] == [0, 0, 0, 32]


def test_figure4_block_sharded_16_pages_on_2x2_cores():
    # 128x128 in 32x32 tiles: a 4x4 page grid; 2x2-page shards = 64x64 elements
    cfg = MemoryConfig("l1", "block_sharded", grid=(2, 2), shard_shape=(64, 64))
    p = place((128, 128), "bf16", cfg)
    assert p.num_pages == 16
    assert p.pages_by_owner() == {
        (0, 0): [0, 1, 4, 5],
        (0, 1): [2, 3, 6, 7],  # the Tensor and Memory Layouts report's text says 7, 8: a typo
        (1, 0): [8, 9, 12, 13],
        (1, 1): [10, 11, 14, 15],
    }


def test_figure4_col_major_transposes_the_shard_grid():
    cfg = MemoryConfig("l1", "block_sharded", grid=(2, 2), shard_shape=(64, 64), orientation="col_major")
    p = place((128, 128), "bf16", cfg)
    assert p.pages_by_owner()[(1, 0)] == [2, 3, 6, 7]
    assert p.pages_by_owner()[(0, 1)] == [8, 9, 12, 13]


# ----------------------------------------------------------------------------- tensor layout

def test_faces_inside_a_32x32_tile():
    lay = TensorLayout((32, 32), "bf16", (32, 32))
    slots = lay.to_pages(np.arange(1024).reshape(32, 32))[0]
    # storage slot -> element: face 0 (rows 0-15, cols 0-15), face 1 (rows 0-15, cols 16-31), ...
    assert slots[0] == 0 and slots[15] == 15
    assert slots[16] == 32  # second row of face 0 = element (1, 0)
    assert slots[256] == 16  # face 1 starts at element (0, 16)
    assert slots[512] == 16 * 32  # face 2 starts at element (16, 0)
    assert slots[768] == 16 * 32 + 16


@pytest.mark.parametrize(
    "tile, elem, slot",
    [
        ((16, 32), (0, 16), 256),  # two 16x16 faces side by side
        ((32, 16), (16, 0), 256),  # two 16x16 faces stacked
        ((8, 32), (0, 16), 128),  # faces 8 rows high
        ((8, 32), (1, 0), 16),
        ((1, 32), (0, 16), 16),
        ((16, 16), (15, 15), 255),
    ],
)
def test_face_order_of_small_tiles(tile, elem, slot):
    lay = TensorLayout(tile, "f32", tile)
    pages = lay.to_pages(np.arange(tile[0] * tile[1]).reshape(tile))
    assert pages[0, slot] == elem[0] * tile[1] + elem[1]


def test_nd_tensor_folds_and_pads_each_slice_to_tiles():
    lay = TensorLayout((2, 3, 40, 40), "bf16", (32, 32))
    # each 40x40 slice pads to 64x64 = 2x2 tiles; 6 slices fold into the height
    assert lay.padded_shape == (6 * 64, 64)
    assert lay.page_grid == (12, 2)
    pe = lay.page_elements()
    # page 2 is slice 0's second tile row, first tile col: element (0, 0, 32, 0) first
    assert pe[2, 0] == 32 * 40
    # slice 0 row 39 is the last real row; slot of (39 - 32 = 7, 8) in face 0 is 7*16+8
    assert pe[2, 7 * 16 + 8] == 39 * 40 + 8
    assert pe[2, 8 * 16] == -1  # row 40 of the slice is padding


def test_oob_value_fills_padding():
    p = place((3, 5), "f32", DRAM, tile=(32, 32), oob=7.0)
    pages = p.layout.to_pages(np.zeros((3, 5), np.float32), p.oob)
    assert pages[0, 5] == 7.0 and pages[0, 3 * 16] == 7.0 and pages[0, 16] == 0.0  # slot 16 = (1, 0)


# ----------------------------------------------------------------------------- bytes and addresses

def test_tile_page_sizes():
    assert place((32, 32), "bf16", DRAM).page_bytes == 2048
    assert place((32, 32), "f32", DRAM).page_bytes == 4096
    assert place((32, 32), "bfp_bf8", DRAM).page_bytes == 1088  # 1024 + 64 exponents
    assert place((32, 32), "bfp_bf4", DRAM).page_bytes == 576  # 512 + 64 exponents
    assert place((16, 32), "bfp_bf8", DRAM, tile=(16, 32)).page_bytes == 512 + 32


def test_addresses_inside_tiles():
    p = place((64, 64), "bf16", DRAM)
    addr = p.element_address()
    assert addr[0, 16] == 256 * 2  # slot 256 of tile 0, 2 B each
    assert addr[0, 32] == 0  # tile 1 sits on bank 1 at offset 0
    p8 = place((32, 32), "bfp_bf8", DRAM)
    a8 = p8.element_address()
    assert a8[0, 0] == 64 and a8[0, 16] == 64 + 256
    p4 = place((32, 32), "bfp_bf4", DRAM)
    a4 = p4.element_address()
    assert a4[0, 1] == 64 and a4[0, 2] == 65


def test_alignment_l1_16_dram_32():
    # rows of 5 bf16 = 10 B pages: aligned to 16 B in L1 and 32 B in DRAM
    pl1 = place((64 * 2 + 1, 5), "bf16", L1, tile=None)
    assert pl1.aligned_page_bytes == 16
    assert int(pl1.page_offset[64]) == 16  # page 64 wraps to core (0, 0), slot 1
    assert pl1.page_owner[64] == 0 and pl1.owners[0] == (0, 0)
    pdram = place((25, 5), "bf16", DRAM, tile=None)
    assert pdram.aligned_page_bytes == 32
    assert int(pdram.page_offset[12]) == 32 and int(pdram.page_offset[24]) == 64


def test_l1_interleaved_spreads_over_every_worker_core():
    p = place((64 * 32, 32), "bf16", L1)  # 64 tiles, one on each core of the 8x8 grid
    owners = p.pages_by_owner()
    assert len(owners) == 64
    assert owners[(0, 0)] == [0] and owners[(0, 7)] == [7] and owners[(7, 7)] == [63]


def test_grayskull_and_blackhole_dram_banks():
    assert len(place((32, 32 * 20), "bf16", DRAM, arch="grayskull").owners) == 8
    assert len(place((32, 32 * 20), "bf16", DRAM, arch="blackhole").owners) == 8
    assert len(place((32, 32 * 20), "bf16", DRAM).owners) == 12


# ----------------------------------------------------------------------------- sharding

def test_height_sharding_row_and_col_major():
    # 256x64 in 32x32 tiles: 8x2 pages; 32x64 shards = one tile row each, 8 shards on a 2x4 grid
    cfg = MemoryConfig("l1", "height_sharded", grid=(2, 4), shard_shape=(32, 64))
    p = place((256, 64), "bf16", cfg)
    assert p.pages_by_owner()[(0, 1)] == [2, 3]
    assert p.pages_by_owner()[(1, 0)] == [8, 9]
    cm = place((256, 64), "bf16", MemoryConfig("l1", "height_sharded", (2, 4), (32, 64), "col_major"))
    assert cm.pages_by_owner()[(1, 0)] == [2, 3]  # col-major: y fastest
    assert cm.pages_by_owner()[(0, 1)] == [4, 5]


def test_width_sharding_row_major_pages_are_shard_rows_with_partial_last_shard():
    # 4x100 u8, shards of 4x30: widths 30, 30, 30, 10; a page is a 30-element shard row
    cfg = MemoryConfig("l1", "width_sharded", grid=(1, 4), shard_shape=(4, 30))
    p = place((4, 100), "u8", cfg, tile=None)
    assert p.num_pages == 16 and p.page_bytes == 30
    assert p.pages_by_owner()[(0, 3)] == [3, 7, 11, 15]
    x = np.arange(400, dtype=np.uint8).reshape(4, 100)
    bufs = p.scatter(x)
    # core (0, 3) holds columns 90..99 of each row, in 32 B (aligned) slots
    assert np.array_equal(bufs[(0, 3)].reshape(4, 32)[:, :10], x[:, 90:])
    assert not bufs[(0, 3)].reshape(4, 32)[:, 10:].any()


def test_uneven_last_height_shard_keeps_full_allocation():
    cfg = MemoryConfig("l1", "height_sharded", grid=(1, 3), shard_shape=(64, 32))
    p = place((160, 32), "f32", cfg)  # 5 tile rows: shards of 2, 2, 1
    assert p.pages_by_owner()[(0, 2)] == [4]
    assert p.owner_bytes()[(0, 2)] == 2 * 4096
    assert p.shard_pages == (2, 1)
    assert p.shard_blocks == [(0, 2, 0, 1), (2, 4, 0, 1), (4, 5, 0, 1)]
    assert p.slot_table()[2].tolist() == [4, -1]


def test_core_range_set_of_two_rectangles():
    crs = CoreRangeSet((CoreRange((0, 0), (0, 1)), CoreRange((3, 4), (3, 5))))
    cfg = MemoryConfig("l1", "height_sharded", grid=crs, shard_shape=(32, 32))
    p = place((128, 32), "bf16", cfg)
    assert p.pages_by_owner() == {(0, 0): [0], (0, 1): [1], (3, 4): [2], (3, 5): [3]}


def test_nd_sharding_round_robin_over_cores():
    # 4x64x64 tiled: per slice 2x2 tiles, page p = (o*2 + tr)*2 + tc. Shards 1x64x32: shard grid
    # 4x1x2 (8 shards), shard i -> core i % 3, slot block i // 3. Shards 0, 3, 6 on core (0, 0):
    # shard 0 = (o0, c0): pages 0, 2; shard 3 = (o1, c1): pages 5, 7; shard 6 = (o3, c0): 12, 14
    cfg = MemoryConfig("l1", "nd_sharded", grid=(1, 3), shard_shape=(1, 64, 32))
    p = place((4, 64, 64), "bf16", cfg)
    assert p.pages_by_owner()[(0, 0)] == [0, 2, 5, 7, 12, 14]
    slots = {int(pg): int(s) for pg, s in zip(range(16), p.page_slot)}
    assert [slots[q] for q in (0, 2, 5, 7, 12, 14)] == [0, 1, 2, 3, 4, 5]
    assert p.owner_bytes()[(0, 2)] == 2 * 2 * 2048  # shards 2 and 5


def test_nd_partial_shards_are_padded():
    cfg = MemoryConfig("l1", "nd_sharded", grid=(1, 2), shard_shape=(2, 32, 32))
    p = place((3, 32, 32), "bf16", cfg)  # shards: o 0-1 and o 2 (partial)
    assert p.owner_bytes()[(0, 1)] == 2 * 2048


def test_dram_sharding_names_banks():
    cfg = MemoryConfig("dram", "width_sharded", grid=CoreRange((0, 0), (0, 3)), shard_shape=(32, 64))
    p = place((32, 256), "bf16", cfg)
    assert p.pages_by_owner() == {0: [0, 1], 1: [2, 3], 2: [4, 5], 3: [6, 7]}


def test_derived_shard_shape():
    p = place((256, 64), "bf16", MemoryConfig("l1", "height_sharded", grid=(2, 2)))
    assert p.pages_by_owner()[(0, 1)] == [4, 5, 6, 7]  # 8 tile rows over 4 cores
    b = place((128, 128), "bf16", MemoryConfig("l1", "block_sharded", grid=(2, 2)))
    assert b.pages_by_owner()[(0, 1)] == [2, 3, 6, 7]


# ----------------------------------------------------------------------------- scatter / gather

def test_scatter_bytes_of_figure4():
    cfg = MemoryConfig("l1", "block_sharded", grid=(2, 2), shard_shape=(64, 64))
    p = place((128, 128), "f32", cfg)
    x = np.arange(128 * 128, dtype=np.float32).reshape(128, 128)
    b = p.scatter(x)
    core01 = b[(0, 1)].view(np.float32).reshape(4, 1024)  # pages 2, 3, 6, 7
    # page 3 = tile row 0, tile col 3; its first face row is x[0, 96:112]
    assert np.array_equal(core01[1, :16], x[0, 96:112])
    assert np.array_equal(core01[2, 16:32], x[33, 64:80])  # page 6 = tile (1, 2): rows 32-63; slot 16 = row 33
    assert np.array_equal(p.gather(b), x)


def test_gather_reports_a_missing_or_short_buffer():
    p = place((64, 64), "bf16", DRAM)
    b = p.scatter(np.zeros((64, 64), np.float32))
    del b[2]
    with pytest.raises(LayoutError, match="no buffer for DRAM bank 2"):
        p.gather(b)
    b = p.scatter(np.zeros((64, 64), np.float32))
    b[1] = b[1][:10]
    with pytest.raises(LayoutError, match="DRAM bank 1 has 10 B; the tensor needs 2048 B"):
        p.gather(b)
    b = p.scatter(np.zeros((64, 64), np.float32))
    b[0] = b[0].view(np.uint16)
    with pytest.raises(LayoutError, match="the buffer of DRAM bank 0 holds uint16; buffers are uint8 bytes"):
        p.gather(b)


def test_inverse_map_of_padding_and_exponents_is_minus_one():
    p = place((32, 32), "bfp_bf8", DRAM)
    assert p.element_at(0, 0) == -1  # an exponent byte
    assert p.element_at(0, 64) == 0
    assert p.element_at(0, 64 + 17) == 32 + 1  # slot 17 = element (1, 1)
    q = place((3, 5), "f32", DRAM)
    assert q.element_at(0, 4 * 5) == -1  # slot 5 of the tile is padding
    assert q.element_at(0, 4 * 16 + 4) == 6  # slot 17 = element (1, 1)
    assert q.element_at(0, 2) == -1  # not the start of an element


# ----------------------------------------------------------------------------- capacity

def test_capacity_error_names_core_and_shortfall():
    # one 1024x384 f32 shard = 1,572,864 B; wormhole_b0 L1 is 1,499,136 B: 73,728 B short
    cfg = MemoryConfig("l1", "height_sharded", grid=(1, 1), shard_shape=(1024, 384))
    with pytest.raises(CapacityError, match=r"1572864 B on core \(0, 0\).*1499136 B: 73728 B short"):
        place((1024, 384), "f32", cfg)


def test_capacity_error_for_a_dram_bank():
    # 512 x 513 tiles of 4096 B = 1,075,838,976 B on one bank; 1 GiB = 1,073,741,824 B
    with pytest.raises(CapacityError, match=r"DRAM bank 0.*1073741824 B: 2097152 B short"):
        place((16384, 16385), "f32", DRAM, num_banks=1)


# ----------------------------------------------------------------------------- illegal configs

@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(buffer="l2"), "unknown buffer type 'l2'; expected one of l1, dram"),
        (dict(layout="diagonal"), "unknown memory layout 'diagonal'"),
        (dict(layout="height_sharded", grid=(2, 2), orientation="zigzag"), "unknown shard orientation 'zigzag'"),
        (dict(layout="interleaved", grid=(2, 2)), "interleaved layout .* takes no grid"),
        (dict(layout="block_sharded"), "needs a core grid"),
        (dict(layout="nd_sharded", grid=(2, 2)), "nd_sharded layout needs a shard shape"),
        (dict(layout="height_sharded", grid=(2, 2), shard_shape=(1, 32, 32)), "takes a 2D shard shape"),
        (dict(layout="height_sharded", grid=(2, 2), shard_shape=(0, 32)), "must have positive extents"),
        (dict(layout="block_sharded", grid=CoreRangeSet((CoreRange((0, 0), (0, 0)), CoreRange((1, 1), (1, 1)))),
              shard_shape=(32, 32)), "block sharding needs a single rectangle"),
    ],
)
def test_illegal_memory_configs(kwargs, match):
    with pytest.raises(LayoutError, match=match):
        MemoryConfig(**kwargs)


def test_illegal_core_ranges():
    with pytest.raises(LayoutError, match=r"core range \(2, 2\)-\(1, 1\) is empty"):
        CoreRange((2, 2), (1, 1))
    with pytest.raises(LayoutError, match="overlap"):
        CoreRangeSet((CoreRange((0, 0), (1, 1)), CoreRange((1, 1), (2, 2))))
    with pytest.raises(LayoutError, match="core grid 0x2 is empty"):
        CoreRangeSet.from_grid((0, 2))


@pytest.mark.parametrize(
    "shape, dtype, cfg, tile, match",
    [
        ((64, 64), "bf16", MemoryConfig("l1", "block_sharded", (2, 2), (32, 48)), (32, 32),
         "shard shape 32x48 is not a whole number of 32x32 tiles"),
        ((64, 64), "bf16", MemoryConfig("l1", "height_sharded", (2, 2), (32, 32)), (32, 32),
         "shard width must be the tensor width 64"),
        ((64, 64), "bf16", MemoryConfig("l1", "width_sharded", (2, 2), (32, 32)), (32, 32),
         "shard height must be the folded tensor height 64"),
        ((128, 128), "bf16", MemoryConfig("l1", "block_sharded", (2, 2), (32, 32)), (32, 32),
         "needs 4x4 cores but the core grid"),
        ((256, 32), "bf16", MemoryConfig("l1", "height_sharded", (1, 2), (32, 32)), (32, 32),
         "8 shards .* has only 2 cores"),
        ((64, 64), "bf16", MemoryConfig("l1", "height_sharded", CoreRange((8, 0), (8, 1)), (32, 64)), (32, 32),
         r"core \(8, 0\) lies outside the 8x8 worker grid of wormhole_b0"),
        ((64, 64), "bf16", MemoryConfig("dram", "height_sharded", CoreRange((1, 0), (1, 1)), (32, 64)), (32, 32),
         "DRAM shards go to banks"),
        ((64, 64), "bf16", MemoryConfig("l1", "nd_sharded", (2, 2), (32, 32, 32)), (32, 32),
         "one shard extent per tensor dim"),
        ((64, 64), "bfp_bf8", DRAM, None, "bfp_bf8 is a block float.*give a tile shape"),
        ((64, 64), "bf16", DRAM, (64, 64), "tile shape 64x64 is not supported"),
        ((64, 0), "bf16", DRAM, (32, 32), "has a dimension < 1"),
        ((64, 64), "bf17", DRAM, (32, 32), "unknown data type 'bf17'"),
    ],
)
def test_illegal_placements(shape, dtype, cfg, tile, match):
    with pytest.raises(LayoutError, match=match):
        place(shape, dtype, cfg, tile=tile)


def test_unknown_arch():
    with pytest.raises(LayoutError, match="unknown architecture 'wormhole'"):
        place((32, 32), "bf16", DRAM, arch="wormhole")


def test_num_banks_out_of_range_is_a_layout_error():
    # num_banks = 2**40 made numpy allocate a 2**40-entry bank list (MemoryError); DRAM banks go up
    # to MAX_DRAM_BANKS, L1 banks are the chip's cores (8x8 on wormhole_b0)
    for cfg, n, match in [(DRAM, 2**40, r"between 1 and 1024 banks.*MAX_DRAM_BANKS.*1099511627776"),
                          (DRAM, 0, "between 1 and 1024 banks"), (L1, 65, "between 1 and 64 banks.*8x8 cores"),
                          (DRAM, "4", "num_banks must be an integer"), (DRAM, 2.5, "num_banks must be an integer")]:
        with pytest.raises(LayoutError, match=match):
            place((64, 64), "bf16", cfg, num_banks=n)
    assert place((64, 64), "bf16", DRAM, num_banks=1024).layout.num_pages == 4
