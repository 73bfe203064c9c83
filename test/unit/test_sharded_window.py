"""Slices and concatenations along a split dim (windowed moves, meshc/layout/reshard/window.py and
meshc/passes/partition_window.py): exact against numpy on 1-D and 2-D meshes, uneven pieces
included, on both backends, and the link bytes against a derivation written here: each device
receives the elements its result piece needs and its operand pieces lack, over the links
between the holder and itself, never a gather of the dim."""

from __future__ import annotations

import math

import numpy as np
import pytest

import meshc
from meshc.dialects.tt import module_device
from meshc.layout.dtypes import get_dtype
from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.reshard import ReshardPlan, Step, Transfer, execute_plan
from meshc.layout.reshard.window import window_moves, window_needed_bytes
from meshc.passes.auto_shard import estimate
from meshc.passes.propagate_sharding import propagate_function
from meshc.passes.sharding_ir import function_specs

TARGETS = ["ttnn", "ttmetal"]
RNG = np.random.default_rng(231)

T3K_LINKS = [(0, 1), (0, 4), (1, 2), (1, 5), (2, 3), (2, 6), (3, 7), (4, 5), (5, 6), (6, 7)]
"""The T3K's ethernet links between its 2x4 chips (meshc.layout.system's t3k)."""


def _hops(a: int, b: int) -> int:
    """Links between chips a and b of the T3K (breadth-first over T3K_LINKS)."""
    seen, frontier, d = {a}, {a}, 0
    while b not in frontier:
        frontier = {y for x in frontier for lk in T3K_LINKS for y in lk if x in lk and y not in seen}
        seen |= frontier
        d += 1
    return d


