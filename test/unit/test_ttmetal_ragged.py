"""TTMetal runs softmax, reductions, elementwise broadcasts and batched matmuls on a ragged row (or
column) count: a dim whose layout grid splits its tiles but not its elements (100 rows, 784
columns, the 13-row shards of 100 rows over 8 devices), on the most cores, at most the layout
grid's, that split its elements evenly (convert_ttir_to_ttmetal_kernel.even_grid; one core when
none from 2 up does), and softmax over any dim. Every result is compared
with numpy (float64, the f32 tolerance), the program grids with the rule, and one program's bytes
with a hand count over its buffers' placement."""

from __future__ import annotations

import numpy as np
import pytest

import meshc
from meshc.interp.common import find_entry
from meshc.layout.memory_plan import plan_memory
from meshc.passes.ttmetal_optimize_memory import chip_cores, program_of
from meshc.passes.ttnn_check_l1 import device_buffers, module_l1

RTOL, ATOL = 2e-6, 1e-6  # f32: the kernel sums in another order than numpy


def _t(shape) -> str:
    return "tensor<" + "".join(f"{n}x" for n in shape) + "f32>"


def _program(arg: tuple[int, ...], body: str, out: tuple[int, ...], sharding: str | None = None) -> str:
    attr = f" {{tt.sharding = #tt.sharding<{sharding}>}}" if sharding else ""
    return (f"func.func @main(%x: {_t(arg)}{attr}) -> {_t(out)} {{\n  %0 = {body}\n"
            f"  return %0 : {_t(out)}\n}}\n")


def _softmax_np(x: np.ndarray, d: int) -> np.ndarray:
    e = np.exp(x - x.max(axis=d, keepdims=True))
    return e / e.sum(axis=d, keepdims=True)


REDUCE = {"sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min}


def _reduce(kind: str, shape, d: int, keep: bool, sharding=None) -> tuple[str, np.ndarray]:
    out = list(shape)
    if keep:
        out[d] = 1
    else:
        out.pop(d)
    body = (f'"ttir.{kind}"(%x) {{dim_arg = [{d} : i32], keep_dim = {str(keep).lower()}}} : '
            f"({_t(shape)}) -> {_t(out)}")
    return _program(tuple(shape), body, tuple(out), sharding), out


def _softmax(shape, d: int, sharding=None) -> str:
    body = f'"ttir.softmax"(%x) {{dimension = {d} : si32}} : ({_t(shape)}) -> {_t(shape)}'
    return _program(tuple(shape), body, tuple(shape), sharding)


def _x(shape, seed=3) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-4, 4, shape).astype(np.float32)


def _grids(text: str, pipeline: str) -> list[tuple[int, int]]:
    module = meshc.lower(meshc.parse(text), pipeline, "ttmetal")
    return [tuple(p.core_grid()) for p in module.walk() if p.name == "ttmetal.enqueue_program"]


MESHES = [
    ("ttir-to-ttmetal-pipeline", None),
    ("ttir-to-ttmetal-pipeline{mesh-shape=2,4}", "S01"),  # 100 rows: shards of 13, the last 9
    ("ttir-to-ttmetal-pipeline{mesh-shape=1,8}", "S1"),
]


