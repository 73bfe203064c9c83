"""tt-mlir's MoE ops (meshc/layout/moe_ttmlir.py) against derivations written here with explicit
loops over tokens (the way TT-Metal's own tests write their references), and meshc's own MoE
(meshc/layout/moe.py) meeting them where the meanings coincide (docs/moe.md)."""

from __future__ import annotations

import numpy as np
import pytest

from meshc.layout import moe_ttmlir as tm
from meshc.layout.errors import LayoutError
from meshc.layout.moe import moe_combine, moe_dispatch

RNG = np.random.default_rng(7)
D, B, H, E, K = 4, 3, 5, 8, 2  # a 1x4 mesh, 3 tokens a device (S = 1), 8 experts (2 a device), top-2


def _routing():
    ids = np.stack([RNG.choice(E, K, replace=False) for _ in range(D * B)]).astype(np.int32)  # [D*B, K]
    x = RNG.standard_normal((D * B, H)).astype(np.float32)
    mapping = np.zeros((1, 1, E, D), np.int32)
    mapping[0, 0, np.arange(E), np.arange(E) // 2] = 1  # expert e on device e // 2
    return x, ids, mapping


def _dispatch(x, ids, mapping):
    tokens = [x[d * B:(d + 1) * B].reshape(B, 1, 1, H) for d in range(D)]
    indices = [ids[d * B:(d + 1) * B].reshape(B, 1, 1, K) for d in range(D)]
    return tm.all_to_all_dispatch(tokens, indices, [mapping] * D, (1, D), 1, D,
                                  ((1, D * B, 1, H), (1, D * B, 1, K)))


def test_dispatch_rows_metadata_and_bytes_by_hand():
    x, ids, mapping = _routing()
    run = _dispatch(x, ids, mapping)
    want_moves = np.zeros((D, D), np.int64)
    for t in range(D * B):
        src = t // B
        for dst in range(D):
            here = any(ids[t, k] // 2 == dst for k in range(K))
            row = run.results[0][dst][0, t, 0]
            np.testing.assert_array_equal(row, x[t] if here else np.zeros(H, np.float32))
            if here and dst != src:
                want_moves[src, dst] += H
    np.testing.assert_array_equal(run.moves[0], want_moves)
    for dst in range(D):
        np.testing.assert_array_equal(run.results[1][dst][0, :, 0], ids)
    # each device's B x K ids go to the 3 others
    np.testing.assert_array_equal(run.moves[1], (np.ones((D, D), np.int64) - np.eye(D, dtype=np.int64)) * B * K)


def _expert_outputs(run, w):
    """Each device's [E_local, D*B, 1, H] outputs of its 2 experts on every dispatched row."""
    return [np.stack([run.results[0][d][0, :, 0] @ w[2 * d + j] for j in range(2)])[:, :, None] for d in range(D)]


def test_both_spellings_meet_without_drops():
    x, ids, mapping = _routing()
    w = RNG.standard_normal((E, H, H)).astype(np.float32)
    gate = RNG.random((D * B, K)).astype(np.float32)
    want = np.stack([sum(gate[t, k] * (x[t] @ w[ids[t, k]]) for k in range(K)) for t in range(D * B)])
    # tt-mlir's spelling: dispatch, experts, combine ([K, B, 1, H] a device), then the weighted sum
    run = _dispatch(x, ids, mapping)
    meta = run.results[1]
    comb = tm.all_to_all_combine(_expert_outputs(run, w), meta, [mapping] * D, (1, D), 1, D, K, 1, (K, B, 1, H))
    rows = np.concatenate([c[:, :, 0] for c in comb.results[0]], axis=1)  # [K, D*B, H]
    ttmlir = np.einsum("ktH,tk->tH", rows, gate)
    np.testing.assert_allclose(ttmlir, want, rtol=1e-5, atol=1e-5)
    # meshc's spelling with capacity for every token: the same layer
    d = moe_dispatch(x.reshape(1, D * B, H), ids.reshape(1, D * B, K), E, capacity=D * B)
    out = np.einsum("egcm,emn->egcn", d.dispatched, w)
    meshc = moe_combine(out, ids.reshape(1, D * B, K), gate.reshape(1, D * B, K), d.slot)[0]
    np.testing.assert_allclose(meshc, want, rtol=1e-5, atol=1e-5)
    # combine bytes: a choice's row crosses when its expert is on another device than the token
    hops = sum(H for t in range(D * B) for k in range(K) if ids[t, k] // 2 != t // B)
    assert int(comb.moves[0].sum()) == hops


def test_combine_sharded_over_the_sequence():
    # output_shard_dim 2: the tokens of the group sit along S; device q gets positions [q*S/n, (q+1)*S/n)
    n, s, el = 2, 4, 1
    mapping = np.zeros((1, 1, 2, 2), np.int32)
    mapping[0, 0, [0, 1], [0, 1]] = 1
    meta = np.array([[0], [1], [1], [0]], np.int32).reshape(1, 1, s, 1)
    outs = [np.full((el, 1, s, 3), 10.0 * (d + 1), np.float32) + np.arange(s)[None, None, :, None] for d in range(n)]
    run = tm.all_to_all_combine(outs, [meta] * n, [mapping] * n, (1, n), 1, n, 1, 2, (1, 1, 2, 3))
    # position p chose expert meta[p] on device meta[p]: its value 10*(meta[p]+1) + p
    np.testing.assert_array_equal(run.results[0][0][0, 0, :, 0], [10.0, 21.0])
    np.testing.assert_array_equal(run.results[0][1][0, 0, :, 0], [22.0, 13.0])


def test_remap_and_sparsity_by_hand():
    x, ids, mapping = _routing()
    topk = np.zeros((1, D * B, 1, E), np.float32)
    for t in range(D * B):
        topk[0, t, 0, ids[t]] = [0.7, 0.3]
    meta = ids.reshape(1, D * B, 1, K)
    r = 4
    run = tm.moe_expert_token_remap([topk] * D, [mapping] * D, [meta] * D, r,
                                    ((1, D * B, 1, 2), (1, 1, 3, 2)))
    for d in range(D):
        for t in range(D * B):
            for j in range(2):
                e = 2 * d + j
                assert run.results[0][d][0, t, 0, j] == (topk[0, t, 0, e] if e in ids[t] else 0)
        for g in range(3):
            for j in range(2):
                assert run.results[1][d][0, 0, g, j] == any(2 * d + j in ids[t] for t in range(g * r, g * r + r))


@pytest.mark.parametrize("mode", ["dense-sparse", "sparse-dense", "sparse-sparse"])
def test_sparse_matmul_blocks_by_hand(mode):
    e, m, k, n = 3, 2, 4, 5
    b = RNG.standard_normal((1, e, k, n)).astype(np.float32)
    if mode == "dense-sparse":
        a = RNG.standard_normal((2, 3, m, k)).astype(np.float32)
        sp = (RNG.random((2, 3, 1, e)) > 0.5).astype(np.float32)
        out = tm.sparse_matmul(a, b, sp, False, True)
        assert out.shape == (2, 3, 1, e, m, n)
        for i in range(2):
            for j in range(3):
                for x in range(e):
                    want = a[i, j] @ b[0, x] if sp[i, j, 0, x] else np.zeros((m, n))
                    np.testing.assert_allclose(out[i, j, 0, x], want, rtol=1e-5)
        return
    rows = 2 if mode == "sparse-dense" else 1
    a = RNG.standard_normal((rows, e, m, k)).astype(np.float32)
    sp = (RNG.random((1, 1, rows, e)) > 0.5).astype(np.float32)
    out = tm.sparse_matmul(a, b, sp, True, mode == "sparse-sparse")
    for i in range(rows):
        for x in range(e):
            want = a[i, x] @ b[0, x] if sp[0, 0, i, x] else np.zeros((m, n))
            np.testing.assert_allclose(out[i, x], want, rtol=1e-5)


def test_run_errors_name_what_is_wrong():
    x, ids, mapping = _routing()
    with pytest.raises(LayoutError, match="num_devices = 2, but the mesh has 4 devices along cluster_axis 1"):
        tm.all_to_all_dispatch([x[:B].reshape(B, 1, 1, H)] * D, [ids[:B].reshape(B, 1, 1, K)] * D,
                               [mapping] * D, (1, D), 1, 2, ((1, D * B, 1, H), (1, D * B, 1, K)))
    with pytest.raises(LayoutError, match=r"the dispatched result must be \[1, 12, 1, 5\] here"):
        tm.all_to_all_dispatch([x[:B].reshape(B, 1, 1, H)] * D, [ids[:B].reshape(B, 1, 1, K)] * D,
                               [mapping] * D, (1, D), 1, D, ((1, D * B, 1, H + 1), (1, D * B, 1, K)))


def test_dispatch_and_combine_stay_in_their_cluster_axis_group():
    # a 2x2 mesh, cluster_axis 0: the groups are the columns {0, 2} and {1, 3}; expert e lives on
    # device e (and, for the mapping's other column, nowhere else), so a token of device 0 whose
    # expert is on device 1 (another column) reaches no device, and its combined row is zeros
    mesh, h = (2, 2), 2
    mapping = np.eye(4, dtype=np.int32)[None, None]  # [1, 1, E=4, D=4]
    x = [np.full((1, 1, 1, h), 1.0 + d, np.float32) for d in range(4)]
    ids = [np.array([[[[e]]]], np.int32) for e in (2, 1, 0, 0)]  # device d's one token chose ids[d]
    run = tm.all_to_all_dispatch(x, ids, [mapping] * 4, mesh, 0, 2, ((1, 2, 1, h), (1, 2, 1, 1)))
    # column {0, 2}: device 0's token (expert 2) goes to device 2, device 2's (expert 0) to device 0
    np.testing.assert_array_equal(run.results[0][2][0, :, 0, 0], [1.0, 0.0])
    np.testing.assert_array_equal(run.results[0][0][0, :, 0, 0], [0.0, 3.0])
    # column {1, 3}: device 1's token chose expert 1 (its own), device 3's chose expert 0 (column {0, 2})
    np.testing.assert_array_equal(run.results[0][1][0, :, 0, 0], [2.0, 0.0])
    np.testing.assert_array_equal(run.results[0][3][0, :, 0, 0], [0.0, 0.0])
    want = np.zeros((4, 4), np.int64)
    want[0, 2] = want[2, 0] = h  # the two tokens that cross, inside column {0, 2}
    np.testing.assert_array_equal(run.moves[0], want)
    outs = [np.full((1, 2, 1, h), 10.0 * (d + 1), np.float32) for d in range(4)]
    comb = tm.all_to_all_combine(outs, run.results[1], [mapping] * 4, mesh, 0, 2, 1, 1, (1, 1, 1, h))
    # each token's expert output comes from the expert's device in its column; device 3's expert 0
    # has no device in column {1, 3}: zeros
    got = [float(c[0, 0, 0, 0]) for c in comb.results[0]]
    assert got == [30.0, 20.0, 10.0, 0.0]
    np.testing.assert_array_equal(comb.moves[0], want)  # the two outputs cross back inside column {0, 2}


def test_dispatch_metadata_by_hand():
    # 1x2 mesh, M = 2 tokens a device, K = 2; mapping row: expert e is owned by flat device owner[e]
    owner = np.array([1, 0, 1, 0], np.int32)
    mapping = np.tile(owner, (2, 1))  # ttnn's [D, E] form: every row the same
    x = [np.arange(2 * 3, dtype=np.float32).reshape(1, 1, 2, 3) + 10 * d for d in range(2)]
    ids = [np.array([[0, 2], [1, 3]], np.int32).reshape(1, 1, 2, 2), np.array([[1, 0], [3, 1]], np.int32).reshape(1, 1, 2, 2)]
    sc = [np.full((1, 1, 2, 2), 0.5 + d, np.float32) for d in range(2)]
    run = tm.all_to_all_dispatch_metadata(x, ids, sc, [mapping] * 2, (1, 2), 1, 2, ((1, 4, 3), (1, 4, 2), (1, 4, 2)))
    tokens = np.concatenate([v.reshape(2, 3) for v in x])
    all_ids = np.concatenate([v.reshape(2, 2) for v in ids])
    want_moves = np.zeros((2, 2), np.int64)
    for dst in range(2):
        for t in range(4):
            here = any(owner[e] == dst for e in all_ids[t])
            np.testing.assert_array_equal(run.results[0][dst][0, t], tokens[t] if here else np.zeros(3))
            if here and t // 2 != dst:
                want_moves[t // 2, dst] += 3
        np.testing.assert_array_equal(run.results[1][dst][0], all_ids)
        np.testing.assert_array_equal(run.results[2][dst][0], np.concatenate([v.reshape(2, 2) for v in sc]))
    np.testing.assert_array_equal(run.moves[0], want_moves)
