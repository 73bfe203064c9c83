"""Reshard benchmark: bytes the planner moves against the lower bound, and against gather-then-slice.

For each case it prints the planned delivered bytes, the lower bound (over all devices, the bytes a
device needs in the target and does not hold in the source), their ratio (target: 1.00), the
link-hop bytes on the default topology (a line of links along each axis of the mesh view with
more axes), the same figures for the naive route (every device gathers the whole tensor from the
nearest holders, then keeps its piece), and the bytes of the walk of uniform SPMD collectives
that uniform collectives alone would move. The last columns run what `reshard-to-collectives`
emits (collectives when they meet the bound, else `ttir.point_to_point`) on the simulator, on a
t3k (device i on chip i): the bytes it counts as delivered into devices, and over links (every
hop). Every plan is executed on numpy and checked; the simulated result is checked against numpy.

Then the planner at scale: the time to plan a 4096x4096 f32 `[S0, S1] -> [S1, S0]` on 16x16, 32x32
and 64x64 meshes (median of 3 runs, min-max; targets: 32x32 <= 1 s, 64x64 <= 10 s) and its ratio
to the lower bound. The last line sums everything up.

Run: .venv/bin/python bench/reshard.py   (--no-sim: skip the simulator columns)
"""

from __future__ import annotations

import statistics
import sys
import time

import ml_dtypes
import numpy as np

from meshc.layout.errors import LayoutError
from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.reshard import as_view, collective_walk, execute_plan, plan_reshard

_MLIR_TYPES = {"f32": "f32", "bf16": "bf16"}

ATT = Mesh((2, 2, 2), ("DP", "CP", "TP"))
EP = Mesh((8,), ("EP",))
T3K = Mesh((2, 4), ("DP", "TP"))
M22 = Mesh((2, 2))


def spec(mesh, *dims):
    return ShardingSpec(mesh, tuple(tuple(d) for d in dims))


CASES = [
    ("the MoE resharding notes: [E, B/DP, C, M/TP] -> [E/EP, B, C, M]", (8, 2, 64, 1024), "bf16",
     spec(ATT, [], [0], [], [2]), spec(EP, [0], [], [], [])),
    ("the MoE resharding notes way back: [E/EP, ...] -> [E, B/DP, C, M/TP]", (8, 2, 64, 1024), "bf16",
     spec(EP, [0], [], [], []), spec(ATT, [], [0], [], [2])),
    ("[S0, R] -> [R, S0] on 2x2", (1024, 1024), "f32", spec(M22, [0], []), spec(M22, [], [0])),
    ("[S01, R] -> [S10, R] on 2x2", (1024, 1024), "f32", spec(M22, [0, 1], []), spec(M22, [1, 0], [])),
    ("[R, S01] -> [S0, S1] on 2x2", (1024, 1024), "f32", spec(M22, [], [0, 1]), spec(M22, [0], [1])),
    ("2D to EP: [E, T/DP, M/TP] on 2x4 -> [E/EP, T, M]", (8, 256, 1024), "bf16",
     spec(T3K, [], [0], [1]), spec(EP, [0], [], [])),
    # uneven: 1022 rows in 2 then 4 pieces (511 / 256, 256, 256, 254), 1030 columns in 4 then 2
    # (258, 258, 258, 256 / 515): padded buffers, moved point to point (docs/propagation.md)
    ("uneven: 1022x1030 [S0, S1] -> [S1, S0] on 2x4", (1022, 1030), "f32",
     spec(T3K, [0], [1]), spec(T3K, [1], [0])),
]


def check(plan, shape, src, tgt):
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    shards = [x[src.local_slices(shape, src.mesh.coord_of(d))] for d in range(src.mesh.size)]
    out = execute_plan(plan, shards)
    return all(np.array_equal(out[d], x[tgt.local_slices(shape, tgt.mesh.coord_of(d))]) for d in range(len(out)))


def _program(shape, el, mesh, specs) -> str:
    """A ttir program: x on every device (as `specs[0]`'s piece), resharded along `specs` in turn,
    device 0's piece returned."""

    def ty(spec):
        return "tensor<" + "x".join(map(str, spec.local_shape(shape, mesh.coords()[0]))) + f"x{el}>"

    ones = ", ".join("1" for _ in shape)
    none = ", ".join("-1" for _ in mesh.shape)
    shard = f"shard_type = #ttir.shard_type<replicate>, shard_shape = array<i64: {ones}>, shard_dims = array<i64: {none}>"
    g = ty(specs[0])
    lines = [f'    %0 = "ttir.mesh_shard"(%x) {{{shard}, shard_direction = #ttir.shard_direction<full_to_shard>}} : ({g}) -> {g}']
    for k, (a, b) in enumerate(zip(specs, specs[1:])):
        full = "" if a.is_even(shape) and b.is_even(shape) else f", full_shape = array<i64: {', '.join(map(str, shape))}>"
        lines.append(f'    %{k + 1} = "ttir.reshard"(%{k}) {{source = "{a}", target = "{b}"{full}}} : ({ty(a)}) -> {ty(b)}')
    last, h = len(specs) - 1, ty(specs[-1])
    lines.append(f'    %r = "ttir.mesh_shard"(%{last}) {{{shard}, shard_direction = #ttir.shard_direction<shard_to_full>}} : ({h}) -> {h}')
    body = "\n".join(lines)
    return f"module {{\n  func.func @main(%x: {g}) -> {h} {{\n{body}\n    func.return %r : {h}\n  }}\n}}"