def _chunks(n: int, k: int) -> list[tuple[int, int]]:
    """torch.chunk's pieces of n elements in k: [start, stop) each."""
    c = -(-n // k)
    return [(min(i * c, n), min(i * c + c, n)) for i in range(k)]


def _halo_link_bytes(n: int, k: int, window: tuple[int, int], row_bytes: int, devices) -> int:
    """Link bytes of a window of a dim of n split over k devices (`devices`: their chip ids in
    order), each element moved from its holder straight to the device whose result piece needs
    it: row_bytes a column, times the links crossed."""
    lo, hi = window
    held = _chunks(n, k)
    total = 0
    for j, (a, b) in enumerate(_chunks(hi - lo, k)):
        for col in range(lo + a, lo + b):
            if not 0 <= col < n or held[j][0] <= col < held[j][1]:
                continue  # past the tensor (zeros), or held already
            owner = next(i for i, (s, e) in enumerate(held) if s <= col < e)
            total += row_bytes * _hops(devices[owner], devices[j])
    return total


def _run(text: str, inputs: dict, target: str, mesh: str):
    return meshc.run(text, inputs, target=target,
                     pipeline=f"ttir-to-{target}-pipeline{{system=t3k mesh-shape={mesh}}}")


# ----------------------------------------------------------------------------- the layout model


@pytest.mark.parametrize("seed", range(12))
def test_windowed_moves_give_every_device_its_piece_of_the_window(seed):
    """Random tensors, specs and windows (reaching past the tensor too): every device ends with
    its piece of x[window] (zeros past x), and the moves deliver exactly the elements a piece
    needs and its source piece lacks, counted element by element with numpy masks."""
    rng = np.random.default_rng(seed)
    mesh = Mesh((2, 4)) if seed % 2 else Mesh((4,))
    rank = 2
    shape = tuple(int(rng.integers(1, 12)) for _ in range(rank))
    axes = list(range(mesh.rank))
    rng.shuffle(axes)
    dims = [(), ()]
    for a in axes:
        dims[int(rng.integers(0, rank))] += (a,)
    spec = ShardingSpec(mesh, tuple(dims))
    window = tuple((lo, lo + int(rng.integers(0, n + 4))) for lo, n in
                   ((int(rng.integers(-3, n + 1)), n) for n in shape))
    x = rng.standard_normal(shape).astype(np.float32)
    rows = window_moves(shape, spec, spec, window)
    transfers = tuple(Transfer(int(r[1]), int(r[2]), tuple(zip(r[3::2].tolist(), r[4::2].tolist())), 0) for r in rows)
    n = mesh.size
    plan = ReshardPlan(shape, get_dtype("f32"), spec, spec, None,
                       (Step("point_to_point", (), (tuple(range(n)),), transfers),), 0, np.zeros((n, n)),
                       window=window)
    pieces = [x[spec.local_slices(shape, mesh.coord_of(d))] for d in range(n)]
    got = execute_plan(plan, pieces, padded=True)
    wshape = tuple(hi - lo for lo, hi in window)
    want_window = np.zeros(wshape, dtype=np.float32)
    inside = [(min(max(lo, 0), m), max(min(hi, m), min(max(lo, 0), m))) for (lo, hi), m in zip(window, shape)]
    src = tuple(slice(a, b) for a, b in inside)
    dst = tuple(slice(a - lo, b - lo) for (a, b), (lo, _) in zip(inside, window))
    want_window[dst] = x[src]
    needed = 0
    for d in range(n):
        coord = mesh.coord_of(d)
        piece = want_window[spec.local_slices(wshape, coord)]
        buffer = np.zeros(spec.buffer_shape(wshape), dtype=np.float32)
        buffer[tuple(slice(0, k) for k in piece.shape)] = piece
        np.testing.assert_array_equal(got[d], buffer)
        # needed and lacking, element by element: positions of x in the piece, minus those held
        need = np.zeros(shape, dtype=bool)
        box = [(a + lo, b + lo) for (a, b), (lo, _) in zip(spec.local_bounds(wshape, coord), window)]
        need[tuple(slice(max(a, 0), max(min(b, m), 0)) for (a, b), m in zip(box, shape))] = True
        hold = np.zeros(shape, dtype=bool)
        hold[spec.local_slices(shape, coord)] = True
        needed += int((need & ~hold).sum())
    assert sum(math.prod(hi - lo for lo, hi in t.box) for t in transfers) == needed
    assert window_needed_bytes(shape, spec, spec, window, 4) == 4 * needed


# ----------------------------------------------------------------------------- slices


SLICE_1D = """
func.func @main(%x: tensor<4x1024xf32> {tt.sharding = #tt.sharding<[R, S0]>}) -> (tensor<4x800xf32> {tt.sharding = #tt.sharding<[R, S0]>}) {
  %y = "ttir.slice"(%x) {begins = [0 : i32, 100 : i32], ends = [4 : i32, 900 : i32], step = [1 : i32, 1 : i32]} : (tensor<4x1024xf32>) -> tensor<4x800xf32>
  return %y : tensor<4x800xf32>
}
"""


@pytest.mark.parametrize("target", TARGETS)
def test_a_slice_of_a_split_dim_on_a_1d_mesh_moves_only_halos(target):
    """x 4x1024 f32 split over a 1-D mesh of 4 (chips 0-3, a row of the T3K): 256 columns a
    device. x[:, 100:900] is 800 columns, 200 a device: [100, 300), [300, 500), [500, 700),
    [700, 900). Device 0 holds [0, 256) and lacks [256, 300) (44 columns from device 1); device 1
    holds [256, 512), all it needs; device 2 holds [512, 768) and lacks [500, 512) (12 from
    device 1); device 3 holds [768, 1024) and lacks [700, 768) (68 from device 2). 124 columns x
    4 rows x 4 B = 1,984 B over one link each. Gathering x first moves 3 x 4 KiB into each
    device: 49,152 B."""
    x = RNG.standard_normal((4, 1024)).astype(np.float32)
    got = _run(SLICE_1D, {"x": x}, target, "4")
    np.testing.assert_array_equal(got.outputs[0], x[:, 100:900])
    assert (44 + 12 + 68) * 4 * 4 == 1984
    assert got.traffic.link_bytes == 1984 == _halo_link_bytes(1024, 4, (100, 900), 16, [0, 1, 2, 3])
    assert got.traffic.link_bytes < 3 * 4 * 256 * 4 * 4


@pytest.mark.parametrize("target", TARGETS)
def test_a_slice_of_an_uneven_split_on_a_1d_mesh(target):
    """x 3x10 over 4 devices: torch.chunk pieces of 3, 3, 3, 1 columns. x[:, 1:9] is 8 columns,
    2 a device ([1, 3), [3, 5), [5, 7), [7, 9)): devices 0 and 1 hold theirs, device 2 ([6, 9))
    lacks column 5 (from device 1), device 3 ([9, 10)) columns 7 and 8 (from device 2): 3 columns
    x 3 rows x 4 B = 36 B, one link each. The uneven argument enters replicated and is cut
    where it lies (no link bytes)."""
    text = """
func.func @main(%x: tensor<3x10xf32>) -> (tensor<3x8xf32> {tt.sharding = #tt.sharding<[R, S0]>}) {
  %xs = "ttir.sharding_constraint"(%x) {sharding = #tt.sharding<[R, S0]>} : (tensor<3x10xf32>) -> tensor<3x10xf32>
  %y = "ttir.slice"(%xs) {begins = [0 : i32, 1 : i32], ends = [3 : i32, 9 : i32], step = [1 : i32, 1 : i32]} : (tensor<3x10xf32>) -> tensor<3x8xf32>
  return %y : tensor<3x8xf32>
}
"""
    x = RNG.standard_normal((3, 10)).astype(np.float32)
    got = _run(text, {"x": x}, target, "4")
    np.testing.assert_array_equal(got.outputs[0], x[:, 1:9])
    assert got.traffic.link_bytes == 36 == _halo_link_bytes(10, 4, (1, 9), 12, [0, 1, 2, 3])


@pytest.mark.parametrize("target", TARGETS)
def test_a_slice_of_two_split_dims_on_a_2d_mesh(target):
    """x 8x16 [S0, S1] on the T3K's 2x4 mesh, x[1:7, 3:11]: rows over x (4 a device) become
    6 rows, 3 a device: [1, 4) held by x=0, [4, 7) by x=1, no row moves. Columns over y (4 a
    device) become 8 columns, 2 a device: [3, 5), [5, 7), [7, 9), [9, 11). y=0 lacks column 4
    (from y=1), y=1 holds [5, 7), y=2 lacks column 7 (from y=1), y=3 lacks [9, 11) (from y=2):
    4 columns x 3 rows x 4 B = 48 B a mesh row, one link each: 96 B. (Gathering both dims
    first moved 7 x 64 B into each of the 8 devices: 3,584 B.)"""
    text = """
func.func @main(%x: tensor<8x16xf32> {tt.sharding = #tt.sharding<[S0, S1]>}) -> (tensor<6x8xf32> {tt.sharding = #tt.sharding<[S0, S1]>}) {
  %y = "ttir.slice"(%x) {begins = [1 : i32, 3 : i32], ends = [7 : i32, 11 : i32], step = [1 : i32, 1 : i32]} : (tensor<8x16xf32>) -> tensor<6x8xf32>
  return %y : tensor<6x8xf32>
}
"""
    x = RNG.standard_normal((8, 16)).astype(np.float32)
    got = _run(text, {"x": x}, target, "2,4")
    np.testing.assert_array_equal(got.outputs[0], x[1:7, 3:11])
    assert _halo_link_bytes(16, 4, (3, 11), 12, [0, 1, 2, 3]) == 48
    assert got.traffic.link_bytes == 2 * 48 < 8 * 7 * 64


# ----------------------------------------------------------------------------- concatenations


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("mesh, chips", [("4", [0, 1, 2, 3]), ("2,4", [0, 1, 2, 3])])
def test_a_concat_along_a_split_dim_gathers_no_operand(target, mesh, chips):
    """a 8x12 and b 8x20, [R, S-last-axis], joined along columns into 8x32 over 4 devices: a's
    pieces 3 columns, b's 5, the result's 8. Device j's result columns [8j, 8j + 8) come from
    where a's and b's pieces lie (the derivation counts every column a device lacks and the
    links from its holder); the operands are never gathered (that moved 3 x 8 x 8 x 4 B =
    768 B into each device)."""
    axis = "S1" if mesh == "2,4" else "S0"
    text = f"""
func.func @main(%a: tensor<8x12xf32> {{tt.sharding = #tt.sharding<[R, {axis}]>}}, %b: tensor<8x20xf32> {{tt.sharding = #tt.sharding<[R, {axis}]>}})
    -> (tensor<8x32xf32> {{tt.sharding = #tt.sharding<[R, {axis}]>}}) {{
  %c = "ttir.concat"(%a, %b) {{dim = 1 : si32}} : (tensor<8x12xf32>, tensor<8x20xf32>) -> tensor<8x32xf32>
  return %c : tensor<8x32xf32>
}}
"""
    a = RNG.standard_normal((8, 12)).astype(np.float32)
    b = RNG.standard_normal((8, 20)).astype(np.float32)
    got = _run(text, {"a": a, "b": b}, target, mesh)
    np.testing.assert_array_equal(got.outputs[0], np.concatenate([a, b], axis=1))
    # a is the window [0, 32) of itself, b the window [-12, 20); 32 B a column of 8 rows
    want = _halo_link_bytes(12, 4, (0, 32), 32, chips) + _halo_link_bytes(20, 4, (-12, 20), 32, chips)
    copies = 2 if mesh == "2,4" else 1  # the two mesh rows each move their own copy
    # by hand: device 0 needs [0, 8): a [0, 3) held, a [3, 6) from 1 (1 hop), a [6, 8) from 2
    # (2 hops); device 1 [8, 16): a [8, 9) from 2 (1), a [9, 12) from 3 (2), b [0, 4) from 0
    # (1 hop; device 1 holds b [5, 10)); device 2 [16, 24): b [4, 5) from 0 (2), b [5, 10) from
    # 1 (1), b [10, 12) held; device 3 [24, 32): b [12, 15) from 2 (1), b [15, 20) held.
    hand = 32 * (3 * 1 + 2 * 2 + 1 * 1 + 3 * 2 + 4 * 1 + 1 * 2 + 5 * 1 + 3 * 1)
    assert want == hand
    assert got.traffic.link_bytes == copies * hand
    assert got.traffic.link_bytes < copies * 4 * 768


def test_auto_shard_prices_the_windowed_moves():
    """ttir-auto-shard's cost of a slice and a concat along a split dim is their moves, the bytes
    the simulator delivers into the devices (the 1-D slice above: 124 columns x 16 B = 1,984 B),
    not a gather of the dim."""
    concat = """
func.func @main(%a: tensor<8x12xf32> {tt.sharding = #tt.sharding<[R, S0]>}, %b: tensor<8x20xf32> {tt.sharding = #tt.sharding<[R, S0]>})
    -> (tensor<8x32xf32> {tt.sharding = #tt.sharding<[R, S0]>}) {
  %c = "ttir.concat"(%a, %b) {dim = 1 : si32} : (tensor<8x12xf32>, tensor<8x20xf32>) -> tensor<8x32xf32>
  return %c : tensor<8x32xf32>
}
"""
    for text in (SLICE_1D, concat):
        module = meshc.compile(text, "tt-register-device{system=t3k mesh-shape=4}")
        f = next(o for o in module.walk() if o.name == "func.func")
        mesh = Mesh(tuple(module_device(module).mesh_shape))
        ins, outs = function_specs(f, mesh)
        predicted = estimate(f, mesh, ins, outs, propagate_function(f, mesh)).link_bytes
        assert predicted == _run(text, None, "ttnn", "4").traffic.delivered_bytes > 0


@pytest.mark.parametrize("target", TARGETS)
def test_a_concat_of_uneven_pieces(target):
    """a 4x10 and b 4x6 split over 4 devices along columns (torch.chunk: a 3, 3, 3, 1; b 2, 2, 2, 0)
    joined into 4x16 (4 a device). Device 0 needs [0, 4) and lacks a[3] (device 1, 1 hop); device
    1 lacks a[6, 8) (device 2, 1 hop); device 2 lacks a[9] (device 3, 1 hop) and b[0, 2) (device
    0, 2 hops); device 3 lacks b[2, 4) (device 1, 2 hops) and b[4, 6) (device 2, 1 hop):
    1 + 2 + 1 + 4 + 4 + 2 = 14 column-hops x 4 rows x 4 B = 224 link bytes."""
    text = """
func.func @main(%a: tensor<4x10xf32>, %b: tensor<4x6xf32>) -> (tensor<4x16xf32> {tt.sharding = #tt.sharding<[R, S0]>}) {
  %as = "ttir.sharding_constraint"(%a) {sharding = #tt.sharding<[R, S0]>} : (tensor<4x10xf32>) -> tensor<4x10xf32>
  %bs = "ttir.sharding_constraint"(%b) {sharding = #tt.sharding<[R, S0]>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %c = "ttir.concat"(%as, %bs) {dim = 1 : si32} : (tensor<4x10xf32>, tensor<4x6xf32>) -> tensor<4x16xf32>
  return %c : tensor<4x16xf32>
}
"""
    a = RNG.standard_normal((4, 10)).astype(np.float32)
    b = RNG.standard_normal((4, 6)).astype(np.float32)
    got = _run(text, {"a": a, "b": b}, target, "4")
    np.testing.assert_array_equal(got.outputs[0], np.concatenate([a, b], axis=1))
    chips = [0, 1, 2, 3]
    assert _halo_link_bytes(10, 4, (0, 16), 16, chips) + _halo_link_bytes(6, 4, (-10, 6), 16, chips) == 224
    assert got.traffic.link_bytes == 224


@pytest.mark.parametrize("target", TARGETS)
def test_partial_sums_on_an_uneven_placement_are_reduced_where_they_lie(target):
    """A matmul contracting a split K leaves partial sums; a slice of 5 of its 8 rows (split over
    x: pieces 3 and 2) keeps them split unevenly. Before this the partition recursed forever
    resharding such a value (also for a matmul's own uneven rows); now the partial sums are
    all-reduced on the padded buffers (a sum across devices keeps every real element exact) and
    then gathered. The K split sums in another order than numpy: within f32 rounding."""
    text = """
func.func @main(%a: tensor<8x16xf32> {tt.sharding = #tt.sharding<[S0, S1]>}, %w: tensor<16x8xf32> {tt.sharding = #tt.sharding<[S1, R]>}) -> tensor<5x8xf32> {
  %m = "ttir.matmul"(%a, %w) : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %s = "ttir.slice"(%m) {begins = [2 : i32, 0 : i32], ends = [7 : i32, 8 : i32], step = [1 : i32, 1 : i32]} : (tensor<8x8xf32>) -> tensor<5x8xf32>
  return %s : tensor<5x8xf32>
}
"""
    a = RNG.standard_normal((8, 16)).astype(np.float32)
    w = RNG.standard_normal((16, 8)).astype(np.float32)
    got = _run(text, {"a": a, "w": w}, target, "2,4")
    np.testing.assert_allclose(got.outputs[0], (a.astype(np.float64) @ w)[2:7], rtol=1e-5, atol=1e-5)
    assert any(o.name.endswith("all_reduce") for o in got.ops)
