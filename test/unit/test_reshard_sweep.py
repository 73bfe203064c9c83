"""Hypothesis sweep of the reshard planner over random placement pairs on meshes of 1-4 axes, <= 32 devices.

For every pair: after the planned moves every device holds exactly its target data (element by
element against numpy), and without partial sums the delivered bytes equal the lower bound, which
the test recomputes independently from per-device boolean masks of the global tensor.
"""

import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.reshard import execute_plan, plan_reshard


@st.composite
def meshes(draw):
    rank = draw(st.integers(1, 4))
    shape = []
    for _ in range(rank):
        room = 32 // math.prod(shape or [1])
        shape.append(draw(st.sampled_from([n for n in (1, 2, 3, 4) if n <= room])))
    return Mesh(tuple(shape))


def views(draw, mesh):
    """Another view of the same devices: a factorization of the device count."""
    n = mesh.size
    options = [mesh.shape, (n,)]
    for a in range(2, n):
        if n % a == 0:
            options.append((a, n // a))
    return Mesh(tuple(draw(st.sampled_from(options))))


@st.composite
def specs(draw, mesh, rank, partial_ok, keep=()):
    dims = [[] for _ in range(rank)]
    partial = list(keep)
    for axis in draw(st.permutations([a for a in range(mesh.rank) if a not in keep])):
        where = draw(st.integers(-2 if partial_ok else -1, rank - 1))
        if where >= 0:
            dims[where].append(axis)
        elif where == -2:
            partial.append(axis)
    return ShardingSpec(mesh, tuple(tuple(d) for d in dims), tuple(partial))


@st.composite
def cases(draw, partial_ok=False):
    mesh = draw(meshes())
    rank = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(0, 9), min_size=rank, max_size=rank)))
    src = draw(specs(mesh, rank, partial_ok))
    other = mesh if partial_ok else views(draw, mesh)
    keep = src.partial if partial_ok and draw(st.booleans()) else ()  # partial sums the target keeps
    tgt = draw(specs(other, rank, False, keep))
    return shape, src, tgt


def masks(shape, spec):
    out = []
    for d in range(spec.mesh.size):
        m = np.zeros(shape, dtype=bool)
        m[spec.local_slices(shape, spec.mesh.coord_of(d))] = True
        out.append(m)
    return out


def shards_of(x, spec, rng):
    """Source shards; for partial specs, random integer parts that sum to x over the partial axes."""
    axes = spec.partial
    k = math.prod(spec.mesh.shape[a] for a in axes)
    parts = [rng.integers(-9, 9, size=x.shape).astype(np.float64) for _ in range(k - 1)]
    parts.append(x - sum(parts) if parts else x)
    out = []
    for d in range(spec.mesh.size):
        c = spec.mesh.coord_of(d)
        p = int(np.ravel_multi_index(tuple(c[a] for a in axes), tuple(spec.mesh.shape[a] for a in axes))) if axes else 0
        out.append(parts[p][spec.local_slices(x.shape, c)])
    return out


def check(shape, src, tgt, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.integers(-99, 99, size=shape).astype(np.float64)
    plan = plan_reshard(shape, "f32", src, tgt)
    shards = shards_of(x, src, rng)
    out = execute_plan(plan, shards)
    if tgt.partial:  # kept partial sums: the pieces of one replica of each addend sum to x
        total = np.zeros(shape)
        for d in range(tgt.mesh.size):
            c = tgt.mesh.coord_of(d)
            if all(c[a] == 0 for a in tgt.replicated_axes()):
                total[tgt.local_slices(shape, c)] += out[d]
        np.testing.assert_array_equal(total, x)
        return plan
    for d in range(tgt.mesh.size):
        np.testing.assert_array_equal(out[d], x[tgt.local_slices(shape, tgt.mesh.coord_of(d))])
    return plan


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_sweep_without_partial_sums_meets_the_bound(case):
    shape, src, tgt = case
    plan = check(shape, src, tgt)
    need = masks(shape, tgt)
    held = masks(shape, src)
    bound = sum(int((n & ~h).sum()) for n, h in zip(need, held)) * 4
    assert plan.lower_bound_bytes == bound
    assert plan.delivered_bytes == bound, plan.summary()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(partial_ok=True))
def test_sweep_with_partial_sums_is_exact(case):
    shape, src, tgt = case
    check(shape, src, tgt)
