"""Collectives on the simulated machine: results against numpy, link bytes derived by hand."""

import numpy as np
import pytest

from meshc.layout.errors import LayoutError
from meshc.layout.system import mesh_system, system
from meshc.sim.collectives import Collectives, groups
from meshc.sim.machine import Machine

RNG = np.random.default_rng(7)


def vals(n, shape=(4, 8)):
    return [RNG.standard_normal(shape).astype(np.float32) for _ in range(n)]


def test_groups_along_each_axis_of_a_2x4_mesh():
    assert groups((2, 4), 1) == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert groups((2, 4), 0) == [[0, 4], [1, 5], [2, 6], [3, 7]]
    assert groups((2, 4), None) == [list(range(8))]
    with pytest.raises(LayoutError, match="cluster_axis 2 is out of range"):
        groups((2, 4), 2)


def test_all_gather_line_of_four_results_and_link_bytes():
    m = Machine("t3k")
    x = vals(8)
    out = Collectives(m).all_gather(x, 1, cluster_axis=1)
    for row in (0, 1):
        want = np.concatenate(x[4 * row: 4 * row + 4], axis=1)
        for d in range(4 * row, 4 * row + 4):
            assert np.array_equal(out[d], want)
    p = 4 * 8 * 4  # one piece: 4x8 f32
    # a line 0-1-2-3: every piece travels to both ends, hop by hop.
    # rightwards over 0->1 goes piece 0; over 1->2 pieces 0, 1; over 2->3 pieces 0, 1, 2
    for a, b, k in [(0, 1, 1), (1, 2, 2), (2, 3, 3), (3, 2, 1), (2, 1, 2), (1, 0, 3)]:
        assert m.traffic.link[(a, b)] == k * p
        assert m.traffic.link[(a + 4, b + 4)] == k * p
    assert m.traffic.link_bytes == 2 * 12 * p
    assert all(m.traffic.link[(a, b)] == 0 for a, b in [(0, 4), (4, 0)])  # no traffic between the rows


def test_all_gather_ring_sends_n_minus_1_pieces_over_each_forward_link():
    m = Machine(mesh_system((1, 4), torus=True), (1, 4))
    x = vals(4, (2, 2))
    out = Collectives(m).all_gather(x, 0, cluster_axis=1)
    assert all(np.array_equal(o, np.concatenate(x, 0)) for o in out)
    p = 16
    assert {k: v for k, v in m.traffic.link.items() if v} == {(0, 1): 3 * p, (1, 2): 3 * p, (2, 3): 3 * p,
                                                              (3, 0): 3 * p}


def test_reduce_scatter_line_results_and_link_bytes():
    m = Machine("t3k")
    x = vals(8, (8, 4))
    out = Collectives(m).reduce_scatter(x, 0, cluster_axis=1)
    for row in (0, 1):
        total = np.sum(x[4 * row: 4 * row + 4], axis=0)
        for k in range(4):
            np.testing.assert_allclose(out[4 * row + k], total[2 * k: 2 * k + 2], rtol=1e-6, atol=1e-6)
    c = 2 * 4 * 4  # one chunk: 2x4 f32
    # chunk k is reduced from both ends towards device k: link p->p+1 carries chunks k > p,
    # link p+1->p carries chunks k <= p
    for a, b, k in [(0, 1, 3), (1, 2, 2), (2, 3, 1), (1, 0, 1), (2, 1, 2), (3, 2, 3)]:
        assert m.traffic.link[(a, b)] == k * c


def test_all_reduce_over_columns_is_the_sum_on_every_device():
    m = Machine("t3k")
    x = vals(8, (3, 5))  # 15 elements: padded to 16 for the two-device reduce-scatter
    out = Collectives(m).all_reduce(x, cluster_axis=0)
    for col in range(4):
        want = x[col] + x[col + 4]
        for d in (col, col + 4):
            np.testing.assert_allclose(out[d], want, rtol=1e-6)
    # two devices: reduce-scatter sends one half each way, all-gather one half each way
    half = 8 * 4
    for col in range(4):
        assert m.traffic.link[(col, col + 4)] == 2 * half
        assert m.traffic.link[(col + 4, col)] == 2 * half


def test_all_to_all_line_results_and_link_bytes():
    m = Machine(mesh_system((1, 4)), (1, 4))
    x = vals(4, (4, 6))
    out = Collectives(m).all_to_all(x, split_dim=0, concat_dim=1, cluster_axis=1)
    for q in range(4):
        want = np.concatenate([x[p][q: q + 1] for p in range(4)], axis=1)
        assert np.array_equal(out[q], want)
    piece = 6 * 4
    # piece p->q crosses every link between them: 0->1 carries 0->{1,2,3}; 1->2 carries {0,1}->{2,3}
    for a, b, k in [(0, 1, 3), (1, 2, 4), (2, 3, 3), (3, 2, 3), (2, 1, 4), (1, 0, 3)]:
        assert m.traffic.link[(a, b)] == k * piece


def test_collective_permute_routes_over_the_mesh_and_zeros_the_rest():
    m = Machine("t3k")
    x = vals(8, (2, 2))
    out = Collectives(m).collective_permute(x, [(0, 7), (7, 0)])
    assert np.array_equal(out[7], x[0]) and np.array_equal(out[0], x[7])
    assert all(not out[d].any() for d in range(1, 7))
    # 0 -> 7: (0,0) -> (1,0) -> (1,1) -> (1,2) -> (1,3); 7 -> 0 back the other way
    for hop in [(0, 4), (4, 5), (5, 6), (6, 7), (7, 3), (3, 2), (2, 1), (1, 0)]:
        assert m.traffic.link[hop] == 16
    assert m.traffic.link_bytes == 8 * 16
    with pytest.raises(LayoutError, match="sends to device 3 twice"):
        Collectives(m).collective_permute(x, [(0, 3), (1, 3)])


def test_whole_mesh_all_gather_uses_every_device_in_order():
    m = Machine(system("t3k"))
    x = vals(8, (1, 2))
    out = Collectives(m).all_gather(x, 0, cluster_axis=None)
    assert all(np.array_equal(o, np.concatenate(x, 0)) for o in out)
    assert m.traffic.link_bytes > 0


def test_elem_bytes_counts_the_stored_size():
    m = Machine(mesh_system((1, 2)), (1, 2))
    x = vals(2, (4, 4))
    Collectives(m, elem_bytes=2).all_gather(x, 0, cluster_axis=1)  # bf16: 2 B an element
    assert m.traffic.link[(0, 1)] == 32 and m.traffic.link[(1, 0)] == 32
