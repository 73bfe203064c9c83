"""Link distances of the reshard planner against a plain breadth-first search written here.

On chip meshes (lines along every axis, or rings where an axis wraps) the planner computes hops in
closed form without any n x n work; on other link sets it searches. Both must agree with the
search below on every pair of chips, and a disconnected system must be refused.
"""

import itertools
from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meshc.layout.errors import LayoutError
from meshc.layout.reshard.distances import link_distances
from meshc.layout.system import ChipDesc, SystemDesc, mesh_system


def reference_hops(n, links):
    """Shortest link counts from every chip, by a breadth-first search (-1: unreachable)."""
    adj = {i: set() for i in range(n)}
    for a, b in links:
        adj[a].add(b)
        adj[b].add(a)
    out = np.full((n, n), -1, dtype=np.int64)
    for s in range(n):
        out[s, s] = 0
        todo = deque([s])
        while todo:
            x = todo.popleft()
            for y in sorted(adj[x]):
                if out[s, y] < 0:
                    out[s, y] = out[s, x] + 1
                    todo.append(y)
    return out


def custom_system(shape, links):
    coords = list(itertools.product(*[range(k) for k in shape]))
    return SystemDesc(tuple(ChipDesc.of_arch("wormhole_b0", c) for c in coords), tuple(links), tuple(shape))


mesh_shapes = st.lists(st.integers(1, 5), min_size=1, max_size=3).filter(lambda s: int(np.prod(s)) <= 60)


@settings(max_examples=80, deadline=None)
@given(mesh_shapes, st.booleans())
def test_closed_form_on_meshes_and_tori_matches_search(shape, torus):
    system = mesh_system(tuple(shape), torus=torus)
    n = system.num_chips
    hops = link_distances(n, system)
    assert hops.closed_form  # the fast path is the one taken on every chip mesh
    want = reference_hops(n, system.links)
    np.testing.assert_array_equal(np.asarray(hops), want)
    src, dst = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")  # index arrays answer pairwise
    np.testing.assert_array_equal(hops[src.ravel(), dst.ravel()], want.ravel())
    assert all(int(hops[s, d]) == want[s, d] for s, d in [(0, n - 1), (n - 1, 0), (n // 2, 0)])


@settings(max_examples=60, deadline=None)
@given(mesh_shapes, st.data())
def test_wrap_on_some_axes_only_matches_search(shape, data):
    # a ring along the chosen axes, a line along the others: still closed form
    rings = data.draw(st.lists(st.booleans(), min_size=len(shape), max_size=len(shape)))
    coords = list(itertools.product(*[range(k) for k in shape]))
    index = {c: i for i, c in enumerate(coords)}
    links = set()
    for c in coords:
        for a, k in enumerate(shape):
            if c[a] + 1 < k or (rings[a] and k > 2):
                nxt = list(c)
                nxt[a] = (c[a] + 1) % k
                links.add(tuple(sorted((index[c], index[tuple(nxt)]))))
    system = custom_system(shape, sorted(links))
    hops = link_distances(system.num_chips, system)
    assert hops.closed_form
    np.testing.assert_array_equal(np.asarray(hops), reference_hops(system.num_chips, system.links))


@settings(max_examples=80, deadline=None)
@given(mesh_shapes, st.data())
def test_other_link_sets_match_search_or_are_refused(shape, data):
    full = mesh_system(tuple(shape), torus=data.draw(st.booleans()))
    n = full.num_chips
    extra = [(a, b) for a in range(n) for b in range(a + 1, n)]
    links = data.draw(st.lists(st.sampled_from(full.links), unique=True)) if full.links else []
    if extra:
        links += data.draw(st.lists(st.sampled_from(extra), max_size=3, unique=True))
    links = sorted(set(links))
    system = custom_system(shape, links)
    want = reference_hops(n, links)
    if (want < 0).any():
        with pytest.raises(LayoutError, match="not connected by any chain of links"):
            link_distances(n, system)
        return
    np.testing.assert_array_equal(np.asarray(link_distances(n, system)), want)


def test_a_missing_link_is_not_taken_for_a_mesh():
    # a 3x3 mesh without the link (0,0)-(0,1): chip 0 reaches chip 1 the long way round, 3 hops
    full = mesh_system((3, 3))
    system = custom_system((3, 3), [link for link in full.links if link != (0, 1)])
    hops = link_distances(9, system)
    assert not hops.closed_form
    assert int(hops[0, 1]) == 3 and int(hops[1, 0]) == 3


def test_sizes_must_agree():
    with pytest.raises(LayoutError, match="the topology has 8 chips but the mesh has 4 devices"):
        link_distances(4, mesh_system((2, 4)))
