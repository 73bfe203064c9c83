"""The model zoo's table (issue 23, item 5): every model of examples/zoo on a 2x4 (T3K) and an
8x4 (Galaxy) mesh, through the ttnn and the ttmetal pipeline, in f32 and bf16 (flags narrow it).

Per case: the ops the lowered module ran on the simulator, the bytes over the ethernet links,
the simulator's time estimate, the compile time (meshc.from_jax + the lowering pipeline, wall
seconds: the median of `--repeats` runs, interleaved over the cases so all see the same load,
with their range) and the largest |meshc - JAX| over the outputs, and whether the case matches
JAX within examples/zoo/harness.py's tolerance. A case meshc refuses shows its error.
`--by-op` adds a table of each case's link bytes by the op that moved them.
Usage: python bench/zoo.py [--models a,b] [--meshes 2x4,8x4] [--backends ttnn,ttmetal]
                           [--dtypes f32,bf16] [--repeats N] [--by-op]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=32")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from examples.zoo import MODELS  # noqa: E402
from examples.zoo.harness import BACKENDS, DTYPES, MESHES, check, compile_seconds, run_case  # noqa: E402
from meshc.errors import DiagnosticError  # noqa: E402


def _list(text: str, known) -> list[str]:
    out = [t for t in text.split(",") if t]
    bad = [t for t in out if t not in known]
    if bad:
        raise SystemExit(f"bench/zoo.py: unknown {', '.join(bad)}; expected some of {', '.join(known)}")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--meshes", default=",".join(MESHES))
    ap.add_argument("--backends", default=",".join(BACKENDS))
    ap.add_argument("--dtypes", default=",".join(DTYPES))
    ap.add_argument("--repeats", type=int, default=1, help="compile timings a case (median and range)")
    ap.add_argument("--by-op", action="store_true", help="also the link bytes of each case by op")
    args = ap.parse_args(argv)
    cases = [(m, me, b, d) for m in _list(args.models, MODELS) for me in _list(args.meshes, MESHES)
             for b in _list(args.backends, BACKENDS) for d in _list(args.dtypes, DTYPES)]
    results, status = {}, {}
    for case in cases:
        try:
            results[case] = run_case(*case)
        except DiagnosticError as e:
            status[case] = "error: " + str(e).splitlines()[0]
            continue
        try:
            check(results[case])
            status[case] = "ok"
        except AssertionError as e:
            status[case] = "MISMATCH: " + " ".join(str(e).split())[:120]
    times = {c: [r.compile_time] for c, r in results.items()}
    for _ in range(args.repeats - 1):  # interleaved: every case once a round
        for c in results:
            times[c].append(compile_seconds(*c))

    table = Table(title="meshc model zoo: meshc.from_jax -> lowered -> simulated, against JAX on CPU")
    for col, just in (("model", "left"), ("mesh", "left"), ("backend", "left"), ("dtype", "left"),
                      ("ops", "right"), ("link bytes", "right"), ("sim time (us)", "right"),
                      ("compile (s)", "right"), ("max error", "right"), ("status", "left")):
        table.add_column(col, justify=just)
    for c in cases:
        r = results.get(c)
        if r is None:
            table.add_row(*c, "", "", "", "", "", status[c])
            continue
        t = times[c]
        spread = f" ({min(t):.2f}-{max(t):.2f})" if len(t) > 1 else ""
        table.add_row(*c, str(r.ops), f"{r.link_bytes:,}", f"{r.sim_time * 1e6:,.1f}",
                      f"{statistics.median(t):.2f}{spread}", f"{r.max_error:.3g}", status[c])
    console = Console(width=200)
    console.print(table)
    if args.by_op:
        by_op = Table(title="link bytes by the op that moved them")
        for col in ("model", "mesh", "backend", "dtype", "op", "link bytes"):
            by_op.add_column(col, justify="right" if col == "link bytes" else "left")
        for c, r in results.items():
            for name, n in sorted(r.link_bytes_by_op.items(), key=lambda kv: -kv[1]):
                by_op.add_row(*c, name, f"{n:,}")
        console.print(by_op)
    failed = [c for c in cases if status[c] != "ok"]
    print(f"{len(cases) - len(failed)} of {len(cases)} cases match JAX")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