@pytest.mark.parametrize("pipeline,axis", MESHES)
@pytest.mark.parametrize("shape,row_dim", [((100, 784), 0), ((3, 100, 64), 1)])
def test_softmax_over_every_dim(pipeline, axis, shape, row_dim):
    x = _x(shape)
    sharding = None if axis is None else "[" + ", ".join(axis if i == row_dim else "R" for i in range(len(shape))) + "]"
    for d in range(len(shape)):
        got = meshc.run(_softmax(shape, d, sharding), {"x": x}, target="ttmetal", pipeline=pipeline).outputs[0]
        np.testing.assert_allclose(got, _softmax_np(x.astype(np.float64), d), rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("pipeline,axis", MESHES)
@pytest.mark.parametrize("shape,row_dim", [((100, 784), 0), ((3, 100, 64), 1)])
@pytest.mark.parametrize("kind", sorted(REDUCE))
def test_reductions_over_every_dim_kept_and_dropped(pipeline, axis, shape, row_dim, kind):
    x = _x(shape)
    sharding = None if axis is None else "[" + ", ".join(axis if i == row_dim else "R" for i in range(len(shape))) + "]"
    for d in range(len(shape)):
        for keep in (True, False):
            text, out = _reduce(kind, shape, d, keep, sharding)
            got = meshc.run(text, {"x": x}, target="ttmetal", pipeline=pipeline).outputs[0]
            want = REDUCE[kind](x.astype(np.float64), axis=d, keepdims=keep)
            assert got.shape == tuple(out)
            np.testing.assert_allclose(got, want, rtol=RTOL, atol=1e-4 if kind == "sum" else ATOL)


def _add(shape) -> str:
    body = f'"ttir.add"(%x, %x) : ({_t(shape)}, {_t(shape)}) -> {_t(shape)}'
    return _program(tuple(shape), body, tuple(shape))


def test_ragged_rows_and_columns_run_on_the_cores_that_divide_them():
    single = "ttir-to-ttmetal-pipeline"
    # 784 columns are 25 tiles over 5 cores (blocks of 160, the last 144); 784 = 2^4 x 7^2, whose
    # divisors up to 5 are 1, 2 and 4: 4 cores of 196 columns
    assert _grids(_reduce("sum", (100, 784), 0, True)[0], single) == [(1, 4)]
    assert _grids(_softmax((100, 784), 0), single) == [(1, 4)]
    # an elementwise op on the layout's 2x5 grid (64 rows: 2 tiles, even): 2x4
    assert _grids(_add((64, 784)), single) == [(2, 4)]
    # 13 rows a device (100 over 8): 3x13 = 39 rows, 2 tiles over 2 cores; 39 = 3 x 13 has no
    # divisor 2: one core
    mesh = "ttir-to-ttmetal-pipeline{mesh-shape=2,4}"
    assert _grids(_softmax((3, 100, 64), 2, "[R, S01, R]"), mesh) == [(1, 1)]
    assert _grids(_reduce("sum", (3, 100, 64), 2, True, "[R, S01, R]")[0], mesh) == [(1, 1)]
    # even rows keep their cores: 64x128 over a 2-row grid, 2 row blocks of 32
    assert _grids(_softmax((64, 128), 1), single) == [(2, 1)]
    assert _grids(_softmax((64, 128), 0), single) == [(1, 4)]


def test_elementwise_on_ragged_columns_against_numpy():
    x = _x((64, 784))
    got = meshc.run(_add((64, 784)), {"x": x}, target="ttmetal", pipeline="ttir-to-ttmetal-pipeline").outputs[0]
    np.testing.assert_array_equal(got, x + x)


def test_each_core_reads_every_page_part_it_does_not_hold():
    """sum over dim 0 of a 100x784 f32 host argument, kept, on 1x4 cores of 196 columns: together
    they read the whole DRAM-interleaved operand (100 x 784 x 4 B over the NoC, from the banks)
    and write the 1x784 row into the result, block-sharded 32x160 over cores (0, 0)-(0, 4) (4 B
    an element of an f32 32x32 tile). Core x writes columns [196x, 196x + 196) and holds
    [160x, 160x + 160): it keeps 160, 124, 88 and 52 of its 196 columns, so 36 + 72 + 108 + 144
    = 360 columns cross the NoC."""
    text, _ = _reduce("sum", (100, 784), 0, True)
    x = _x((100, 784))
    r = meshc.run(text, {"x": x}, target="ttmetal", pipeline="ttir-to-ttmetal-pipeline{optimize-memory=false}")
    program, = [o for o in r.ops if o.name == "ttmetal.enqueue_program"]
    read = 100 * 784 * 4
    write = (36 + 72 + 108 + 144) * 4
    assert program.traffic.noc_bytes == read + write
    assert sum(program.traffic.dram_read.values()) == read
    np.testing.assert_allclose(r.outputs[0], x.astype(np.float64).sum(axis=0, keepdims=True), rtol=RTOL, atol=1e-4)


def test_a_mask_broadcast_inside_the_rows_runs_on_one_core():
    """max over an uneven split (100 rows over 8 devices, padded to 13 a device): ttir-partition
    masks the padding with a where whose [1, 13, 1] condition is neither a row, a column nor a
    scalar of the [3, 13, 64] result; one core broadcasts it whole."""
    text, _ = _reduce("max", (3, 100, 64), 1, False, "[R, S01, R]")
    pipeline = "ttir-to-ttmetal-pipeline{mesh-shape=2,4}"
    module = meshc.lower(meshc.parse(text), pipeline, "ttmetal")
    where = [p for p in module.walk() if p.name == "ttmetal.enqueue_program"
             and any(o.name == "ttmetal.tile_where" for o in p.walk())]
    assert [tuple(p.core_grid()) for p in where] == [(1, 1)]
    assert any(o.name == "ttmetal.tile_broadcast" for o in where[0].walk())
    x = _x((3, 100, 64))
    got = meshc.run(text, {"x": x}, target="ttmetal", pipeline=pipeline).outputs[0]
    np.testing.assert_array_equal(got, x.max(axis=1))


@pytest.mark.parametrize("pipeline,sa,sb", [
    ("ttir-to-ttmetal-pipeline", None, None),
    ("ttir-to-ttmetal-pipeline{mesh-shape=2,4}", "[R, S01, R]", "[R, R, R]"),
    ("ttir-to-ttmetal-pipeline{mesh-shape=1,8}", "[R, S1, R]", "[R, R, R]"),
])
def test_batched_matmul_on_a_ragged_row_count(pipeline, sa, sb):
    a_t, b_t, o_t = _t((3, 100, 64)), _t((3, 64, 48)), _t((3, 100, 48))
    attr = lambda s: f" {{tt.sharding = #tt.sharding<{s}>}}" if s else ""  # noqa: E731
    text = (f"func.func @main(%a: {a_t}{attr(sa)}, %b: {b_t}{attr(sb)}) -> {o_t} {{\n"
            f'  %0 = "ttir.matmul"(%a, %b) : ({a_t}, {b_t}) -> {o_t}\n  return %0 : {o_t}\n}}\n')
    a, b = _x((3, 100, 64), 1), _x((3, 64, 48), 2)
    got = meshc.run(text, {"a": a, "b": b}, target="ttmetal", pipeline=pipeline).outputs[0]
    np.testing.assert_allclose(got, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5, atol=1e-4)
    # a batch element a core: 3 batches, 3 rows of cores at most (the gcd with the grid's side)
    assert all(g[1] == 1 and 3 % g[0] == 0 for g in _grids(text, pipeline)[-1:])


@pytest.mark.parametrize("a_shape,b_shape,flags", [
    ((100, 64), (3, 64, 48), ()),  # a has no batch dims, b has 3
    ((1, 100, 64), (3, 64, 48), ()),  # a's batch of 1 broadcast
    ((2, 1, 100, 64), (1, 3, 64, 48), ()),  # both broadcast: a 2x3 batch
    ((3, 64, 100), (64, 48), ("transpose_a",)),  # a transposed with batch dims, b 2-d
    ((100, 64), (3, 48, 64), ("transpose_b",)),
])
def test_matmul_with_broadcast_batch_dims_runs_on_one_core(a_shape, b_shape, flags):
    a, b = _x(a_shape, 1), _x(b_shape, 2)
    an = np.swapaxes(a, -1, -2) if "transpose_a" in flags else a
    bn = np.swapaxes(b, -1, -2) if "transpose_b" in flags else b
    want = an.astype(np.float64) @ bn.astype(np.float64)
    attrs = " {" + ", ".join(f"{f} = true" for f in flags) + "}" if flags else ""
    text = (f"func.func @main(%a: {_t(a_shape)}, %b: {_t(b_shape)}) -> {_t(want.shape)} {{\n"
            f'  %0 = "ttir.matmul"(%a, %b){attrs} : ({_t(a_shape)}, {_t(b_shape)}) -> {_t(want.shape)}\n'
            f"  return %0 : {_t(want.shape)}\n}}\n")
    got = meshc.run(text, {"a": a, "b": b}, target="ttmetal", pipeline="ttir-to-ttmetal-pipeline").outputs[0]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)
    assert _grids(text, "ttir-to-ttmetal-pipeline") == [(1, 1)]


