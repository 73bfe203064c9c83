"""meshc.layout.stage_transfer: the fewest-bytes plan between two virtual devices, on the Device
spec's pipeline devices of a t3k; figures derived by hand in the comments, data checked by numpy."""

import numpy as np

from meshc.layout.stage_transfer import StagePlacement, plan_stage_transfer
from meshc.layout.system import system

SRC = StagePlacement((2, 1, 2), (0, 1, 2, 3), (0, -1, 2))  # batch over axis 0, columns over axis 2
DST = StagePlacement((2, 2), (4, 5, 6, 7), (0, -1))  # batch over axis 0, replicated over axis 1


def test_fewest_bytes_and_nearest_holders():
    plan = plan_stage_transfer((4, 64, 128), 4, SRC, DST, system("t3k"))
    # every target device needs a batch half, 2x64x128 f32 = 65,536 B, and holds nothing yet
    assert plan.lower_bound_bytes == plan.delivered_bytes == 4 * 65_536
    # two column halves a target, each held by one chip:
    # chip 2a+b holds batch a, columns b; chip 4+2r+c needs batch r: from chips 2r and 2r+1
    got = sorted(plan.chip_pairs())
    want = sorted((2 * r + b, 4 + 2 * r + c, 32_768) for r in range(2) for c in range(2) for b in range(2))
    assert got == want
    # t3k hops from chip s (row 0, column s) to chip 4+k (row 1, column k): 1 + |s - k|
    assert plan.link_hop_bytes == sum(n * (1 + abs(s - (d - 4))) for s, d, n in want)


def test_a_replicated_source_sends_from_the_nearest_replica():
    src = StagePlacement((2, 2), (0, 1, 2, 3), (-1, -1))  # every chip of 0-3 holds the whole tensor
    dst = StagePlacement((2, 2), (4, 5, 6, 7), (0, 1))
    plan = plan_stage_transfer((64, 64), 4, src, dst, system("t3k"))
    # chip 4+k is one link below chip k: each piece comes straight down
    assert sorted((s, d) for s, d, _ in plan.chip_pairs()) == [(0, 4), (1, 5), (2, 6), (3, 7)]
    assert plan.link_hop_bytes == plan.delivered_bytes == 64 * 64 * 4


def test_pieces_assemble_the_target_placement():
    x = np.arange(4 * 64 * 128, dtype=np.float32).reshape(4, 64, 128)
    plan = plan_stage_transfer(x.shape, 4, SRC, DST, system("t3k"))
    held = [x[tuple(slice(a, b) for a, b in box)] for box in plan.source_bounds.tolist()]
    for k, box in enumerate(plan.target_bounds.tolist()):
        want = x[tuple(slice(a, b) for a, b in box)]
        got = np.full(want.shape, np.nan, np.float32)
        for t in plan.transfers:
            if t.dst != k:
                continue
            s0 = plan.source_bounds[t.src, :, 0]
            d0 = plan.target_bounds[k, :, 0]
            got[tuple(slice(a - o, b - o) for (a, b), o in zip(t.box, d0))] = \
                held[t.src][tuple(slice(a - o, b - o) for (a, b), o in zip(t.box, s0))]
        assert np.array_equal(got, want)
