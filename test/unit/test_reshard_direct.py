"""The reshard planner past its cell masks (meshc/layout/reshard/direct.py): pieces come straight
from their nearest holders, planned over intervals; still exactly the lower bound.

Bounds and link-hop bytes are derived by hand below; the plans run on numpy (`execute_plan`) and
each device must end with numpy's slice of the global tensor.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from test_reshard_sweep import cases, check, masks

from meshc.layout.limits import MAX_RESHARD_STAGED
from meshc.layout.reshard import planner
from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.reshard import execute_plan, plan_reshard
from meshc.layout.reshard.cells import cell_entries


def spec(mesh, *dims, partial=()):
    return ShardingSpec(mesh, tuple(tuple(d) for d in dims), tuple(partial))


def run_and_check(shape, src, tgt, **kw):
    plan = plan_reshard(shape, "f32", src, tgt, **kw)
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    out = execute_plan(plan, [x[src.local_slices(shape, src.mesh.coord_of(d))] for d in range(src.mesh.size)])
    for d, got in enumerate(out):
        np.testing.assert_array_equal(got, x[tgt.local_slices(shape, tgt.mesh.coord_of(d))])
    return plan


def test_a_replicated_source_sends_from_the_nearest_replica():
    # [S0, R] -> [R, S0] of 96x96 on 48x24: 48 x 48 cells x 1152 devices, past the cell masks.
    # Device (i, j) holds rows-block i (2 x 96) and needs columns-block i (96 x 2): it lacks the
    # 47 blocks of 2 x 2 of the other row-blocks r, each held by the 24 devices (r, *); the
    # nearest is (r, j), |r - i| links away
    k0, k1 = 48, 24
    m = Mesh((k0, k1))
    src, tgt = spec(m, [0], []), spec(m, [], [0])
    assert cell_entries((96, 96), [src, tgt]) > MAX_RESHARD_STAGED
    plan = run_and_check((96, 96), src, tgt)
    block = 2 * 2 * 4
    assert plan.lower_bound_bytes == k0 * k1 * (k0 - 1) * block
    assert plan.delivered_bytes == plan.lower_bound_bytes
    assert plan.link_hop_bytes == k1 * sum(abs(r - i) for i in range(k0) for r in range(k0)) * block
    assert all(m.coord_of(t.src)[1] == m.coord_of(t.dst)[1] for t in plan.transfers)


def test_an_all_gather_on_a_long_line():
    # [S0, R] -> [R, R] of 2048x2 on a line of 2048 devices: every device lacks the 2047 rows it
    # does not hold; row r comes from device r, |r - d| links away
    n = 2048
    m = Mesh((n,))
    plan = plan_reshard((n, 2), "f32", spec(m, [0], []), spec(m, [], []))
    assert plan.lower_bound_bytes == n * (n - 1) * 8
    assert plan.delivered_bytes == plan.lower_bound_bytes
    assert [s.kind for s in plan.steps] == ["all_gather"]
    d = np.arange(n)
    assert plan.link_hop_bytes == int(np.abs(d[:, None] - d[None, :]).sum()) * 8


def test_moe_one_expert_a_device_on_another_view():
    # [E, B/DP, C, M/TP] on 16x16 -> [E/EP, B, C, M] on EP=256 (E = 256 experts): device e holds
    # (all experts, B/16 rows, C, M/16) and needs expert e whole: it lacks 255/256 of it
    m, ep = Mesh((16, 16), ("DP", "TP")), Mesh((256,), ("EP",))
    shape = (256, 16, 2, 32)
    src, tgt = spec(m, [], [0], [], [1]), spec(ep, [0], [], [], [])
    assert cell_entries(shape, [src, tgt]) > MAX_RESHARD_STAGED
    plan = run_and_check(shape, src, tgt)
    per_expert = 16 * 2 * 32
    assert plan.lower_bound_bytes == 256 * (per_expert - per_expert // 256) * 4
    assert plan.delivered_bytes == plan.lower_bound_bytes
    assert [s.kind for s in plan.steps] == ["all_to_all", "all_slice"]


def test_partial_sums_reduced_then_moved_past_the_cell_masks():
    # [S0, R] partial over axis 1 -> [R, S0] on 32x32, 128x128. Reduce-scattering onto [S0, S1]
    # (each device gets its 4 x 4 piece from the 31 others of its row) and then moving beats an
    # all-reduce (4 x 128 from each of 31): after it, device (i, j) needs columns-block i
    # (128 x 4 = 512 elements) and holds the 16 of them at block (i, j) only when i == j
    k = 32
    m = Mesh((k, k))
    src, tgt = spec(m, [0], [], partial=[1]), spec(m, [], [0])
    plan = plan_reshard((128, 128), "f32", src, tgt)
    reduce = k * k * (k - 1) * 16 * 4
    moves = (k * k * 512 - k * 16) * 4
    assert plan.steps[0].kind == "reduce_scatter"
    assert plan.intermediate.dims == ((0,), (1,))
    assert plan.delivered_bytes == reduce + moves


# The sweeps of test_reshard_sweep.py (random meshes, views, specs, uneven and empty chunks,
# partial sums kept or reduced) with the direct moves forced on every plan: each plan runs on
# numpy, every device ends with its piece, and without partial sums delivers exactly the bound.


@pytest.fixture
def direct_only(monkeypatch):
    monkeypatch.setattr(planner, "MAX_RESHARD_STAGED", -1)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(case=cases())
def test_direct_sweep_without_partial_sums_meets_the_bound(direct_only, case):
    shape, src, tgt = case
    plan = check(shape, src, tgt)
    bound = sum(int((n & ~h).sum()) for n, h in zip(masks(shape, tgt), masks(shape, src))) * 4
    assert plan.lower_bound_bytes == bound
    assert plan.delivered_bytes == bound
    assert all(not s.axes for s in plan.steps if s.kind != "reduce_scatter")  # no staging on cell masks


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(case=cases(partial_ok=True))
def test_direct_sweep_with_partial_sums_is_exact(direct_only, case):
    check(*case)


def test_an_empty_chunk_owns_no_piece(direct_only):
    # 5 rows in 4 chunks of 2: device 3's chunk is empty ([5, 5)); it needs all 5 rows, including
    # row 4 of chunk 2, which it must not mistake for its own
    m = Mesh((4,))
    plan = run_and_check((5,), spec(m, [0]), spec(m, []))
    assert plan.delivered_bytes == plan.lower_bound_bytes == (3 + 3 + 4 + 5) * 4
