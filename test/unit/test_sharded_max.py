"""A max reduction over a split dim (meshc/passes/partition_select.py): each device takes the
maximum of its piece and a max all_reduce over the splitting axes completes it, where a gather of
the operand came first before; a min reduction is built the same way (a min all_reduce, its
padding masked to +inf or the largest integer). Exact against numpy (a maximum of maxima is the maximum) on 1-D and
2-D meshes, uneven pieces included (their padding masked to -inf), on both backends, with the link
bytes derived here.

The T3K's rows are 4 chips in a line (3 links), its columns 2 chips (1 link). On TTNN the max
all_reduce is an all_gather of each device's maxima (ttir-decompose-ccl-reductions): k devices
gathering B bytes each cross k (k - 1) B of links. On TTMetal it is the simulator's ring
all-reduce of the B bytes padded to k pieces: 2 (k - 1) B (B a multiple of k)."""

from __future__ import annotations

import numpy as np
import pytest

import meshc

from helpers_auto_shard import predicted_bytes

RNG = np.random.default_rng(2324)
TARGETS = ["ttnn", "ttmetal"]


def _run(text: str, inputs: dict | None, mesh: str, target: str = "ttnn"):
    return meshc.run(text, inputs, target=target,
                     pipeline=f"ttir-to-{target}-pipeline{{system=t3k mesh-shape={mesh}}}")


def _program(shape, spec, out_spec, dims, keep, out_shape, elem="f32", constraint=False, op="max") -> str:
    t = "x".join(map(str, shape)) + f"x{elem}"
    rt = "x".join(map(str, out_shape)) + f"x{elem}"
    arg = "%x: tensor<" + t + ">" + ("" if constraint else f" {{tt.sharding = #tt.sharding<{spec}>}}")
    pre = (f'  %xs = "ttir.sharding_constraint"(%x) {{sharding = #tt.sharding<{spec}>}} : (tensor<{t}>) -> tensor<{t}>\n'
           if constraint else "")
    src = "%xs" if constraint else "%x"
    dim_arg = ", ".join(f"{d} : i32" for d in dims)
    return (f"func.func @main({arg}) -> (tensor<{rt}> {{tt.sharding = #tt.sharding<{out_spec}>}}) {{\n{pre}"
            f'  %y = "ttir.{op}"({src}) {{dim_arg = [{dim_arg}], keep_dim = {str(keep).lower()}}} : '
            f"(tensor<{t}>) -> tensor<{rt}>\n"
            f"  return %y : tensor<{rt}>\n}}\n")


def _gather(k: int, piece: int, groups: int = 1) -> int:
    """TTNN: the max all_reduce of `piece`-byte maxima among k chips in a line, `groups` times."""
    return groups * k * (k - 1) * piece


def _ring(k: int, piece: int, groups: int = 1) -> int:
    """TTMetal: a ring all-reduce of `piece` bytes (a multiple of k) among k chips, `groups` times."""
    return groups * 2 * (k - 1) * piece


def _bytes(target, k, piece, groups=1):
    return (_gather if target == "ttnn" else _ring)(k, piece, groups)


@pytest.mark.parametrize("target", TARGETS)
def test_max_over_a_split_dim_on_a_1d_mesh(target):
    """x 4x1024 over a 1-D mesh of 4 along its columns (256 a chip): each chip's 4 maxima (16 B)
    are all-reduced. TTNN gathers them, 4 x 3 x 16 = 192 B; TTMetal's ring moves 2 x 3 x 16 =
    96 B. Gathering x first (what the keep factor did) moved 4 x 3 x 4 KiB = 49,152 B."""
    x = RNG.standard_normal((4, 1024)).astype(np.float32)
    got = _run(_program((4, 1024), "[R, S0]", "[R]", [1], False, (4,)), {"x": x}, "4", target)
    np.testing.assert_array_equal(got.outputs[0], np.max(x, axis=1))
    assert got.traffic.link_bytes == _bytes(target, 4, 16) == {"ttnn": 192, "ttmetal": 96}[target]
    assert got.traffic.link_bytes < _gather(4, 4 * 256 * 4)