def test_broadcast_matmul_on_an_uneven_row_split():
    """100 rows of a 2-d a split over the 8 devices of a 2x4 mesh (13 a device), times a batched b."""
    a_t, b_t, o_t = _t((100, 64)), _t((3, 64, 48)), _t((3, 100, 48))
    text = (f"func.func @main(%a: {a_t} {{tt.sharding = #tt.sharding<[S01, R]>}}, %b: {b_t}) -> {o_t} {{\n"
            f'  %0 = "ttir.matmul"(%a, %b) : ({a_t}, {b_t}) -> {o_t}\n  return %0 : {o_t}\n}}\n')
    a, b = _x((100, 64), 1), _x((3, 64, 48), 2)
    got = meshc.run(text, {"a": a, "b": b}, target="ttmetal",
                    pipeline="ttir-to-ttmetal-pipeline{mesh-shape=2,4}").outputs[0]
    np.testing.assert_allclose(got, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5, atol=1e-4)


RAGGED = {
    "sum_784_cols": (_reduce("sum", (100, 784), 0, True)[0], "ttir-to-ttmetal-pipeline"),
    "softmax_784_cols": (_softmax((100, 784), 0), "ttir-to-ttmetal-pipeline"),
    "add_784_cols": (_add((64, 784)), "ttir-to-ttmetal-pipeline"),
    "softmax_39_rows": (_softmax((3, 100, 64), 2, "[R, S01, R]"), "ttir-to-ttmetal-pipeline{mesh-shape=2,4}"),
    "max_uneven_mask": (_reduce("max", (3, 100, 64), 1, False, "[R, S01, R]")[0],
                        "ttir-to-ttmetal-pipeline{mesh-shape=2,4}"),
}


@pytest.mark.parametrize("name", sorted(RAGGED))
def test_the_memory_plans_times_of_ragged_programs_are_the_simulators(name):
    """The TTMetal memory optimizer prices these ragged programs with the block traffic the
    simulator counts (meshc/layout/kernel_traffic.py): op by op, the same seconds."""
    text, pipeline = RAGGED[name]
    module = meshc.compile(meshc.parse(text), pipeline)
    block = find_entry(module, None).body.blocks.first
    arch, capacity = module_l1(module)
    tensors, ops = program_of(device_buffers(block), block, arch, chip_cores(module))
    for t in tensors:
        t.fixed = "as lowered"
    plan = plan_memory(tensors, ops, arch, capacity)
    sim = meshc.run(module, seed=0).ops
    assert len(sim) == len(ops)
    for s, record in zip(plan.op_seconds, sim):
        assert s == pytest.approx(record.time.device_s, rel=1e-9, abs=1e-15), record.name
