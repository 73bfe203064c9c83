"""Scale benchmark: compile and simulation costs as the mesh, the program and the tensors grow.

Each figure is a ratio measured in this one run, the median of interleaved pairs with its range
(min-max), so both sides see the same machine load:

1. lower:    lowering a global-view Llama-70B-sized MLP layer (32 x 2048 tokens, hidden 8192,
             FFN 28672, bf16, Megatron annotations: x [S0, R], W1 [R, S1], W2 [S1, R]) with
             `ttir-to-ttnn-pipeline{mesh-shape=32,32 spill-to-dram=true}` against the same for 8x4
             (target <= 3); then one lowering for 64x64 (target <= 60 s; stopped at --timeout).
2. ops:      the pipeline's per-op compile cost on a 100k-op module against a 10k-op one (the
             generator of bench/compile.py, a T3K; target ~1.0: flat), and the pipeline against
             xdsl-opt parse+print at 10k and 50k ops (target <= 1.2).
3. sim:      a data-mode run of a tensor-parallel MLP (x [R, R] 1024x2048, W1 [R, S1] 2048x8192,
             W2 [S1, R] 8192x2048, f32: 208 MiB of tensors with h, gelu(h) and y) on 1x8 and 1x32 meshes against plain
             numpy doing the same maths (gelu(x @ W1) @ W2; target <= 1.5 at 32 chips); its peak
             memory (resident, above the process before the run) against the bytes of its
             tensors (target <= 3); and the time of a data run on 16x16 (target <= 120 s). It
             prints the load average over these runs: on a shared machine the ratio moves with it.
4. abstract: the peak memory of an abstract (shape-only) run of the Llama-70B MLP layer on 8x4
             against its tensor bytes (target: independent of them, < 500 MB).
5. reshard:  `plan_reshard` times: [S0, S1, R] -> [R, S0, S1] of 4096x2048x1024 bf16, and MoE with
             one expert a device ([E, B/DP, C, M/TP] -> [E/EP, B, C, M], E = devices) on 32x32 and
             64x64 (targets <= 2 s and <= 10 s, ratio to the lower bound 1.00), and an all-gather
             [S0, R] -> [R, R] of 4096x1024 bf16 on a 4096-device 1-D mesh (bounded).

Times of the command-line tools are compared as CPU time (user + system of the child, which
other jobs on a shared machine disturb less than the wall time; both are printed).
Memory is each child process's peak resident set (ru_maxrss) less its resident set just before
the measured work. The last line sums up. Usage:

    python bench/scale.py [--pairs 3] [--only lower,ops,sim,abstract,reshard] [--timeout 300]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from compile import generate, tool  # noqa: E402  (bench/compile.py's module generator)

TOKENS, HIDDEN, FFN = 32 * 2048, 8192, 28672
CHILD_MEMORY = 8 << 30
"""Address space a child may map: past it a measurement fails (MemoryError) instead of swapping."""


def mlp_program(tokens: int, hidden: int, ffn: int, el: str, specs: tuple[str, str, str, str]) -> str:
    """gelu(x @ W1) @ W2 in global view, each tensor annotated with its spec."""
    x, w1, w2 = f"tensor<{tokens}x{hidden}x{el}>", f"tensor<{hidden}x{ffn}x{el}>", f"tensor<{ffn}x{hidden}x{el}>"
    h = f"tensor<{tokens}x{ffn}x{el}>"
    sx, s1, s2, sy = (f"{{tt.sharding = #tt.sharding<{s}>}}" for s in specs)
    return f"""module {{
  func.func @main(%x: {x} {sx}, %w1: {w1} {s1}, %w2: {w2} {s2}) -> ({x} {sy}) {{
    %h = "ttir.matmul"(%x, %w1) : ({x}, {w1}) -> {h}
    %g = "ttir.gelu"(%h) : ({h}) -> {h}
    %y = "ttir.matmul"(%g, %w2) : ({h}, {w2}) -> {x}
    return %y : {x}
  }}
}}
"""


LLAMA = mlp_program(TOKENS, HIDDEN, FFN, "bf16", ("[S0, R]", "[R, S1]", "[S1, R]", "[S0, R]"))
TP = (1024, 2048, 8192)
TP_MLP = mlp_program(*TP, "f32", ("[R, R]", "[R, S1]", "[S1, R]", "[R, R]"))


def llama_bytes() -> int:
    """The bytes of the layer's tensors: x, W1, W2, h, gelu(h), y (bf16)."""
    return 2 * (2 * TOKENS * HIDDEN + 2 * HIDDEN * FFN + 2 * TOKENS * FFN)


