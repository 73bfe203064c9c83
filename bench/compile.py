"""Compile-time benchmark: the full ttir-to-ttnn pipeline against xDSL's parse + print.

Generates a 10,000-op ttir module for a T3K (2x4 mesh: mesh_shard in, a long SPMD body of
elementwise ops, matmuls, reductions, softmax and collectives, mesh_shard out) and times, in
the same run and on the same file:

  baseline: xdsl-opt --allow-unregistered-dialect FILE --print-op-generic   (read + write IR)
  meshc:    meshc-opt FILE -p 'ttir-to-ttnn-pipeline{system=t3k mesh-shape=2,4}'

The two commands run as `--pairs` interleaved pairs (baseline, meshc, baseline, meshc, ...; the
order within a pair alternates), so both see the same machine load; each pair gives one ratio of
wall times and one of CPU times (user + system of the command, which other jobs on a shared
machine disturb less than the wall time). Prints every pair, then one final line with the median
ratios and their min-max over the pairs and the median times; the target is a ratio of at most
1.2 (docs/design.md, Performance). The final line also gives the start-up time: `meshc-opt --help`
against `xdsl-opt --help` in CPU time, as `--startup-pairs` interleaved pairs.
Usage: python bench/compile.py [--ops N] [--pairs K]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SHARD = ('"ttir.mesh_shard"({x}) {{shard_type = #ttir.shard_type<devices>, '
         'shard_direction = #ttir.shard_direction<{dir}>, shard_shape = array<i64: 2, 4>, '
         'shard_dims = array<i64: 0, 1>}} : ({a}) -> {b}')


def generate(n_ops: int) -> str:
    """A valid SPMD ttir module with exactly n_ops ttir ops (in generic form)."""
    g, l, row = "tensor<128x512xf32>", "tensor<64x128xf32>", "tensor<64x1xf32>"
    sq = "tensor<128x128xf32>"
    lines = [
        "builtin.module {",
        f'  func.func @main(%x: {g}, %w: {sq}) -> {g} {{',
        f"    %v0 = {SHARD.format(x='%x', dir='full_to_shard', a=g, b=l)}",
        f'    %w0 = "ttir.mesh_shard"(%w) {{shard_type = #ttir.shard_type<replicate>, '
        f'shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1>, '
        f'shard_dims = array<i64: -1, -1>}} : ({sq}) -> {sq}',
    ]
    body = n_ops - 3
    unary = ["exp", "relu", "sigmoid", "tanh", "gelu", "neg", "sqrt", "log"]
    binary = ["add", "multiply", "subtract", "maximum", "div"]
    cur, i, k = "%v0", 0, 0
    while i < body:
        nxt = f"%v{i + 1}"
        kind = k % 16
        if kind < 8:
            lines.append(f'    {nxt} = "ttir.{unary[k % len(unary)]}"({cur}) : ({l}) -> {l}')
        elif kind < 13:
            lines.append(f'    {nxt} = "ttir.{binary[k % len(binary)]}"({cur}, {cur}) : ({l}, {l}) -> {l}')
        elif kind == 13:
            lines.append(f'    {nxt} = "ttir.matmul"({cur}, %w0) : ({l}, {sq}) -> {l}')
        elif kind == 14 and i + 2 <= body:
            lines.append(f'    %r{i} = "ttir.sum"({cur}) {{dim_arg = [1 : i32], keep_dim = true}} : ({l}) -> {row}')
            lines.append(f'    {nxt} = "ttir.div"({cur}, %r{i}) : ({l}, {row}) -> {l}')
            i += 1
        elif kind == 15:
            lines.append(f'    {nxt} = "ttir.all_reduce"({cur}) {{cluster_axis = 1 : ui32, '
                         f'reduce_type = #ttir.reduce_type<sum>}} : ({l}) -> {l}')
        else:
            lines.append(f'    {nxt} = "ttir.softmax"({cur}) {{dimension = 1 : si32}} : ({l}) -> {l}')
        cur = nxt
        i += 1
        k += 1
    lines.append(f"    %out = {SHARD.format(x=cur, dir='shard_to_full', a=l, b=g)}")
    lines.append(f"    func.return %out : {g}")
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def tool(name: str) -> str:
    here = os.path.dirname(sys.executable)
    cand = os.path.join(here, name)
    return cand if os.path.exists(cand) else (shutil.which(name) or name)


def _children_cpu() -> float:
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime


def timed(cmd: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of cmd."""
    c0, t0 = _children_cpu(), time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    dt, dc = time.perf_counter() - t0, _children_cpu() - c0
    if r.returncode != 0:
        sys.exit(f"command failed ({r.returncode}): {' '.join(cmd)}\n{r.stderr[-2000:]}")
    return dt, dc


