"""meshc.layout.stage_slicing: the chain cut against every cut (itertools), and the submeshes of a
galaxy and a t3k derived by hand from their row-major chip meshes."""

import itertools

import numpy as np
import pytest

from meshc.layout.errors import LayoutError
from meshc.layout.stage_slicing import slice_chain, submesh_chips
from meshc.layout.system import system


def brute_force(costs, stages):
    n = len(costs)
    best = None
    for cuts in itertools.combinations(range(1, n), stages - 1):
        bounds = [0, *cuts, n]
        worst = max(sum(costs[a:b]) for a, b in zip(bounds, bounds[1:]))
        best = worst if best is None else min(best, worst)
    return best


@pytest.mark.parametrize("seed", range(20))
def test_the_slowest_stage_is_as_fast_as_any_cut_makes_it(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 10))
    stages = int(rng.integers(1, n + 1))
    costs = [float(c) for c in rng.uniform(0.5, 5.0, n)]
    cut = slice_chain(costs, stages)
    assert len(cut) == stages and cut[0][0] == 0 and cut[-1][1] == n
    assert all(a < b for a, b in cut) and all(b == c for (_, b), (c, _) in zip(cut, cut[1:]))
    assert max(sum(costs[a:b]) for a, b in cut) == pytest.approx(brute_force(costs, stages))


def test_a_heavy_layer_gets_a_stage_to_itself():
    # 1 1 6 1 1 into 3 stages: the 6 alone, the ones around it paired
    assert slice_chain([1, 1, 6, 1, 1], 3) == [(0, 2), (2, 3), (3, 5)]


def test_more_stages_than_layers_is_refused():
    with pytest.raises(LayoutError, match="cannot cut 2 layers into 3 non-empty stages"):
        slice_chain([1.0, 2.0], 3)


def test_galaxy_as_four_2x4_stages():
    # a galaxy's chips are row-major over its 8x4 chip mesh: rows 2k and 2k+1 are chips 8k .. 8k+7
    assert submesh_chips(system("galaxy"), (2, 4), 4) == [tuple(range(8 * k, 8 * k + 8)) for k in range(4)]


def test_t3k_as_two_2x2_stages():
    # t3k 2x4: row 0 is chips 0-3, row 1 chips 4-7; the left 2x2 block is 0, 1, 4, 5
    assert submesh_chips(system("t3k"), (2, 2), 2) == [(0, 1, 4, 5), (2, 3, 6, 7)]


def test_a_block_that_does_not_tile_is_refused():
    with pytest.raises(LayoutError, match="does not tile"):
        submesh_chips(system("t3k"), (2, 3), 2)
