"""The reshard planner on large meshes (up to 32x32 devices): still exactly the lower bound.

Bounds and link-hop bytes are derived by hand below; every plan also runs on numpy
(`execute_plan`) and each device must end with numpy's slice of the global tensor. Timing is
bench/reshard.py's job, not these tests'.
"""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.reshard import execute_plan, plan_reshard
from meshc.layout.system import mesh_system


def spec(mesh, *dims):
    return ShardingSpec(mesh, tuple(tuple(d) for d in dims))


def run_and_check(shape, src, tgt, **kw):
    plan = plan_reshard(shape, "f32", src, tgt, **kw)
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    out = execute_plan(plan, [x[src.local_slices(shape, src.mesh.coord_of(d))] for d in range(src.mesh.size)])
    for d, got in enumerate(out):
        np.testing.assert_array_equal(got, x[tgt.local_slices(shape, tgt.mesh.coord_of(d))])
    return plan


@pytest.mark.parametrize("k", [16, 32])
def test_transpose_of_a_block_grid_meets_the_bound(k):
    # [S0, S1] -> [S1, S0] on k x k: device (i, j) holds block (i, j) and needs block (j, i), so
    # every device off the diagonal lacks one block of (N/k)^2 elements
    n_el = 4 * k
    block = (n_el // k) ** 2 * 4
    m = Mesh((k, k))
    plan = run_and_check((n_el, n_el), spec(m, [0], [1]), spec(m, [1], [0]))
    assert plan.lower_bound_bytes == k * (k - 1) * block
    assert plan.delivered_bytes == plan.lower_bound_bytes
    # each block goes straight from (j, i) to (i, j): |i - j| links down and |i - j| across
    assert plan.link_hop_bytes == sum(2 * abs(i - j) for i in range(k) for j in range(k)) * block


def test_transpose_on_a_torus_takes_the_short_way_round():
    k = 16
    m = Mesh((k, k))
    plan = run_and_check((k, k), spec(m, [0], [1]), spec(m, [1], [0]), system=mesh_system((k, k), torus=True))
    ring = lambda a, b: min(abs(a - b), k - abs(a - b))
    assert plan.delivered_bytes == plan.lower_bound_bytes == k * (k - 1) * 4
    assert plan.link_hop_bytes == sum(2 * ring(i, j) for i in range(k) for j in range(k)) * 4


@pytest.mark.parametrize("src_dims,tgt_dims,lacking", [
    # [S0, R] -> [R, S0] on 8x8, 64x64 tensor: device (i, j) holds rows-block i (8 x 64) and needs
    # columns-block i (64 x 8); it holds their 8 x 8 overlap, so it lacks 64*8 - 64 elements
    (([0], []), ([], [0]), 64 * 8 - 64),
    # [S01, R] -> [S10, R]: device (i, j) holds row-block 8i + j, needs 8j + i: the 56 off the
    # diagonal lack a whole 1 x 64 row
    (([0, 1], []), ([1, 0], []), None),
    # [S0, S1] -> [R, S1]: device (i, j) needs column-block j (64 x 8), holds 8 x 8 of it
    (([0], [1]), ([], [1]), 64 * 8 - 64),
])
def test_eight_by_eight_transitions_meet_the_bound(src_dims, tgt_dims, lacking):
    m = Mesh((8, 8))
    plan = run_and_check((64, 64), spec(m, *src_dims), spec(m, *tgt_dims))
    bound = 64 * lacking * 4 if lacking is not None else 56 * 64 * 4
    assert plan.lower_bound_bytes == bound
    assert plan.delivered_bytes == bound


@st.composite
def big_cases(draw):
    shape_m = draw(st.sampled_from([(8, 8), (4, 4, 4), (16, 4), (2, 32)]))
    mesh = Mesh(shape_m)
    rank = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(1, 40), min_size=rank, max_size=rank)))

    def one():
        dims = [[] for _ in range(rank)]
        for a in draw(st.permutations(range(mesh.rank))):
            where = draw(st.integers(-1, rank - 1))
            if where >= 0:
                dims[where].append(a)
        return ShardingSpec(mesh, tuple(tuple(d) for d in dims))

    return shape, one(), one()


@settings(max_examples=25, deadline=None)
@given(big_cases())
def test_random_transitions_on_64_devices_meet_the_bound(case):
    shape, src, tgt = case
    plan = run_and_check(shape, src, tgt)
    bound = 0  # per device: elements of its target box outside its source box, by boolean masks
    for d in range(src.mesh.size):
        held = np.zeros(shape, dtype=bool)
        held[src.local_slices(shape, src.mesh.coord_of(d))] = True
        need = np.zeros(shape, dtype=bool)
        need[tgt.local_slices(shape, tgt.mesh.coord_of(d))] = True
        bound += int((need & ~held).sum())
    assert plan.lower_bound_bytes == bound * 4
    assert plan.delivered_bytes == bound * 4, plan.summary()


def test_every_device_hears_only_from_its_own_blocks():
    # 32x32 transpose: each of the 992 off-diagonal devices receives exactly one transfer, from its mirror
    k = 32
    m = Mesh((k, k))
    plan = plan_reshard((2 * k, 2 * k), "f32", spec(m, [0], [1]), spec(m, [1], [0]))
    pairs = sorted((t.src, t.dst) for t in plan.transfers)
    want = sorted((j * k + i, i * k + j) for i, j in itertools.product(range(k), range(k)) if i != j)
    assert pairs == want
