"""Dimension-ordered ethernet routing over the system's chip mesh."""

import itertools

import pytest

from meshc.layout.errors import LayoutError
from meshc.layout.system import SystemDesc, mesh_system, system
from meshc.layout.links import Router


def test_t3k_route_goes_along_axis_0_then_axis_1():
    # t3k: chips 0..3 on row 0, 4..7 on row 1; chip 0 at (0, 0), chip 7 at (1, 3)
    r = Router(system("t3k"))
    assert r.route(0, 7) == ((0, 4), (4, 5), (5, 6), (6, 7))
    assert r.route(7, 0) == ((7, 3), (3, 2), (2, 1), (1, 0))
    assert r.route(5, 5) == ()


def test_galaxy_routes_are_manhattan_paths_over_links():
    s = system("galaxy")
    r = Router(s)
    links = set(s.links)
    for a, b in itertools.product(range(s.num_chips), repeat=2):
        hops = r.route(a, b)
        ca, cb = s.chips[a].coord, s.chips[b].coord
        assert len(hops) == abs(ca[0] - cb[0]) + abs(ca[1] - cb[1])
        if hops:
            assert hops[0][0] == a and hops[-1][1] == b
        for x, y in hops:
            assert (min(x, y), max(x, y)) in links
        # axis 0 first: once a hop changes axis 1, no later hop changes axis 0
        axes = [0 if s.chips[x].coord[0] != s.chips[y].coord[0] else 1 for x, y in hops]
        assert axes == sorted(axes)


def test_torus_takes_the_wrap_link_when_shorter():
    s = mesh_system((1, 8), torus=True)
    r = Router(s)
    assert r.route(0, 7) == ((0, 7),)
    assert r.route(1, 6) == ((1, 0), (0, 7), (7, 6))
    assert r.route(0, 3) == ((0, 1), (1, 2), (2, 3))


def test_a_missing_link_is_named():
    s = mesh_system((1, 3))
    broken = SystemDesc(s.chips, ((0, 1),), s.mesh_shape)  # no link between chips 1 and 2
    with pytest.raises(LayoutError, match=r"no ethernet link between chip 1 at \(0, 1\) and chip 2 at \(0, 2\)"):
        Router(broken).route(0, 2)


def _hop_by_hop(router, sends):
    """The busiest link direction's bytes, summed over every hop of every route (the definition)."""
    link = {}
    for a, b, n in sends:
        for hop in router.route(a, b):
            link[hop] = link.get(hop, 0) + n
    return max(link.values(), default=0)


@pytest.mark.parametrize("shape,torus", [((1, 8), True), ((1, 8), False), ((4, 4), True), ((2, 4), False)])
def test_send_loads_sums_runs_as_the_hops_sum(shape, torus):
    # send_loads adds each route's runs along a line as intervals (wrapping through a torus's
    # wrap-around link); the busiest link must be the hop-by-hop sum's, on random sends.
    import numpy as np

    from meshc.layout.links import send_loads

    s = mesh_system(shape, torus=torus)
    r = Router(s)
    rng = np.random.default_rng(3)
    chips = s.num_chips
    sends = [(int(a), int(b), int(n)) for a, b, n in zip(rng.integers(0, chips, 60), rng.integers(0, chips, 60),
                                                         rng.integers(0, 1000, 60))]
    busiest, noc = send_loads(r, sends)
    assert busiest == _hop_by_hop(r, sends) > 0
    assert sum(noc.values()) == 2 * sum(n for _, _, n in sends)


def test_send_loads_one_ring_by_hand():
    # a 1x8 torus: 0 -> 7 takes the wrap link (0, 7); 1 -> 6 goes 1, 0, 7, 6; so (0, 7) carries 100 + 10
    from meshc.layout.links import send_loads

    r = Router(mesh_system((1, 8), torus=True))
    assert send_loads(r, [(0, 7, 100), (1, 6, 10), (2, 3, 5)])[0] == 110


def test_send_loads_over_a_missing_link_is_the_routes_error():
    from meshc.layout.links import send_loads

    s = mesh_system((1, 3))
    broken = SystemDesc(s.chips, ((0, 1),), s.mesh_shape)
    with pytest.raises(LayoutError, match=r"cannot route from chip 0 to chip 2"):
        send_loads(Router(broken), [(0, 1, 4), (0, 2, 4)])