@pytest.mark.parametrize("target", TARGETS)
def test_max_over_one_split_dim_on_a_2d_mesh_keeps_the_other_split(target):
    """x 8x64 [S0, S1], max over the columns keeping the dim: the result 8x1 stays split over x
    (4 rows a chip); each chip's 4 maxima (16 B) are all-reduced along its mesh row, 2 rows."""
    x = RNG.standard_normal((8, 64)).astype(np.float32)
    got = _run(_program((8, 64), "[S0, S1]", "[S0, R]", [1], True, (8, 1)), {"x": x}, "2,4", target)
    np.testing.assert_array_equal(got.outputs[0], np.max(x, axis=1, keepdims=True))
    assert got.traffic.link_bytes == _bytes(target, 4, 16, groups=2)


@pytest.mark.parametrize("target", TARGETS)
def test_max_over_a_dim_split_over_both_axes(target):
    """x 4x256 [R, S01]: the columns in 8 pieces of 32, one a chip. The chip's 4 maxima (16 B)
    are all-reduced over x (down each of the 4 columns of the mesh, k = 2), then over y (along each
    of the 2 rows, k = 4)."""
    x = RNG.standard_normal((4, 256)).astype(np.float32)
    got = _run(_program((4, 256), "[R, S01]", "[R]", [1], False, (4,)), {"x": x}, "2,4", target)
    np.testing.assert_array_equal(got.outputs[0], np.max(x, axis=1))
    assert got.traffic.link_bytes == _bytes(target, 2, 16, groups=4) + _bytes(target, 4, 16, groups=2)


@pytest.mark.parametrize("target", TARGETS)
def test_max_over_an_uneven_split_masks_the_padding(target):
    """x 4x10 over 4 chips: columns in pieces of 3, 3, 3, 1, each buffer padded to 3. Every
    element is negative, so padding that took part (whatever the buffer holds there) could win
    unless masked to -inf; the result is numpy's exactly. The uneven argument is cut where it
    lies (no link bytes); the all_reduce of 4 maxima a chip as on the even split."""
    x = -RNG.uniform(1.0, 9.0, (4, 10)).astype(np.float32)
    got = _run(_program((4, 10), "[R, S0]", "[R]", [1], False, (4,), constraint=True), {"x": x}, "4", target)
    np.testing.assert_array_equal(got.outputs[0], np.max(x, axis=1))
    assert got.traffic.link_bytes == _bytes(target, 4, 16)


@pytest.mark.parametrize("target", TARGETS)
def test_max_over_an_uneven_split_on_a_2d_mesh(target):
    """x 8x30 [S0, S1]: rows 4 a chip, columns in pieces of
    8, 8, 8, 6 (padded to 8). Every element negative, each row's largest in column 29 (the
    last chip's real piece, beside its padding): the padding, unmasked, could win."""
    x = -RNG.uniform(1.0, 9.0, (8, 30)).astype(np.float32)
    x[:, 29] = -RNG.uniform(0.1, 0.5, 8).astype(np.float32)
    got = _run(_program((8, 30), "[S0, S1]", "[S0, R]", [1], True, (8, 1), constraint=True), {"x": x}, "2,4", target)
    np.testing.assert_array_equal(got.outputs[0], np.max(x, axis=1, keepdims=True))
    assert got.traffic.link_bytes == _bytes(target, 4, 16, groups=2)


@pytest.mark.parametrize("target", TARGETS)
def test_max_of_integers_over_an_uneven_split_masks_with_the_smallest_i32(target):
    """i32 has no -inf: the padding of x 4x10 (pieces 3, 3, 3, 1 over 4 chips) is masked to
    -2**31 instead. Every element negative; the maxima 4 x 4 B a chip, all-reduced as above."""
    x = -RNG.integers(1, 1000, (4, 10)).astype(np.int32)
    got = _run(_program((4, 10), "[R, S0]", "[R]", [1], False, (4,), elem="i32", constraint=True),
               {"x": x}, "4", target)
    np.testing.assert_array_equal(got.outputs[0], np.max(x, axis=1))
    assert got.traffic.link_bytes == _bytes(target, 4, 16)