def tp_bytes() -> int:
    t, h, f = TP
    return 4 * (2 * t * h + 2 * h * f + 2 * t * f)


def stats(xs: list[float], fmt: str = ".2f") -> str:
    return f"{statistics.median(xs):{fmt}} (min {min(xs):{fmt}}, max {max(xs):{fmt}})"


def med(xs):
    return statistics.median(xs)


# ----------------------------------------------------------------------------- child processes


def gelu(x):
    """The tanh approximation of gelu (the simulator's, TT-Metal's default), in plain numpy."""
    return 0.5 * x * (1 + np.tanh(np.float32(0.7978845608) * (x + np.float32(0.044715) * x * x * x)))


def rss_now() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def peak_rss() -> int:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def child(kind: str, arg: str) -> dict:
    """One measurement in this (child) process: seconds and peak memory above the start."""
    import resource

    import meshc

    resource.setrlimit(resource.RLIMIT_AS, (CHILD_MEMORY, CHILD_MEMORY))  # a shared machine: fail, not swap

    if kind == "sim":  # a data run of the TP MLP on the mesh `arg` (e.g. "1,8")
        module = meshc.compile(TP_MLP, f"ttir-to-ttnn-pipeline{{mesh-shape={arg} spill-to-dram=true}}")
        rng = np.random.default_rng(0)
        t, h, f = TP
        ins = {"x": rng.standard_normal((t, h), dtype=np.float32),
               "w1": rng.standard_normal((h, f), dtype=np.float32) * 0.02,
               "w2": rng.standard_normal((f, h), dtype=np.float32) * 0.02}
        base = rss_now()
        t0 = time.perf_counter()
        meshc.run(module, ins)
        return {"s": time.perf_counter() - t0, "mem": peak_rss() - base}
    if kind == "numpy":  # the same maths in numpy
        rng = np.random.default_rng(0)
        t, h, f = TP
        x = rng.standard_normal((t, h), dtype=np.float32)
        w1 = rng.standard_normal((h, f), dtype=np.float32) * 0.02
        w2 = rng.standard_normal((f, h), dtype=np.float32) * 0.02
        t0 = time.perf_counter()
        gelu(x @ w1) @ w2
        return {"s": time.perf_counter() - t0}
    if kind == "abstract":  # an abstract run of the Llama layer on the mesh `arg`
        module = meshc.compile(LLAMA, f"ttir-to-ttnn-pipeline{{mesh-shape={arg} spill-to-dram=true}}")
        base = rss_now()
        t0 = time.perf_counter()
        meshc.run(module, abstract=True)
        return {"s": time.perf_counter() - t0, "mem": peak_rss() - base}
    if kind == "reshard":  # plan case `arg` of reshard_cases()
        from meshc.layout.errors import LayoutError
        from meshc.layout.reshard import plan_reshard

        _, shape, src, tgt, _ = reshard_cases()[int(arg)]
        base = rss_now()
        t0 = time.perf_counter()
        try:
            plan = plan_reshard(shape, "bf16", src, tgt)
        except (LayoutError, MemoryError) as e:
            return {"refused": str(e).splitlines()[0][:200]}
        t = time.perf_counter() - t0
        plan.link_hop_bytes  # enumerates every transfer (in bounded chunks) to count its links
        return {"s": t, "hops_s": time.perf_counter() - t0 - t, "ratio": plan.ratio, "mem": peak_rss() - base}
    raise SystemExit(f"unknown child {kind}")


