"""MoE reference semantics against the MoE resharding notes' walk-through (its tables are copied here as golden text)."""

import numpy as np
import pytest

from meshc.layout.errors import LayoutError
from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.moe import (moe_combine, moe_dispatch, moe_reference, moe_route, placement_tree,
                              seed_dispatch_table)
from meshc.layout.reshard import execute_plan, plan_reshard

ATT = Mesh((2, 2, 2), ("DP", "CP", "TP"))
EP = Mesh((8,), ("EP",))
NAMES = np.array([["a", "b"], ["A", "B"]])  # batch row, sequence position
# the MoE resharding notes' routing table: token -> (expert 1, expert 2)
ROUTE = np.array([[[0, 1], [0, 2]], [[2, 3], [4, 5]]])

SEED_TABLE = """\
| | E0 | E1 | E2 | E3 | E4 | E5 | E6 | E7 |
|---|---|---|---|---|---|---|---|---|
| B/DP=0 | a'0\\|a'1 | a'0\\|a'1 | b'0\\|b'1 | — | — | — | — | — |
| B/DP=1 | — | — | A'0\\|A'1 | A'0\\|A'1 | B'0\\|B'1 | B'0\\|B'1 | — | — |""".splitlines()

SEED_TREE_ATTENTION = """\
├── E=0
│   ├── B/DP=0
│   │   ├── M=0: a'0  [Device 0, 2]
│   │   └── M=1: a'1  [Device 1, 3]
│   └── B/DP=1
│       ├── M=0: —    [Device 4, 6]
│       └── M=1: —    [Device 5, 7]
├── E=1
│   ├── B/DP=0
│   │   ├── M=0: a'0  [Device 0, 2]
│   │   └── M=1: a'1  [Device 1, 3]""".splitlines()

SEED_TREE_EP = """\
├── E/EP=0
│   ├── B=0
│   │   ├── M=0: a'0  [Device 0]
│   │   └── M=1: a'1  [Device 0]
│   └── B=1
│       ├── M=0: —    [Device 0]
│       └── M=1: —    [Device 0]
├── E/EP=1
│   ├── B=0
│   │   ├── M=0: a'0  [Device 1]
│   │   └── M=1: a'1  [Device 1]""".splitlines()


def seed_logits():
    """Logits whose top-2 is the MoE resharding notes' routing: 3 for the first choice, 2 for the second, 0 elsewhere."""
    logits = np.zeros((2, 2, 8))
    b, s = np.meshgrid(range(2), range(2), indexing="ij")
    logits[b, s, ROUTE[..., 0]] = 3.0
    logits[b, s, ROUTE[..., 1]] = 2.0
    return logits


def seed_tokens():
    """M = 2: token t is (t0, t1); codes 10*token + piece so every piece is recognisable."""
    codes = np.array([[1, 2], [3, 4]])  # a, b, A, B
    return np.stack([codes * 10, codes * 10 + 1], axis=-1).astype(np.float32)


def test_route_is_the_seeds_table():
    experts, weights = moe_route(seed_logits(), 2)
    np.testing.assert_array_equal(experts, ROUTE)
    # softmax over the two chosen logits 3 and 2
    np.testing.assert_allclose(weights[..., 0], np.exp(3) / (np.exp(3) + np.exp(2)))
    np.testing.assert_allclose(weights.sum(-1), 1.0)


def test_dispatch_drops_b_first_choice_and_draws_the_seed_table():
    d = moe_dispatch(seed_tokens(), ROUTE, num_experts=8, capacity=1, dp=2)
    # b' (batch 0, position 1) loses E0 to a' (a top-1 choice earlier in position); all else kept
    expected_dropped = np.zeros((2, 2, 2), dtype=bool)
    expected_dropped[0, 1, 0] = True
    np.testing.assert_array_equal(d.dropped, expected_dropped)
    assert seed_dispatch_table(d, NAMES, pieces=2) == SEED_TABLE
    # and the dispatched values are the tokens themselves
    x = seed_tokens()
    np.testing.assert_array_equal(d.dispatched[2, 0, 0], x[0, 1])  # b' on E2 for DP shard 0
    np.testing.assert_array_equal(d.dispatched[0, 1, 0], [0, 0])  # E0 empty for DP shard 1


def test_top1_before_top2_then_position():
    # capacity 1, one DP shard: token 0's top-2 and token 1's top-1 both want E1; top-1 wins
    experts = np.array([[[0, 1], [1, 2]]])
    d = moe_dispatch(np.ones((1, 2, 1)), experts, num_experts=3, capacity=1)
    np.testing.assert_array_equal(d.slot, [[[0, -1], [0, 0]]])
    # capacity 2: both get E1, token 1 (top-1) in slot 0, token 0 (top-2) in slot 1
    d = moe_dispatch(np.ones((1, 2, 1)), experts, num_experts=3, capacity=2)
    np.testing.assert_array_equal(d.slot, [[[0, 1], [0, 0]]])


