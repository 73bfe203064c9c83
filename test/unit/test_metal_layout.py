"""#tt.metal_layout model: LINEAR from collapse intervals, shard shapes, tiles, and verification."""

import pytest

from meshc.layout import build_metal_layout
from meshc.layout.dtypes import get_dtype
from meshc.layout.errors import LayoutError
from meshc.layout.metal_layout import MetalLayout, Tile, collapsed_shape, linear_map


def test_design_example_2x3x64x128_on_2x4():
    # docs/design.md: default collapse folds all but the last dim: strides 3*64 = 192 and 64
    lay = build_metal_layout((2, 3, 64, 128), (2, 4))
    assert str(lay.linear) == "(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)"
    # LINEAR(1, 2, 63, 127) + 1 = (192 + 128 + 63 + 1, 128) = (384, 128); / (2, 4) = (192, 32)
    assert lay.shard_shape == (192, 32)
    assert lay.element == get_dtype("f32")
    tiled = build_metal_layout((2, 3, 64, 128), (2, 4), tile=(32, 32))
    assert tiled.shard_shape == (6, 1)  # 192 / 32, 32 / 32
    assert tiled.element == Tile((32, 32), get_dtype("f32"))


def test_seed_data_parallel_over_batch():
    # tt-mlir's Device spec: tensor<16x3x64x128xf32> on <2x2x4>, LINEAR (d0, d1 * 64 + d2, d3), memref 8x3x1 tiles
    lay = build_metal_layout((16, 3, 64, 128), (2, 2, 4), [(1, 3)], dtype="bfp_bf8", tile=(32, 32))
    assert str(lay.linear) == "(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3)"
    # collapsed (16, 192, 128) / (2, 2, 4) = (8, 96, 32) elements = (8, 3, 1) in 32x32 tiles
    assert lay.shard_shape == (8, 3, 1)
    assert lay.shard_elements == (8, 96, 32)


def test_seed_data_parallel_over_2d():
    lay = build_metal_layout((256, 1024), (4, 16), [], dtype="bfp_bf8", tile=(32, 32))
    assert str(lay.linear) == "(d0, d1) -> (d0, d1)"
    assert lay.shard_shape == (2, 2)  # (64, 64) elements


def test_seed_data_parallel_over_2d_and_batch():
    lay = build_metal_layout((64, 256, 1024), (2, 4, 16), [], dtype="bfp_bf8", tile=(32, 32))
    assert str(lay.linear) == "(d0, d1, d2) -> (d0, d1, d2)"
    assert lay.shard_shape == (32, 2, 2)  # (32, 64, 64) elements


def test_partial_shards_round_up():
    # 100 / 3 -> 34 rows a core; 34 / 32 -> 2 tiles
    lay = build_metal_layout((100, 100), (3, 3))
    assert lay.shard_shape == (34, 34)
    assert build_metal_layout((100, 100), (3, 3), tile=(32, 32)).shard_shape == (2, 2)
    # 16x32 tiles: 34 / 16 -> 3, 34 / 32 -> 2
    assert build_metal_layout((100, 100), (3, 3), tile=(16, 32)).shard_shape == (3, 2)


def test_linear_map_collapse_intervals():
    assert str(linear_map((2, 3, 4, 5), [(0, 2), (2, 4)])) == "(d0, d1, d2, d3) -> (d0 * 3 + d1, d2 * 5 + d3)"
    assert str(linear_map((2, 3, 4, 5), [(-3, -1)])) == "(d0, d1, d2, d3) -> (d0, d1 * 4 + d2, d3)"
    assert str(linear_map((7,))) == "(d0) -> (d0)"
    with pytest.raises(LayoutError, match="overlap"):
        linear_map((2, 3, 4), [(0, 2), (1, 3)])
    with pytest.raises(LayoutError, match="does not lie within the 3 dims"):
        linear_map((2, 3, 4), [(0, 5)])


def test_collapsed_shape_uses_the_largest_value():
    # a transposing LINEAR: the extent is still the largest value + 1
    assert collapsed_shape("(d0, d1) -> (d1, d0)", (3, 5)) == (5, 3)
    with pytest.raises(LayoutError, match="reaches -4 on tensor 5x3; LINEAR values must not be negative"):
        collapsed_shape("(d0, d1) -> (d0 - d1 * 2, d1)", (5, 3))


def test_verify_against_rank_mismatch():
    lay = build_metal_layout((16, 3, 64, 128), (2, 2, 4), [(1, 3)])
    with pytest.raises(LayoutError, match="takes 4 dims, but the tensor 3x64x128 has rank 3"):
        lay.verify_against((3, 64, 128))


def test_verify_against_shard_too_small():
    lay = MetalLayout("(d0, d1) -> (d0, d1)", "undef", (4, 16), (2, 2), Tile((32, 32), "bfp_bf8"), "l1")
    lay.verify_against((256, 1024))
    with pytest.raises(LayoutError) as e:
        lay.verify_against((256, 1040))
    # 2 tiles * 32 * 16 cores = 1024 columns < 1040
    assert "covers 256x1024 elements, but the tensor 256x1040 collapses to 256x1040: dim 1 needs 1040, has 1024" \
        in str(e.value)


def test_seed_example_with_a_rank_2_linear_on_a_rank_3_grid_is_rejected():
    # tt-mlir's Device spec's "over 2d and batch" tensor writes (d0, d1) -> (d0, d1) for a 3-d tensor and grid
    with pytest.raises(LayoutError, match=r"has 2 results, but the grid <2x4x16> has rank 3"):
        MetalLayout("(d0, d1) -> (d0, d1)", "undef", (2, 4, 16), (32, 2, 2), Tile((32, 32), "bfp_bf8"), "l1")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(oob="nan"), "unknown OOB value 'nan'; expected one of undef, zero, one, inf, neginf"),
        (dict(memory_space="sram"), "unknown memory space 'sram'; expected one of system, dram, l1"),
        (dict(shard=(2,)), "the memref shard 2 has rank 1, but the grid <4x16> has rank 2"),
        (dict(grid=(4, 0)), "grid <4x0> must have a rank of at least 1 and positive sizes"),
        (dict(element="bfp_bf8"), "bfp_bf8 elements are stored in tiles only"),
    ],
)
def test_layout_self_consistency(kwargs, message):
    args = dict(linear="(d0, d1) -> (d0, d1)", oob="undef", grid=(4, 16), shard=(2, 2), element="f32",
                memory_space="l1")
    args.update(kwargs)
    with pytest.raises(LayoutError) as e:
        MetalLayout(args["linear"], args["oob"], args["grid"], args["shard"], args["element"], args["memory_space"])
    assert message in str(e.value)


def test_tiles():
    assert Tile((32, 32), "bf16").size_bytes == 2048
    assert Tile((32, 32), "bfp_bf8").size_bytes == 1088  # 1024 + 64 exponents
    with pytest.raises(LayoutError, match="tile shape 32x8 is not supported"):
        Tile((32, 8), "bf16")
    with pytest.raises(LayoutError, match="tiled layout needs a grid of rank 2"):
        build_metal_layout((64,), (2,), tile=(32, 32))
