"""cumsum, argmax, argmin and top_k over a split dim (meshc/passes/partition_select.py): each
device works on its own piece and only its total (cumsum) or its candidates' values and indices
(argmax, argmin, top_k) cross the links. Exact against numpy on 1-D and 2-D meshes, uneven
pieces included, on both backends (TTMetal through ttir-decompose-selections), with the link
bytes derived here.

The gathers run along a row of the T3K (4 chips, 3 links in a line); an all-gather there
delivers every piece over one link per device reached, so k devices gathering a piece of B
bytes each move k (k - 1) B over the links."""

from __future__ import annotations

import numpy as np
import pytest

import meshc

from helpers_auto_shard import predicted_bytes

RNG = np.random.default_rng(2323)


TARGETS = ["ttnn", "ttmetal"]


def _run(text: str, inputs: dict | None, mesh: str, target: str = "ttnn"):
    return meshc.run(text, inputs, target=target,
                     pipeline=f"ttir-to-{target}-pipeline{{system=t3k mesh-shape={mesh}}}")


def _gather_bytes(k: int, piece: int, groups: int = 1) -> int:
    """Link bytes of an all-gather of `piece`-byte pieces among k devices in a line, `groups` times."""
    return groups * k * (k - 1) * piece


def _program(op: str, shape: tuple[int, ...], spec: str, out_spec: str, attrs: str, out_shape: tuple[int, ...],
             out_type: str, constraint: bool = False) -> str:
    t = "x".join(map(str, shape)) + "xf32"
    rt = "x".join(map(str, out_shape)) + f"x{out_type}"
    arg = "%x: tensor<" + t + ">" + ("" if constraint else f" {{tt.sharding = #tt.sharding<{spec}>}}")
    pre = (f'  %xs = "ttir.sharding_constraint"(%x) {{sharding = #tt.sharding<{spec}>}} : (tensor<{t}>) -> tensor<{t}>\n'
           if constraint else "")
    src = "%xs" if constraint else "%x"
    return (f"func.func @main({arg}) -> (tensor<{rt}> {{tt.sharding = #tt.sharding<{out_spec}>}}) {{\n{pre}"
            f'  %y = "ttir.{op}"({src}) {{{attrs}}} : (tensor<{t}>) -> tensor<{rt}>\n'
            f"  return %y : tensor<{rt}>\n}}\n")


# ----------------------------------------------------------------------------- cumsum


@pytest.mark.parametrize("target", TARGETS)
def test_cumsum_over_a_split_dim_on_a_1d_mesh(target):
    """x 4x1024 over a 1-D mesh of 4 along its columns (256 a device). Each device scans its
    piece and sums it (4 rows x 4 B = 16 B); the 4 totals are gathered (4 x 3 x 16 = 192 B) and
    each device adds those before its own. Gathering x first would move 4 x 3 x 4 KiB =
    49,152 B. Integer-valued data: every partial sum is exact, so the result is numpy's bit
    for bit."""
    x = RNG.integers(-8, 9, size=(4, 1024)).astype(np.float32)
    text = _program("cumsum", (4, 1024), "[R, S0]", "[R, S0]", "dim = 1 : i64", (4, 1024), "f32")
    got = _run(text, {"x": x}, "4", target)
    np.testing.assert_array_equal(got.outputs[0], np.cumsum(x, axis=1, dtype=np.float32))
    assert got.traffic.link_bytes == _gather_bytes(4, 16) == 192
    assert got.traffic.link_bytes < _gather_bytes(4, 4 * 256 * 4)