@pytest.mark.parametrize("text, mesh", [
    (_program((4, 1024), "[R, S0]", "[R]", [1], False, (4,)), "4"),
    (_program((8, 64), "[S0, S1]", "[S0, R]", [1], True, (8, 1)), "2,4"),
    (_program((4, 256), "[R, S01]", "[R]", [1], False, (4,)), "2,4"),
    (_program((8, 64), "[S0, S1]", "[R, R]", [0, 1], True, (1, 1)), "2,4"),
])
def test_auto_shard_prices_the_max_all_reduces_the_ttnn_pipeline_runs(text, mesh):
    """ttir-auto-shard's cost of a max over split dims is the maxima's gathers, one an axis, the
    bytes the simulator delivers on TTNN (not a gather of the operand)."""
    got = _run(text, None, mesh)
    assert predicted_bytes(text, mesh) == got.traffic.delivered_bytes > 0


# ---------------------------------------------------------------- the min reduction, built as the max


@pytest.mark.parametrize("target", TARGETS)
def test_min_over_an_uneven_split_on_a_2d_mesh_masks_the_padding_to_inf(target):
    """ttir.min over x 8x30 [S0, S1] (columns in pieces of 8, 8, 8, 6, padded to 8): every element
    positive and each row's smallest in column 29, beside the last chip's padding, which unmasked
    (0 where the buffer holds zeros) could win; masked to +inf. The minima all-reduced as the
    maxima above: 4 x 4 B a chip along each mesh row."""
    x = RNG.uniform(1.0, 9.0, (8, 30)).astype(np.float32)
    x[:, 29] = RNG.uniform(0.1, 0.5, 8).astype(np.float32)
    got = _run(_program((8, 30), "[S0, S1]", "[S0, R]", [1], True, (8, 1), constraint=True, op="min"),
               {"x": x}, "2,4", target)
    np.testing.assert_array_equal(got.outputs[0], np.min(x, axis=1, keepdims=True))
    assert got.traffic.link_bytes == _bytes(target, 4, 16, groups=2)


@pytest.mark.parametrize("target", TARGETS)
def test_min_of_integers_over_an_uneven_split_masks_with_the_largest_i32(target):
    """i32 has no +inf: the padding of x 4x10 (pieces 3, 3, 3, 1) is masked to 2**31 - 1; every
    element large and positive, the largest i32 itself in one row, so neither zero padding nor a
    wrong mask value can pass. TTNN's min all_reduce reverses the order with bitwise_not."""
    x = RNG.integers(2 ** 30, 2 ** 31 - 1, (4, 10), dtype=np.int64).astype(np.int32)
    x[2, :] = 2 ** 31 - 1
    got = _run(_program((4, 10), "[R, S0]", "[R]", [1], False, (4,), elem="i32", constraint=True, op="min"),
               {"x": x}, "4", target)
    np.testing.assert_array_equal(got.outputs[0], np.min(x, axis=1))
    assert got.traffic.link_bytes == _bytes(target, 4, 16)


@pytest.mark.parametrize("text, mesh", [
    (_program((4, 1024), "[R, S0]", "[R]", [1], False, (4,), op="min"), "4"),
    (_program((8, 64), "[S0, S1]", "[R, R]", [0, 1], True, (1, 1), op="min"), "2,4"),
])
def test_auto_shard_prices_the_min_all_reduces_as_the_max_ones(text, mesh):
    """ttir-auto-shard prices a min over split dims as a max's: the extremes' gathers TTNN runs."""
    got = _run(text, None, mesh)
    assert predicted_bytes(text, mesh) == got.traffic.delivered_bytes > 0
