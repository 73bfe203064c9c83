"""Reshard benchmark: bytes the planner moves against the lower bound, and against gather-then-slice.

For each case it prints the planned delivered bytes, the lower bound (over all devices, the bytes a
device needs in the target and does not hold in the source), their ratio (target: 1.00), the
link-hop bytes on the default topology (a line of links along each axis of the mesh view with
more axes), the same figures for the naive route (every device gathers the whole tensor from the
nearest holders, then keeps its piece), and the bytes of the walk of uniform SPMD collectives
that the `reshard-to-collectives` pass emits for the same change. Every plan is executed on numpy
and checked.

Run: .venv/bin/python bench/reshard.py
"""

from __future__ import annotations

import sys
import time

import numpy as np

from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.reshard import as_view, collective_walk, execute_plan, plan_reshard

ATT = Mesh((2, 2, 2), ("DP", "CP", "TP"))
EP = Mesh((8,), ("EP",))
T3K = Mesh((2, 4), ("DP", "TP"))
M22 = Mesh((2, 2))


def spec(mesh, *dims):
    return ShardingSpec(mesh, tuple(tuple(d) for d in dims))


CASES = [
    ("seed 004: [E, B/DP, C, M/TP] -> [E/EP, B, C, M]", (8, 2, 64, 1024), "bf16",
     spec(ATT, [], [0], [], [2]), spec(EP, [0], [], [], [])),
    ("seed 004 way back: [E/EP, ...] -> [E, B/DP, C, M/TP]", (8, 2, 64, 1024), "bf16",
     spec(EP, [0], [], [], []), spec(ATT, [], [0], [], [2])),
    ("[S0, R] -> [R, S0] on 2x2", (1024, 1024), "f32", spec(M22, [0], []), spec(M22, [], [0])),
    ("[S01, R] -> [S10, R] on 2x2", (1024, 1024), "f32", spec(M22, [0, 1], []), spec(M22, [1, 0], [])),
    ("[R, S01] -> [S0, S1] on 2x2", (1024, 1024), "f32", spec(M22, [], [0, 1]), spec(M22, [0], [1])),
    ("2D to EP: [E, T/DP, M/TP] on 2x4 -> [E/EP, T, M]", (8, 256, 1024), "bf16",
     spec(T3K, [], [0], [1]), spec(EP, [0], [], [])),
]


def check(plan, shape, src, tgt):
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    shards = [x[src.local_slices(shape, src.mesh.coord_of(d))] for d in range(src.mesh.size)]
    out = execute_plan(plan, shards)
    return all(np.array_equal(out[d], x[tgt.local_slices(shape, tgt.mesh.coord_of(d))]) for d in range(len(out)))


def main() -> int:
    head = (f"{'case':<52} {'planned B':>11} {'bound B':>11} {'ratio':>6} {'hop B':>11}   "
            f"{'gather+slice B':>14} {'ratio':>6} {'hop B':>11}   {'SPMD walk B':>11} {'ratio':>6}  steps")
    print(head)
    print("-" * len(head))
    worst = 0.0
    t0 = time.perf_counter()
    ok = True
    for name, shape, dtype, src, tgt in CASES:
        plan = plan_reshard(shape, dtype, src, tgt)
        naive = plan_reshard(shape, dtype, src, tgt, strategy="gather_then_slice")
        ok &= check(plan, shape, src, tgt) and check(naive, shape, src, tgt)
        worst = max(worst, plan.ratio)
        steps = ", ".join(s.kind for s in plan.steps)
        fine = src.mesh if src.mesh.rank >= tgt.mesh.rank else tgt.mesh  # the walk runs on one mesh
        walk = sum(s.bytes for s in collective_walk(shape, dtype, as_view(src, fine), as_view(tgt, fine)))
        print(f"{name:<52} {plan.delivered_bytes:>11,} {plan.lower_bound_bytes:>11,} {plan.ratio:>6.2f} "
              f"{plan.link_hop_bytes:>11,}   {naive.delivered_bytes:>14,} {naive.ratio:>6.2f} "
              f"{naive.link_hop_bytes:>11,}   {walk:>11,} {walk / plan.lower_bound_bytes:>6.2f}  {steps}")
    print("-" * len(head))
    print(f"worst planned/bound ratio: {worst:.2f} (target 1.00); every plan executed and checked on numpy: "
          f"{'yes' if ok else 'NO'}; {time.perf_counter() - t0:.2f} s")
    return 0 if ok and worst <= 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
