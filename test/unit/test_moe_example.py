"""examples/moe_ep8.mlir on the golden (numpy) interpreter equals a single-device numpy MoE layer,
both as written (ttir.reshard run by its plan) and after reshard-to-collectives."""

from pathlib import Path

import numpy as np
import pytest
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.interpreters.func import FuncFunctions

import meshc
from meshc.dialects import ttir
from meshc.interp.common import Distributed, find_entry
from meshc.interp.ttir import golden_functions
from meshc.layout.moe import moe_dispatch, moe_reference, moe_route

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "moe_ep8.mlir"
MESH = (2, 2, 2)


def spmd_functions() -> InterpreterFunctions:
    """Interpreter entries for the issue-7 ops, through their `spmd` methods."""
    ns = {}
    for cls in (ttir.ReshardOp, ttir.AllSliceOp, ttir.MoeRouteOp, ttir.MoeDispatchOp, ttir.MoeCombineOp):
        def run(self, interpreter, op, args):
            res = op.spmd(list(args), MESH)
            return tuple(Distributed(r) if isinstance(r, list) else r for r in res)
        ns[f"run_{cls.__name__}"] = impl(cls)(run)
    return register_impls(type("SpmdFunctions", (InterpreterFunctions,), ns))()


def interpret(module, inputs):
    interp = Interpreter(module)
    interp.register_implementations(FuncFunctions())
    interp.register_implementations(golden_functions(MESH))
    interp.register_implementations(spmd_functions())
    (out,) = interp.call_op(find_entry(module, None), tuple(inputs))
    return np.asarray(out)


def softmax(z, axis):
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def reference(x, wq, wk, wv, wo, wr, we):
    q, k, v = x @ wq, x @ wk, x @ wv
    h = x + (softmax(q @ k.transpose(0, 2, 1), -1) @ v) @ wo
    return h + moe_reference(h, wr, we, k=2, capacity=2, dp=2)


@pytest.fixture(scope="module")
def inputs():
    rng = np.random.default_rng(7)
    x = rng.normal(size=(2, 4, 8)).astype(np.float32)
    ws = [(rng.normal(size=(8, 8)) / 3).astype(np.float32) for _ in range(5)]
    we = rng.normal(size=(8, 8, 8)).astype(np.float32)
    return [x, *ws, we]


def test_inputs_make_the_capacity_drop_something(inputs):
    x, wq, wk, wv, wo, wr, _ = [a.astype(np.float64) for a in inputs]
    q, k, v = x @ wq, x @ wk, x @ wv
    h = x + (softmax(q @ k.transpose(0, 2, 1), -1) @ v) @ wo
    experts, _ = moe_route(h @ wr, 2)
    assert moe_dispatch(h, experts, 8, 2, dp=2).dropped.any()


@pytest.mark.parametrize("lowered", [False, True], ids=["reshard", "collectives"])
def test_example_equals_single_device_numpy(inputs, lowered):
    text = EXAMPLE.read_text()
    module = meshc.compile(text, "reshard-to-collectives") if lowered else meshc.parse(text)
    if lowered:
        assert not any(isinstance(o, ttir.ReshardOp) for o in module.walk())
    got = interpret(module, inputs)
    want = reference(*[a.astype(np.float64) for a in inputs])
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
