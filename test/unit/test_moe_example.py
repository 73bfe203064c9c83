"""examples/moe_ep8.mlir on the golden (numpy) interpreter equals a single-device numpy MoE layer,
both as written (ttir.reshard run by its plan) and after reshard-to-collectives (its two reshards
become ttir.point_to_point), and on the simulator through ttir-to-ttnn-pipeline, where the bytes
each reshard delivers equal the lower bound."""

from pathlib import Path

import numpy as np
import pytest
from xdsl.interpreter import Interpreter

import meshc
from meshc.dialects import ttir
from meshc.interp.common import find_entry
from meshc.interp.func import FuncFunctions
from meshc.interp.ttir import golden_functions
from meshc.layout.moe import moe_dispatch, moe_reference, moe_route

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "moe_ep8.mlir"
MESH = (2, 2, 2)


def interpret(module, inputs):
    interp = Interpreter(module)
    interp.register_implementations(FuncFunctions())
    interp.register_implementations(golden_functions(MESH))
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


@pytest.mark.parametrize("lowered", [False, True], ids=["reshard", "lowered"])
def test_example_equals_single_device_numpy(inputs, lowered):
    text = EXAMPLE.read_text()
    module = meshc.compile(text, "reshard-to-collectives") if lowered else meshc.parse(text)
    if lowered:
        assert not any(isinstance(o, ttir.ReshardOp) for o in module.walk())
        assert sum(isinstance(o, ttir.PointToPointOp) for o in module.walk()) == 2
    got = interpret(module, inputs)
    want = reference(*[a.astype(np.float64) for a in inputs])
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


# ---- on the simulator (ttir-to-ttnn-pipeline, a t3k: device i on chip i of its 2x4 chip mesh) ----

# The two reshards of the example, bounds by hand (f32, 4 B an element):
# to EP: the [E=8, G=2, C=2, M=8] tensor; a device holds every expert's slots of its DP row and
#   its TP half of M (8 x 1 x 2 x 4 = 64 elements) and needs expert e's slots of both rows, all
#   of M (1 x 2 x 2 x 8 = 32); it holds 1 x 1 x 2 x 4 = 8 of those: 8 devices x 24 x 4 B = 768 B.
# back: a device holds expert e's 32 elements and needs 64 (every expert, its DP row, its TP half
#   of N), of which it holds 8: 8 devices x 56 x 4 B = 1,792 B.
BOUNDS = [768, 1792]


def t3k_hops(a: int, b: int) -> int:
    """Ethernet hops between chips of the t3k's 2x4 chip mesh (no wrap-around): Manhattan distance."""
    return abs(a // 4 - b // 4) + abs(a % 4 - b % 4)


def test_example_on_the_simulator(inputs):
    from meshc.dialects import ttnn
    from meshc import lower, run
    from meshc.layout.reshard import lower_bound_bytes, plan_reshard
    from meshc.layout.system import system

    module = meshc.parse(EXAMPLE.read_text())
    lowered = lower(module)
    p2p = [o for o in lowered.walk() if isinstance(o, ttnn.PointToPointOp)]
    assert len(p2p) == 2
    for op, bound in zip(p2p, BOUNDS):
        src, tgt = op.specs()
        assert lower_bound_bytes(op.global_shape(), "f32", src, tgt) == bound
    res = run(lowered, inputs)
    assert res.system.num_chips == 8 and tuple(res.system.mesh_shape) == (2, 4)
    want = reference(*[a.astype(np.float64) for a in inputs])
    np.testing.assert_allclose(res.outputs[0], want, rtol=1e-4, atol=1e-4)
    golden = run(module, inputs, mode="golden")
    np.testing.assert_allclose(res.outputs[0], golden.outputs[0], rtol=1e-5, atol=1e-5)
    recs = [o for o in res.ops if o.name == "ttnn.point_to_point"]
    assert [r.traffic.delivered_bytes for r in recs] == BOUNDS
    for op, rec in zip(p2p, recs):  # each transfer's bytes on every link of its route
        hop_bytes = sum(4 * np.prod([r[4 + 2 * k] - r[3 + 2 * k] for k in range(4)]) * t3k_hops(r[1], r[2])
                        for r in op.rows())
        assert rec.traffic.link_bytes == hop_bytes
        src, tgt = op.specs()  # the pass planned on the t3k's links, as the simulator routes them
        assert hop_bytes == plan_reshard(op.global_shape(), "f32", src, tgt, system=system("t3k")).link_hop_bytes
        assert rec.traffic.link_bytes > rec.traffic.delivered_bytes  # some moves cross two links
    # the MoE steps themselves move nothing between chips
    assert all(r.traffic.link_bytes == 0 for r in res.ops if r.name.startswith("ttnn.moe_"))