def run_child(kind: str, arg: str, timeout: float | None = None) -> dict | None:
    """Run `child(kind, arg)` in a fresh interpreter; None when it did not finish in `timeout`."""
    cmd = [sys.executable, os.path.abspath(__file__), "--child", kind, arg]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if r.returncode != 0:
        sys.exit(f"bench/scale.py: child {kind} {arg} failed:\n{r.stderr[-3000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def timed_tool(cmd: list[str], timeout: float | None = None) -> tuple[float, int, float] | None:
    """(wall seconds, peak resident bytes, CPU seconds) of one run of `cmd`; None past `timeout`."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = None if timeout is None else t0 + timeout
    while True:
        pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if deadline is not None and time.perf_counter() > deadline:
            p.kill()
            os.wait4(p.pid, 0)
            return None
        time.sleep(0.02)
    dt = time.perf_counter() - t0
    err = p.stderr.read().decode() if p.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"command failed: {' '.join(cmd)}\n{err[-2000:]}")
    return dt, ru.ru_maxrss * 1024, ru.ru_utime + ru.ru_stime


def pairs_of(a, b, pairs: int) -> list[tuple]:
    """`pairs` interleaved (a(), b()) results, the order alternating."""
    out = []
    for i in range(pairs):
        if i % 2:
            y = b()
            x = a()
        else:
            x = a()
            y = b()
        out.append((x, y))
    return out


# ----------------------------------------------------------------------------- the figures


def bench_lower(d: str, args, summary: dict) -> None:
    path = os.path.join(d, "llama_mlp.mlir")
    with open(path, "w") as f:
        f.write(LLAMA)

    def lower(mesh, timeout=None):
        return timed_tool([tool("meshc-opt"), path, "-p",
                           f"ttir-to-ttnn-pipeline{{mesh-shape={mesh} spill-to-dram=true}}", "-o", os.devnull], timeout)

    runs = pairs_of(lambda: lower("8,4"), lambda: lower("32,32"), args.pairs)
    ratios = [b[2] / a[2] for a, b in runs]
    wall = [b[0] / a[0] for a, b in runs]
    print(f"lower Llama-70B MLP layer 32x32 / 8x4, CPU time: {stats(ratios)}  (target <= 3), wall {stats(wall)}; "
          f"median 8x4 {med([a[0] for a, _ in runs]):.2f} s (CPU {med([a[2] for a, _ in runs]):.2f} s), 32x32 "
          f"{med([b[0] for _, b in runs]):.2f} s (CPU {med([b[2] for _, b in runs]):.2f} s), peak "
          f"{max(b[1] for _, b in runs) / 2**20:.0f} MiB", flush=True)
    summary["lower-32x32/8x4"] = f"{med(ratios):.2f}x [{min(ratios):.2f}-{max(ratios):.2f}]"
    big = lower("64,64", args.timeout)
    if big is None:
        print(f"lower Llama-70B MLP layer 64x64: did not finish in {args.timeout:.0f} s  (target <= 60 s)", flush=True)
        summary["lower-64x64"] = f">{args.timeout:.0f}s"
    else:
        print(f"lower Llama-70B MLP layer 64x64: {big[0]:.2f} s (CPU {big[2]:.2f} s), peak {big[1] / 2**20:.0f} MiB  "
              "(target <= 60 s)", flush=True)
        summary["lower-64x64"] = f"{big[0]:.1f}s"


def bench_ops(d: str, args, summary: dict) -> None:
    pipe = "ttir-to-ttnn-pipeline{system=t3k mesh-shape=2,4}"
    paths = {}
    for n in (10_000, 50_000, 100_000):
        paths[n] = os.path.join(d, f"ops{n}.mlir")
        with open(paths[n], "w") as f:
            f.write(generate(n))

    def meshc(n):
        return timed_tool([tool("meshc-opt"), paths[n], "-p", pipe, "-o", os.devnull])

    def xdsl(n):
        return timed_tool([tool("xdsl-opt"), "--allow-unregistered-dialect", paths[n], "--print-op-generic",
                           "-o", os.devnull])

    runs = pairs_of(lambda: meshc(10_000), lambda: meshc(100_000), args.pairs)
    per_op = [(b[2] / 100_000) / (a[2] / 10_000) for a, b in runs]
    print(f"compile per-op CPU cost 100k / 10k ops: {stats(per_op)}  (target ~1.0, flat); median 10k "
          f"{med([a[0] for a, _ in runs]):.2f} s (CPU {med([a[2] for a, _ in runs]):.2f} s), 100k "
          f"{med([b[0] for _, b in runs]):.2f} s (CPU {med([b[2] for _, b in runs]):.2f} s)", flush=True)
    summary["per-op-100k/10k"] = f"{med(per_op):.2f}x [{min(per_op):.2f}-{max(per_op):.2f}]"
    for n in (10_000, 50_000):
        r = pairs_of(lambda: xdsl(n), lambda: meshc(n), args.pairs)
        ratio = [b[2] / a[2] for a, b in r]
        print(f"compile {n // 1000}k ops, pipeline / xdsl-opt parse+print, CPU time: {stats(ratio)}  (target <= 1.2), "
              f"wall {stats([b[0] / a[0] for a, b in r])}; median CPU xdsl-opt {med([a[2] for a, _ in r]):.2f} s, "
              f"meshc-opt {med([b[2] for _, b in r]):.2f} s", flush=True)
        summary[f"compile-{n // 1000}k/xdsl"] = f"{med(ratio):.2f}x [{min(ratio):.2f}-{max(ratio):.2f}]"


def bench_sim(args, summary: dict) -> None:
    load = os.getloadavg()[0]  # the ratios move with the load of a shared machine: say it
    for mesh, chips in (("1,8", 8), ("1,32", 32)):
        runs = pairs_of(lambda: run_child("numpy", ""), lambda m=mesh: run_child("sim", m), args.pairs)
        ratio = [b["s"] / a["s"] for a, b in runs]
        mem = max(b["mem"] for _, b in runs) / tp_bytes()
        print(f"data run of a TP MLP ({tp_bytes() / 2**20:.0f} MiB of tensors) on {chips} chips / numpy: "
              f"{stats(ratio)}  (target <= 1.5 at 32); median sim {med([b['s'] for _, b in runs]):.2f} s, numpy "
              f"{med([a['s'] for a, _ in runs]):.2f} s; peak memory {mem:.2f}x the tensors (target <= 3)", flush=True)
        summary[f"sim-{chips}/numpy"] = f"{med(ratio):.2f}x [{min(ratio):.2f}-{max(ratio):.2f}]"
        summary[f"sim-{chips}-mem"] = f"{mem:.2f}x"
    big = run_child("sim", "16,16", args.timeout)
    if big is not None and big.get("oom"):
        print(f"data run of the TP MLP on 16x16: out of memory (past {CHILD_MEMORY >> 30} GiB)  (target <= 120 s)",
              flush=True)
        summary["sim-16x16"] = f"oom>{CHILD_MEMORY >> 30}GiB"
    elif big is None:
        print(f"data run of the TP MLP on 16x16: did not finish in {args.timeout:.0f} s  (target <= 120 s)", flush=True)
        summary["sim-16x16"] = f">{args.timeout:.0f}s"
    else:
        print(f"data run of the TP MLP on 16x16: {big['s']:.1f} s, peak memory {big['mem'] / tp_bytes():.2f}x the "
              "tensors  (target <= 120 s)", flush=True)
        summary["sim-16x16"] = f"{big['s']:.1f}s"
    summary["sim-load"] = f"{load:.1f}-{os.getloadavg()[0]:.1f}"
    print(f"load average (1 min) {summary['sim-load']} over the data runs", flush=True)


def bench_abstract(args, summary: dict) -> None:
    r = run_child("abstract", "8,4", args.timeout)
    if r is None:
        print(f"abstract run of the Llama-70B MLP layer on 8x4: did not finish in {args.timeout:.0f} s", flush=True)
        summary["abstract-mem"] = "timeout"
        return
    if r.get("oom"):
        print(f"abstract run of the Llama-70B MLP layer on 8x4: out of memory (past {CHILD_MEMORY >> 30} GiB "
              f"for {llama_bytes() / 2**30:.1f} GiB of tensors)  (target < 500 MB)", flush=True)
        summary["abstract-mem"] = f"oom>{CHILD_MEMORY >> 30}GiB"
        return
    ratio = r["mem"] / llama_bytes()
    print(f"abstract run of the Llama-70B MLP layer on 8x4: peak memory {r['mem'] / 2**20:.0f} MiB = {ratio:.3f}x "
          f"its {llama_bytes() / 2**30:.1f} GiB of tensors  (target < 500 MB); {r['s']:.2f} s", flush=True)
    summary["abstract-mem/tensors"] = f"{ratio:.3f}x ({r['mem'] / 2**20:.0f}MiB)"


def reshard_cases():
    from meshc.layout.mesh import Mesh, ShardingSpec

    def spec(mesh, *dims):
        return ShardingSpec(mesh, tuple(tuple(x) for x in dims))

    out = []
    for k in (32, 64):
        m = Mesh((k, k))
        out.append((f"3-D [S0,S1,R]->[R,S0,S1] 4096x2048x1024 bf16 {k}x{k}", (4096, 2048, 1024),
                    spec(m, [0], [1], []), spec(m, [], [0], [1]), k))
    for k in (32, 64):
        m, ep = Mesh((k, k), ("DP", "TP")), Mesh((k * k,), ("EP",))
        out.append((f"MoE [E,B/DP,C,M/TP]->[E/EP,B,C,M] E={k * k} {k}x{k}", (k * k, k, 4, 1024),
                    spec(m, [], [0], [], [1]), spec(ep, [0], [], [], []), k))
    line = Mesh((4096,))
    out.append(("all-gather [S0,R]->[R,R] 4096x1024 bf16 on 4096x1", (4096, 1024),
                spec(line, [0], []), spec(line, [], []), 4096))
    return out


def bench_reshard(args, summary: dict) -> None:
    for i, (name, _, _, _, k) in enumerate(reshard_cases()):
        target = {32: "<= 2 s", 64: "<= 10 s"}.get(k, "bounded")
        key = "reshard " + name.split(" ")[0] + f" {k}"
        runs = [run_child("reshard", str(i), args.timeout) for _ in range(args.pairs)]
        if any(r is None for r in runs):
            print(f"plan {name}: did not finish in {args.timeout:.0f} s  (target {target})", flush=True)
            summary[key] = f">{args.timeout:.0f}s"
            continue
        if any("refused" in r for r in runs):
            print(f"plan {name}: refused: {runs[0].get('refused')}  (target {target})", flush=True)
            summary[key] = "refused"
            continue
        times = [r["s"] for r in runs]
        hops = [r["hops_s"] for r in runs]
        print(f"plan {name}: {stats(times, '.3f')} s, ratio {runs[0]['ratio']:.2f}; its link-hop bytes (every "
              f"transfer enumerated) {stats(hops, '.3f')} s more; peak "
              f"{max(r['mem'] for r in runs) / 2**20:.0f} MiB  (target {target}, ratio 1.00)", flush=True)
        summary[key] = f"{med(times):.2f}s r{runs[0]['ratio']:.2f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=3, help="interleaved pairs a figure (default 3)")
    ap.add_argument("--only", default="lower,ops,sim,abstract,reshard", help="comma-separated sections")
    ap.add_argument("--timeout", type=float, default=300.0, help="stop a single long run after this many seconds")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        from meshc.interp.runner import RunError

        try:
            print(json.dumps(child(*args.child)))
        except MemoryError:
            print(json.dumps({"oom": True}))
        except RunError as e:  # the simulator places a host MemoryError at the op that ran out
            if "out of memory" not in str(e):
                raise
            print(json.dumps({"oom": True}))
        return
    only = set(args.only.split(","))
    summary: dict[str, str] = {}
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as d:
        if "reshard" in only:
            bench_reshard(args, summary)
        if "abstract" in only:
            bench_abstract(args, summary)
        if "sim" in only:
            bench_sim(args, summary)
        if "lower" in only:
            bench_lower(d, args, summary)
        if "ops" in only:
            bench_ops(d, args, summary)
    print("SUMMARY scale: " + "; ".join(f"{k} {v}" for k, v in summary.items())
          + f"; {time.perf_counter() - t0:.0f} s in all")


if __name__ == "__main__":
    main()
