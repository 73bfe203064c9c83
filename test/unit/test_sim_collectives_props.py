"""Property: every collective the simulator runs over links equals the golden numpy collective
(the registry's meaning, meshc/layout/collectives.py, which the golden interpreter runs), on random meshes, axes, dims and data; and link bytes are symmetric
where the algorithm is."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from meshc.layout.collectives import COLLECTIVES, CollectiveArgs
from meshc.layout.system import mesh_system
from meshc.sim.collectives import Collectives
from meshc.sim.machine import Machine


@settings(max_examples=40, deadline=None)
@given(mesh=st.sampled_from([(2, 4), (1, 4), (4, 2), (2, 2), (1, 8)]), torus=st.booleans(),
       kind=st.sampled_from(["all_gather", "reduce_scatter", "all_reduce", "all_to_all"]),
       axis=st.integers(0, 1), dim=st.integers(0, 1), seed=st.integers(0, 1000))
def test_simulated_collectives_equal_numpy(mesh, torus, kind, axis, dim, seed):
    rng = np.random.default_rng(seed)
    n = mesh[axis]
    shape = [2, 3]
    shape[dim] = n * (1 + seed % 2)  # divisible along the dim the collective splits
    vals = [rng.standard_normal(shape).astype(np.float32) for _ in range(mesh[0] * mesh[1])]
    m = Machine(mesh_system(mesh, torus=torus), mesh)
    c = Collectives(m)
    if kind == "all_gather":
        got = c.all_gather(vals, dim, axis)
        args = CollectiveArgs((dim,), axis)
    elif kind == "reduce_scatter":
        got = c.reduce_scatter(vals, dim, axis)
        args = CollectiveArgs((dim,), axis, "sum")
    elif kind == "all_reduce":
        got = c.all_reduce(vals, axis)
        args = CollectiveArgs((), axis, "sum")
    else:
        got = c.all_to_all(vals, dim, 1 - dim, axis)
        args = CollectiveArgs((dim, 1 - dim), axis)
    want = COLLECTIVES[kind].reference(vals, mesh, args)
    for g, w in zip(got, want):
        if kind in ("all_gather", "all_to_all"):
            assert np.array_equal(g, w)  # data movement: exact
        else:
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)
    if n == 1:
        assert m.traffic.link_bytes == 0
    # every byte a collective moves goes between devices of one group: never across the other axis
    other = 1 - axis
    for (a, b), v in m.traffic.link.items():
        if v:
            ca, cb = m.system.chips[a].coord, m.system.chips[b].coord
            assert ca[other] == cb[other]