def simulate(shape, dtype, src: ShardingSpec, tgt: ShardingSpec):
    """Run reshard-to-collectives' lowering of src -> tgt on the simulated t3k: (delivered B, link B,
    the ops it became, data checked). The program replicates x, cuts it to `src` (a reshard that
    only slices), runs the measured reshard, and gathers the result back to compare with x."""
    import meshc
    from meshc import run
    from meshc.sim.encoding import quantize

    mesh = Mesh(src.mesh.shape)
    a, b = ShardingSpec(mesh, src.dims), ShardingSpec(mesh, tgt.dims)
    rep = ShardingSpec(mesh, tuple(() for _ in shape))
    el = _MLIR_TYPES[dtype]
    pipeline = f"ttir-to-ttnn-pipeline{{system=t3k mesh-shape={','.join(map(str, mesh.shape))}}}"

    def n_ops(x, y):  # how many ttnn ops a reshard x -> y becomes
        m = meshc.compile(_program(shape, el, mesh, [x, y]), pipeline)
        return sum(1 for o in m.walk() if o.name.startswith("ttnn.") and o.name != "ttnn.get_device") - 2

    first, mine = n_ops(rep, a), n_ops(a, b)
    module = meshc.compile(_program(shape, el, mesh, [rep, a, b, rep]), pipeline)
    x = np.random.default_rng(0).normal(size=shape).astype(np.float32)
    if el == "bf16":  # a bf16 input must hold bf16 values: round it as the host would (ml_dtypes)
        x = x.astype(ml_dtypes.bfloat16)
    res = run(module, {"x": x})
    ops = res.ops[1 + first:1 + first + mine]
    delivered = sum(o.traffic.delivered_bytes for o in ops)
    link = sum(o.traffic.link_bytes for o in ops)
    ok = np.array_equal(np.asarray(res.outputs[0]), quantize(x, dtype))
    return delivered, link, ", ".join(o.name.split(".", 1)[1] for o in ops) or "(nothing)", ok


def main() -> int:
    head = (f"{'case':<52} {'planned B':>11} {'bound B':>11} {'ratio':>6} {'hop B':>11}   "
            f"{'gather+slice B':>14} {'ratio':>6} {'hop B':>11}   {'SPMD walk B':>11} {'ratio':>6}  steps")
    sim = "--no-sim" not in sys.argv
    width = len(head)
    if sim:
        head += f"  |  {'sim delivered B':>15} {'sim link B':>11}  emitted"
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
        try:
            walk = sum(s.bytes for s in collective_walk(shape, dtype, as_view(src, fine), as_view(tgt, fine)))
            walked = f"{walk:>11,} {walk / plan.lower_bound_bytes:>6.2f}"
        except LayoutError:  # an uneven split: no walk of SPMD collectives, point-to-point moves
            walked = f"{'uneven':>11} {'-':>6}"
        line = (f"{name:<52} {plan.delivered_bytes:>11,} {plan.lower_bound_bytes:>11,} {plan.ratio:>6.2f} "
                f"{plan.link_hop_bytes:>11,}   {naive.delivered_bytes:>14,} {naive.ratio:>6.2f} "
                f"{naive.link_hop_bytes:>11,}   {walked}  {steps}")
        if sim:
            delivered, link, emitted, good = simulate(shape, dtype, as_view(src, fine), as_view(tgt, fine))
            ok &= good and delivered == plan.lower_bound_bytes
            line = f"{line:<{width}}  |  {delivered:>15,} {link:>11,}  {emitted}"
        print(line)
    print("-" * len(head))
    print()
    print(f"{'plan 4096x4096 f32 [S0, S1] -> [S1, S0]':<42} {'median s':>9} {'min-max s':>13} {'ratio':>6}")
    times = {}
    for k in SCALE:
        t, ratio = plan_time(k)
        worst = max(worst, ratio)
        times[k] = t
        print(f"{f'{k}x{k} mesh ({k * k} devices)':<42} {t[1]:>9.3f} {f'{t[0]:.3f}-{t[2]:.3f}':>13} {ratio:>6.2f}")
    what = "plans executed on numpy" + (", simulated reshards" if sim else "") + " checked"
    met = times[32][1] <= 1.0 and times[64][1] <= 10.0
    print(f"reshard: worst planned/bound {worst:.2f} (target 1.00); plan time 16x16 {times[16][1]:.3f} s, "
          f"32x32 {times[32][1]:.3f} s ({times[32][0]:.3f}-{times[32][2]:.3f}, target <= 1), 64x64 {times[64][1]:.2f} s "
          f"({times[64][0]:.2f}-{times[64][2]:.2f}, target <= 10): {'met' if met else 'NOT met'}; "
          f"{what}: {'yes' if ok else 'NO'}; {time.perf_counter() - t0:.1f} s in all")
    return 0 if ok and worst <= 1.0 else 1


SCALE = (16, 32, 64)


def plan_time(k: int, runs: int = 3) -> tuple[tuple[float, float, float], float]:
    """(min, median, max) seconds to plan the transpose of a 4096x4096 f32 block grid on k x k, and
    the plan's delivered / lower bound."""
    mesh = Mesh((k, k))
    src, tgt = spec(mesh, [0], [1]), spec(mesh, [1], [0])
    times, ratio = [], 0.0
    for _ in range(runs):
        t0 = time.perf_counter()
        plan = plan_reshard((4096, 4096), "f32", src, tgt)
        times.append(time.perf_counter() - t0)
        ratio = plan.ratio
    return (min(times), statistics.median(times), max(times)), ratio


if __name__ == "__main__":
    sys.exit(main())