@pytest.mark.parametrize("target", TARGETS)
def test_cumsum_on_float_data_is_the_scan_up_to_the_order_of_its_additions(target):
    """Random normal data: the pieces' totals are added in another order than numpy's running
    sum, so the results differ by rounding only."""
    x = RNG.standard_normal((4, 1024)).astype(np.float32)
    text = _program("cumsum", (4, 1024), "[R, S0]", "[R, S0]", "dim = 1 : i64", (4, 1024), "f32")
    got = _run(text, {"x": x}, "4", target)
    np.testing.assert_allclose(got.outputs[0], np.cumsum(x.astype(np.float64), axis=1), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("target", TARGETS)
def test_cumsum_over_an_uneven_split_on_a_2d_mesh(target):
    """x 8x10 [S0, S1] on the 2x4 mesh: 10 columns in pieces of 3, 3, 3, 1 (buffers of 3, the
    padding masked to 0 before the sums). Each device's total is 4 rows x 4 B = 16 B, gathered
    along each mesh row: 2 x 4 x 3 x 16 = 384 B, the scan's only all-gathers. (The uneven
    argument enters replicated and is cut where it lies; the uneven result leaves gathered by a
    point-to-point reshard, not counted here.)"""
    x = RNG.integers(-8, 9, size=(8, 10)).astype(np.float32)
    text = _program("cumsum", (8, 10), "[S0, S1]", "[S0, S1]", "dim = 1 : i64", (8, 10), "f32", constraint=True)
    got = _run(text, {"x": x}, "2,4", target)
    np.testing.assert_array_equal(got.outputs[0], np.cumsum(x, axis=1, dtype=np.float32))
    gathers = [o for o in got.ops if o.name.endswith("all_gather")]
    assert sum(o.traffic.link_bytes for o in gathers) == _gather_bytes(4, 16, groups=2) == 384


# ----------------------------------------------------------------------------- argmax, argmin


@pytest.mark.parametrize("op, fn", [("argmax", np.argmax), ("argmin", np.argmin)])
@pytest.mark.parametrize("target", TARGETS)
def test_argmax_and_argmin_over_a_split_dim_on_a_1d_mesh(op, fn, target):
    """x 4x1024 over 4 devices along its columns, with many ties (values in -3..3): each device's
    first extreme and its global index (4 rows x (4 + 4) B) are gathered (4 x 3 x 16 B twice:
    384 B), and the first extreme among the candidates picks the index: numpy's, the first of
    equals. Gathering x first would move 49,152 B."""
    x = RNG.integers(-3, 4, size=(4, 1024)).astype(np.float32)
    text = _program(op, (4, 1024), "[R, S0]", "[R]", "dim = 1 : i64", (4,), "i32")
    got = _run(text, {"x": x}, "4", target)
    np.testing.assert_array_equal(got.outputs[0], fn(x, axis=1))
    assert got.traffic.link_bytes == 2 * _gather_bytes(4, 16) == 384


@pytest.mark.parametrize("op, fn", [("argmax", np.argmax), ("argmin", np.argmin)])
@pytest.mark.parametrize("target", TARGETS)
def test_argmax_over_an_uneven_split_on_a_2d_mesh(op, fn, target):
    """x 8x10 [S0, S1]: columns in pieces of 3, 3, 3, 1, the padding masked to -inf (+inf for
    argmin) so it is never picked. The result 8 (keep_dim: 8x1) is split over x like x's rows:
    the candidates of 4 rows (16 B of values, 16 B of indices) gathered along each mesh row:
    2 x 2 x 4 x 3 x 16 = 768 B, nothing else moves (the uneven argument is cut where it lies)."""
    x = RNG.standard_normal((8, 10)).astype(np.float32)
    text = _program(op, (8, 10), "[S0, S1]", "[S0, R]", "dim = 1 : i64, keep_dim = true", (8, 1), "i32",
                    constraint=True)
    got = _run(text, {"x": x}, "2,4", target)
    np.testing.assert_array_equal(got.outputs[0], fn(x, axis=1, keepdims=True))
    assert got.traffic.link_bytes == 2 * _gather_bytes(4, 16, groups=2) == 768


@pytest.mark.parametrize("target", TARGETS)
def test_integer_argmax_and_argmin_over_an_uneven_split(target):
    """i32 x 8x10 [S0, S1] (pieces of 3, 3, 3, 1 columns): the padding is masked to the smallest
    i32 (never picked over a real element; a tie goes to the real one, whose index is lower) and
    argmin reverses the order with ~x (-x would wrap the smallest i32 onto itself). Rows all
    negative (unmasked zero padding would win the argmax), one row holding the smallest i32 (the
    argmin), one row of equal values (the first index wins)."""
    x = -RNG.integers(1, 1000, (8, 10)).astype(np.int32)
    x[3, 7] = np.iinfo(np.int32).min
    x[5, :] = -7
    text = ("func.func @main(%x: tensor<8x10xi32> {tt.sharding = #tt.sharding<[S0, S1]>})"
            " -> (tensor<8xi32> {tt.sharding = #tt.sharding<[S0]>}, tensor<8xi32> {tt.sharding = #tt.sharding<[S0]>}) {\n"
            '  %a = "ttir.argmax"(%x) {dim = 1 : i64} : (tensor<8x10xi32>) -> tensor<8xi32>\n'
            '  %b = "ttir.argmin"(%x) {dim = 1 : i64} : (tensor<8x10xi32>) -> tensor<8xi32>\n'
            "  return %a, %b : tensor<8xi32>, tensor<8xi32>\n}\n")
    got = _run(text, {"x": x}, "2,4", target)
    np.testing.assert_array_equal(got.outputs[0], np.argmax(x, axis=1))
    np.testing.assert_array_equal(got.outputs[1], np.argmin(x, axis=1))
    assert got.outputs[1][3] == 7 and got.outputs[0][5] == 0


# ----------------------------------------------------------------------------- top_k


def _top_k_program(shape, spec, k, constraint=False) -> str:
    t = "x".join(map(str, shape)) + "xf32"
    out = "x".join(map(str, shape[:-1] + (k,)))
    arg = "%x: tensor<" + t + ">" + ("" if constraint else f" {{tt.sharding = #tt.sharding<{spec}>}}")
    pre = (f'  %xs = "ttir.sharding_constraint"(%x) {{sharding = #tt.sharding<{spec}>}} : (tensor<{t}>) -> tensor<{t}>\n'
           if constraint else "")
    src = "%xs" if constraint else "%x"
    d = len(shape) - 1
    return (f"func.func @main({arg}) -> (tensor<{out}xf32>, tensor<{out}xi32>) {{\n{pre}"
            f'  %v = "ttir.top_k"({src}) {{k = {k} : i64, dim = {d} : i64}} : (tensor<{t}>) -> tensor<{out}xf32>\n'
            f'  %i = "ttir.top_k_indices"({src}) {{k = {k} : i64, dim = {d} : i64}} : (tensor<{t}>) -> tensor<{out}xi32>\n'
            f"  return %v, %i : tensor<{out}xf32>, tensor<{out}xi32>\n}}\n")


def _numpy_top_k(x, k):
    """JAX's top_k on numpy: the k largest along the last dim, the first of equals first."""
    idx = np.argsort(-x, axis=-1, kind="stable")[..., :k]
    return np.take_along_axis(x, idx, axis=-1), idx


@pytest.mark.parametrize("target", TARGETS)
def test_top_k_over_8_devices_gathers_only_the_candidates(target):
    """x 4x1024 split over all 8 chips of the T3K along its columns ([R, S01]: 128 a device),
    k = 2. Each device's 2 candidates of each of 4 rows, values (f32) and global indices (i32),
    are gathered over the 8 devices: 8 x 7 x 2 candidates x 4 rows x (4 + 4) B = 3,584 B (every
    piece crosses one link: gathered along y, 4 chips in a line, then along x, one link), then
    each device takes the top 2 of the 16 candidates. Gathering x first moves 8 x 7 x 4 x 128 x
    4 B = 114,688 B."""
    x = RNG.standard_normal((4, 1024)).astype(np.float32)
    got = _run(_top_k_program((4, 1024), "[R, S01]", 2), {"x": x}, "2,4", target)
    values, indices = _numpy_top_k(x, 2)
    np.testing.assert_array_equal(got.outputs[0], values)
    np.testing.assert_array_equal(got.outputs[1], indices)
    assert got.traffic.link_bytes == 8 * 7 * 2 * 4 * (4 + 4) == 3584
    assert got.traffic.link_bytes < 8 * 7 * 4 * 128 * 4


@pytest.mark.parametrize("target", TARGETS)
def test_top_k_with_ties_on_a_1d_mesh(target):
    """x 3x64 over 4 devices in a line, values in 0..4 (many ties), k = 5: the first of equals
    come first, as JAX's top_k (numpy's stable sort). Candidates: 5 a device and row, 3 rows,
    value and index: 4 x 3 x 5 x 3 x 8 B = 1,440 B."""
    x = RNG.integers(0, 5, size=(3, 64)).astype(np.float32)
    got = _run(_top_k_program((3, 64), "[R, S0]", 5), {"x": x}, "4", target)
    values, indices = _numpy_top_k(x, 5)
    np.testing.assert_array_equal(got.outputs[0], values)
    np.testing.assert_array_equal(got.outputs[1], indices)
    assert got.traffic.link_bytes == 4 * 3 * 5 * 3 * 8 == 1440


@pytest.mark.parametrize("target", TARGETS)
def test_top_k_over_an_uneven_split(target):
    """x 2x10 over 4 devices (pieces 3, 3, 3, 1, the padding set to -inf), k = 4: each device
    gives 3 candidates (its buffer's length), 4 x 3 x 3 x 2 rows x 8 B = 576 B."""
    x = RNG.standard_normal((2, 10)).astype(np.float32)
    got = _run(_top_k_program((2, 10), "[R, S0]", 4, constraint=True), {"x": x}, "4", target)
    values, indices = _numpy_top_k(x, 4)
    np.testing.assert_array_equal(got.outputs[0], values)
    np.testing.assert_array_equal(got.outputs[1], indices)
    assert got.traffic.link_bytes == 4 * 3 * 3 * 2 * 8 == 576


# ----------------------------------------------------------------------------- what ttir-auto-shard prices


@pytest.mark.parametrize("text, mesh", [
    (_program("cumsum", (4, 1024), "[R, S0]", "[R, S0]", "dim = 1 : i64", (4, 1024), "f32"), "4"),
    (_program("argmax", (4, 1024), "[R, S0]", "[R]", "dim = 1 : i64", (4,), "i32"), "4"),
    (_top_k_program((4, 1024), "[R, S01]", 2), "2,4"),
    (_top_k_program((3, 64), "[R, S0]", 5), "4"),
])
def test_auto_shard_prices_the_gathers_the_partition_makes(text, mesh):
    """ttir-auto-shard's cost of these ops is the candidates' (or totals') gathers, the bytes the
    simulator delivers (not a gather of the dim)."""
    got = _run(text, None, mesh)
    assert predicted_bytes(text, mesh) == got.traffic.delivered_bytes > 0