def _tree(spec, shape, levels, d):
    def leaf(ix):
        e, g, c, m = ix
        if d.source[e, g, c, 0] < 0:
            return "—"
        return f"{NAMES[tuple(d.source[e, g, c])]}'{m}"
    return placement_tree(spec, shape, levels, leaf)


def test_device_trees_and_reshard_to_ep8():
    x = seed_tokens()
    d = moe_dispatch(x, ROUTE, num_experts=8, capacity=1, dp=2)
    shape = d.dispatched.shape  # [E=8, DP=2, C=1, M=2]
    att = ShardingSpec(ATT, ((), (0,), (), (2,)))  # [E, B/DP, C, M/TP], replicated over CP
    ep = ShardingSpec(EP, ((0,), (), (), ()))  # [E/EP, B, C, M]
    tree = _tree(att, shape, [(0, "E"), (1, "B/DP"), (3, "M")], d)
    assert tree[:len(SEED_TREE_ATTENTION)] == SEED_TREE_ATTENTION
    tree = _tree(ep, shape, [(0, "E/EP"), (1, "B"), (3, "M")], d)
    assert tree[:len(SEED_TREE_EP)] == SEED_TREE_EP

    plan = plan_reshard(shape, "f32", att, ep)
    shards = [d.dispatched[att.local_slices(shape, ATT.coord_of(dev))] for dev in range(8)]
    out = execute_plan(plan, shards)
    for e in range(8):  # device e holds expert e's rows, all of them
        np.testing.assert_array_equal(out[e], d.dispatched[e:e + 1])
    # each device lacks 3 of its 4 elements (2 DP rows x 2 M pieces): 8 x 3 x 4 B
    assert plan.delivered_bytes == plan.lower_bound_bytes == 96


def test_combine_sums_weighted_outputs_and_dropped_adds_zero():
    x = seed_tokens()
    experts, weights = moe_route(seed_logits(), 2)
    d = moe_dispatch(x, experts, num_experts=8, capacity=1, dp=2)
    scale = np.arange(1, 9, dtype=np.float32)[:, None, None, None]  # expert e multiplies by e + 1
    y = moe_combine(d.dispatched * scale, experts, weights, d.slot, dp=2)
    w1, w2 = weights[0, 0]
    np.testing.assert_allclose(y[0, 0], x[0, 0] * (1 * w1 + 2 * w2), rtol=1e-6)  # a: E0, E1
    np.testing.assert_allclose(y[0, 1], x[0, 1] * (3 * w2), rtol=1e-6)  # b: E0 dropped, E2
    np.testing.assert_allclose(y[1, 1], x[1, 1] * (5 * w1 + 6 * w2), rtol=1e-6)  # B: E4, E5


def test_reference_layer_without_drops_is_a_dense_mixture():
    # with capacity for every token, the layer equals sum_j w_j * (x @ W_{e_j}) computed densely
    rng = np.random.default_rng(3)
    x, router, w = rng.normal(size=(4, 3, 5)), rng.normal(size=(5, 6)), rng.normal(size=(6, 5, 7))
    y = moe_reference(x, router, w, k=2, capacity=12, dp=2)
    logits = x @ router
    top = np.argsort(-logits, axis=-1)[..., :2]
    z = np.exp(np.take_along_axis(logits, top, -1))
    wt = z / z.sum(-1, keepdims=True)
    dense = np.einsum("bsm,emn->bsen", x, w)
    want = (np.take_along_axis(dense, top[..., None], 2) * wt[..., None]).sum(2)
    np.testing.assert_allclose(y, want, rtol=1e-10)


def test_bad_inputs():
    with pytest.raises(LayoutError, match="1 <= k <= number of experts"):
        moe_route(np.zeros((2, 4)), 5)
    with pytest.raises(LayoutError, match="split evenly over DP = 3"):
        moe_dispatch(np.zeros((2, 2, 2)), ROUTE, 8, 1, dp=3)
    with pytest.raises(LayoutError, match=r"expert ids must lie in \[0, 4\)"):
        moe_dispatch(np.zeros((2, 2, 2)), ROUTE, 4, 1, dp=2)
    with pytest.raises(LayoutError, match="same expert twice"):
        moe_dispatch(np.zeros((1, 1, 2)), np.array([[[1, 1]]]), 4, 1)