def paired(base_cmd: list[str], ours_cmd: list[str], pairs: int, label: str = "pair") -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """`pairs` interleaved (baseline, meshc) (wall, CPU) times; odd pairs run meshc first."""
    out = []
    for i in range(pairs):
        if i % 2:
            ours = timed(ours_cmd)
            base = timed(base_cmd)
        else:
            base = timed(base_cmd)
            ours = timed(ours_cmd)
        out.append((base, ours))
        print(f"{label} {i + 1}: xdsl-opt {base[0]:.2f} s (CPU {base[1]:.2f} s), meshc-opt {ours[0]:.2f} s "
              f"(CPU {ours[1]:.2f} s), ratio {ours[0] / base[0]:.2f} (CPU {ours[1] / base[1]:.2f})", flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ops", type=int, default=10_000, help="ttir ops in the generated module")
    ap.add_argument("--pairs", type=int, default=5, help="interleaved (baseline, meshc) pairs")
    ap.add_argument("--keep", help="also write the generated module here")
    ap.add_argument("--startup-pairs", type=int, default=7, help="interleaved `--help` pairs (start-up time)")
    args = ap.parse_args()

    text = generate(args.ops)
    n = sum(1 for line in text.splitlines() if '"ttir.' in line)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "bench.mlir")
        with open(path, "w") as f:
            f.write(text)
        if args.keep:
            shutil.copy(path, args.keep)
        print(f"module: {n} ttir ops on a T3K (2x4 mesh); baseline xdsl-opt parse+print (generic), "
              "meshc-opt ttir-to-ttnn-pipeline", flush=True)
        runs = paired([tool("xdsl-opt"), "--allow-unregistered-dialect", path, "--print-op-generic"],
                      [tool("meshc-opt"), path, "-p", "ttir-to-ttnn-pipeline{system=t3k mesh-shape=2,4}"],
                      args.pairs)
        print("start-up: xdsl-opt --help against meshc-opt --help", flush=True)
        starts = paired([tool("xdsl-opt"), "--help"], [tool("meshc-opt"), "--help"], args.startup_pairs, "start-up pair")
    start_cpu = [o[1] / b[1] for b, o in starts]
    ratios = [o[0] / b[0] for b, o in runs]
    cpu = [o[1] / b[1] for b, o in runs]
    base = statistics.median(b[0] for b, _ in runs)
    ours = statistics.median(o[0] for _, o in runs)
    print(f"compile: meshc-opt / xdsl-opt = {statistics.median(ratios):.2f} (min {min(ratios):.2f}, max "
          f"{max(ratios):.2f}), CPU time {statistics.median(cpu):.2f} (min {min(cpu):.2f}, max {max(cpu):.2f}); "
          f"median of {len(runs)} interleaved pairs; target <= 1.2; median xdsl-opt {base:.2f} s, meshc-opt "
          f"{ours:.2f} s, {n} ttir ops; start-up (--help) CPU {statistics.median(start_cpu):.2f} "
          f"(min {min(start_cpu):.2f}, max {max(start_cpu):.2f}), median meshc-opt "
          f"{statistics.median(o[1] for _, o in starts):.3f} s, xdsl-opt {statistics.median(b[1] for b, _ in starts):.3f} s")

if __name__ == "__main__":
    main()
