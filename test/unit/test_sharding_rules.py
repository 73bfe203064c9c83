"""meshc.layout.sharding_rules on numpy: every rule's shardings compute the global op.

For random operand shardings, the rule proposes result shardings and requires operand
shardings; each device then runs the op on its own pieces (local shapes) and the pieces,
gathered (partial sums added), must be the op on the whole tensors. The golden value is numpy
on the global tensors; the pieces come from `from_global`, which test_sharding_spec.py checks.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meshc.layout.errors import LayoutError
from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.sharding_rules import OpInfo, local_shape, replicated, rule_for
from meshc.layout.sharding_spec import from_global, to_global

MESHES = [Mesh((2, 2)), Mesh((2, 4)), Mesh((4,)), Mesh((2, 2, 2))]


def _softmax(x, d):
    e = np.exp(x - x.max(axis=d, keepdims=True))
    return e / e.sum(axis=d, keepdims=True)


def _matmul(a, b, ta, tb):
    if ta:
        a = np.swapaxes(a, -1, -2)
    if tb:
        b = np.swapaxes(b, -1, -2)
    return a @ b


# kind -> (operand shapes, result shape, attrs, numpy fn(operands, result shape))
CASES = {
    "add": ([(8, 16), (1, 16)], (8, 16), {}, lambda xs, s: xs[0] + xs[1]),
    "multiply": ([(4, 8, 16), (8, 16)], (4, 8, 16), {}, lambda xs, s: xs[0] * xs[1]),
    "where": ([(8, 16), (1, 16), (8, 1)], (8, 16), {}, lambda xs, s: np.where(xs[0] > 0, xs[1], xs[2])),
    "relu": ([(8, 16)], (8, 16), {}, lambda xs, s: np.maximum(xs[0], 0)),
    "matmul": ([(8, 16), (16, 8)], (8, 8), {}, lambda xs, s: xs[0] @ xs[1]),
    "matmul_t": ([(16, 8), (8, 16)], (8, 8), {"transpose_a": True, "transpose_b": True},
                 lambda xs, s: _matmul(xs[0], xs[1], True, True)),
    "matmul_batched": ([(4, 8, 16), (16, 8)], (4, 8, 8), {}, lambda xs, s: xs[0] @ xs[1]),
    # tt-mlir's linear: matmul + bias; with a bias the contracting dim may not be left split
    "linear": ([(8, 16), (16, 8), (8,)], (8, 8), {}, lambda xs, s: xs[0] @ xs[1] + xs[2]),
    "linear_nobias": ([(8, 16), (16, 8)], (8, 8), {}, lambda xs, s: xs[0] @ xs[1]),
    "linear_t": ([(16, 8), (8, 16), (1, 8)], (8, 8), {"transpose_a": True, "transpose_b": True},
                 lambda xs, s: _matmul(xs[0], xs[1], True, True) + xs[2]),
    "linear_batched": ([(4, 8, 16), (16, 8), (8, 1)], (4, 8, 8), {}, lambda xs, s: xs[0] @ xs[1] + xs[2]),
    "linear_widebias": ([(8, 16), (16, 8), (2, 1, 8)], (2, 8, 8), {}, lambda xs, s: xs[0] @ xs[1] + xs[2]),
    "sum": ([(8, 16)], (16,), {"dims": (0,), "keep_dim": False}, lambda xs, s: xs[0].sum(axis=0)),
    "sum_keep": ([(8, 16)], (8, 1), {"dims": (1,), "keep_dim": True}, lambda xs, s: xs[0].sum(axis=1, keepdims=True)),
    "max": ([(8, 16)], (8,), {"dims": (1,), "keep_dim": False}, lambda xs, s: xs[0].max(axis=1)),
    "softmax": ([(8, 16)], (8, 16), {"dim": 1}, lambda xs, s: _softmax(xs[0], 1)),
    "transpose": ([(8, 16)], (16, 8), {"permutation": (1, 0)}, lambda xs, s: xs[0].T),
    "permute": ([(4, 8, 16)], (16, 4, 8), {"permutation": (2, 0, 1)}, lambda xs, s: xs[0].transpose(2, 0, 1)),
    "reshape": ([(8, 16)], (2, 4, 4, 4), {}, lambda xs, s: xs[0].reshape(s)),
    "reshape_merge": ([(4, 4, 16)], (16, 16), {}, lambda xs, s: xs[0].reshape(s)),
    "broadcast": ([(8, 1)], (8, 16), {}, lambda xs, s: np.broadcast_to(xs[0], s)),
    "concat": ([(8, 16), (8, 16)], (16, 16), {"dim": 0}, lambda xs, s: np.concatenate(xs, axis=0)),
}


def _kind(name: str) -> str:
    return name.split("_")[0]


def _random_spec(draw, mesh: Mesh, shape) -> ShardingSpec:
    axes = list(range(mesh.rank))
    dims: list[list[int]] = [[] for _ in shape]
    for a in axes:
        d = draw(st.integers(-1, len(shape) - 1))
        if d >= 0:
            dims[d].append(a)
    spec = ShardingSpec(mesh, tuple(tuple(d) for d in dims))
    return spec if spec.is_even(tuple(shape)) else replicated(mesh, len(shape))


@st.composite
def cases(draw):
    name = draw(st.sampled_from(sorted(CASES)))
    mesh = draw(st.sampled_from(MESHES))
    shapes, out, attrs, fn = CASES[name]
    specs = {i: _random_spec(draw, mesh, s) for i, s in enumerate(shapes)}
    which = draw(st.sampled_from(["merge"] + [f"propose{i}" for i in range(len(shapes))] + ["require"]))
    return name, mesh, shapes, out, attrs, fn, specs, which, draw(st.integers(0, 2**31 - 1))


def _run(name, mesh, shapes, out, attrs, fn, specs, which, seed):
    info = OpInfo(_kind(name), tuple(map(tuple, shapes)), (tuple(out),), attrs)
    rule = rule_for(info)
    if which == "merge":
        results = rule.merge(specs)
    elif which == "require":
        results = (_random_result(rule, mesh, out, seed),)
    else:
        i = int(which[len("propose"):])
        results = rule.propose(i, specs[i])
    assert results is not None
    required = rule.require(results)
    if which != "require":
        assert required is not None, f"{name}: the proposal {results[0]} is not computable"
    if required is None:
        return None
    if any(f.kind in ("window", "scan", "select") and any(d is not None and spec.dims[d]
                                                          for d, spec in zip(f.operand_dims, required))
           for f in rule.factors):
        # a split window / scan / select dim is not the op on each device's pieces: ttir-partition
        # moves or gathers for it (test_sharded_window.py, test_sharded_select.py check those)
        return results, required
    rng = np.random.default_rng(seed)
    xs = [rng.standard_normal(s) for s in shapes]
    golden = fn(xs, tuple(out))
    pieces = [from_global(x, spec) for x, spec in zip(xs, required)]
    res = results[0]
    local_out = local_shape(tuple(out), res)
    devices = mesh.coords()
    local = {c: fn([p[c] for p in pieces], local_out) for c in devices}
    for c in devices:
        assert local[c].shape == local_out
    np.testing.assert_allclose(to_global(local, res), golden, rtol=1e-9, atol=1e-9)
    return results, required


def _random_result(rule, mesh, out, seed):
    rng = np.random.default_rng(seed)
    dims: list[list[int]] = [[] for _ in out]
    for a in range(mesh.rank):
        d = int(rng.integers(-1, len(out)))
        if d >= 0:
            dims[d].append(a)
    spec = ShardingSpec(mesh, tuple(tuple(d) for d in dims))
    return spec if spec.is_even(tuple(out)) else replicated(mesh, len(out))


@settings(max_examples=300, deadline=None)
@given(cases())
def test_rule_shardings_compute_the_global_op(case):
    _run(*case)


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_case_replicated_is_the_op(name):
    shapes, out, attrs, fn = CASES[name]
    mesh = Mesh((2, 2))
    specs = {i: replicated(mesh, len(s)) for i, s in enumerate(shapes)}
    results, required = _run(name, mesh, shapes, out, attrs, fn, specs, "merge", 0)
    assert results == (replicated(mesh, len(out)),)
    assert all(r == replicated(mesh, len(s)) for r, s in zip(required, shapes))


def test_matmul_contracting_dim_gives_partial_sums():
    mesh = Mesh((2, 4))
    rule = rule_for(OpInfo("matmul", ((8, 16), (16, 8)), ((8, 8),)))
    a = ShardingSpec(mesh, ((0,), (1,)))
    (res,) = rule.propose(0, a)
    assert res == ShardingSpec(mesh, ((0,), ()), partial=(1,))
    assert rule.require((res,)) == (a, ShardingSpec(mesh, ((1,), ())))


def test_refusals():
    mesh = Mesh((2, 4))
    soft = rule_for(OpInfo("softmax", ((8, 16),), ((8, 16),), {"dim": 1}))
    assert soft.require((ShardingSpec(mesh, ((), (1,))),)) is None  # its dim stays whole
    assert soft.propose(0, ShardingSpec(mesh, ((0,), (1,)))) == (ShardingSpec(mesh, ((0,), ())),)
    mx = rule_for(OpInfo("max", ((8, 16),), ((8,),), {"dims": (1,), "keep_dim": False}))
    assert mx.require((ShardingSpec(mesh, ((0,),), partial=(1,)),)) is None  # max is no sum
    relu = rule_for(OpInfo("relu", ((8, 16),), ((8, 16),)))
    assert relu.require((ShardingSpec(mesh, ((0,), ()), partial=(1,)),)) is None  # relu is not linear
    add = rule_for(OpInfo("add", ((8, 16), (8, 16)), ((8, 16),)))
    p = ShardingSpec(mesh, ((0,), ()), partial=(1,))
    assert add.require((p,)) == (p, p)  # a sum of partial sums, addend by addend
    # 6 rows in 4: relu and a matmul's M compute on the padded pieces (test_uneven_sharding.py);
    # a matmul's K of 10 in 4 is split only evenly (the padding would be summed)
    rows = ShardingSpec(mesh, ((1,), ()))
    assert rule_for(OpInfo("relu", ((6, 16),), ((6, 16),))).propose(0, rows) == (rows,)
    mm = rule_for(OpInfo("matmul", ((6, 10), (10, 8)), ((6, 8),)))
    assert mm.propose(0, rows) == (rows,)
    assert mm.propose(0, ShardingSpec(mesh, ((), (1,)))) == (replicated(mesh, 2),)
    with pytest.raises(LayoutError, match="no sharding rule for 'ttir.frobnicate'"):
        rule_for(OpInfo("frobnicate", ((2,),), ((2,),)))
    assert local_shape((6, 16), rows) == (2, 16)  # ceil(6 / 4): the padded buffer
