"""CPU time of the memory passes of ttir-to-ttnn-pipeline: ttnn-optimize-memory and
ttnn-check-l1{spill-to-dram=true} on bench/compile.py's n-op module (system=t3k mesh-shape=2,4).

Each run is a child process: it parses the module, runs the pipeline's passes before them
(ttir-to-ttnn-pipeline with optimize-memory=false check-l1=false keep-reference=false), tunes the
garbage collector as meshc-opt does (meshc/tools/gc_tuning.py), then times the two passes (CPU
time of the process, `time.process_time`) on a clone of the lowered module. With `--against
TREE` (a source tree, e.g. a `git archive` of an older commit) the runs are interleaved pairs,
this tree's child and one with PYTHONPATH=TREE on the same module text, so both see the same
machine load. Prints each run, then the median and range of each pass and of both.

    python bench/memory_passes.py [--ops 10000] [--runs 3] [--against TREE]
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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def child(path: str) -> dict:
    """One run in this process (the tree on sys.path): the two passes' CPU seconds."""
    from meshc.driver import make_context, parse_source
    from meshc.passes.pipelines import TTIRToTTNNPipeline
    from meshc.passes.ttnn_check_l1 import TTNNCheckL1Pass
    from meshc.passes.ttnn_optimize_memory import TTNNOptimizeMemoryPass
    from meshc.tools.gc_tuning import tune_for_large_ir

    tune_for_large_ir()
    ctx = make_context()
    lowered = parse_source(ctx, Path(path).read_text(), path)
    TTIRToTTNNPipeline(system="t3k", mesh_shape=(2, 4), optimize_memory=False, check_l1=False,
                       keep_reference=False).apply(ctx, lowered)
    module = lowered.clone()
    t0 = time.process_time()
    TTNNOptimizeMemoryPass().apply(ctx, module)
    t1 = time.process_time()
    TTNNCheckL1Pass(True).apply(ctx, module)
    t2 = time.process_time()
    return {"optimize": t1 - t0, "check": t2 - t1}


def run(tree: Path, path: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", path], env=env,
                         capture_output=True, text=True, check=True, cwd=tempfile.gettempdir())
    return json.loads(out.stdout.strip().splitlines()[-1])


def stats(xs: list[float]) -> str:
    return f"{statistics.median(xs):.3f} s ({min(xs):.3f}-{max(xs):.3f})"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ops", type=int, default=10_000)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--against", type=Path, default=None, help="another source tree, run in interleaved pairs")
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        print(json.dumps(child(args.child)))
        return
    sys.path.insert(0, str(ROOT / "bench"))
    from compile import generate

    trees = [("this tree", ROOT)] + ([("against", args.against.resolve())] if args.against else [])
    got: dict[str, list[dict]] = {name: [] for name, _ in trees}
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(generate(args.ops))
    try:
        for k in range(args.runs):
            for name, tree in trees if k % 2 == 0 else trees[::-1]:
                r = run(tree, f.name)
                got[name].append(r)
                print(f"{name}: ttnn-optimize-memory {r['optimize']:.3f} s, ttnn-check-l1 {r['check']:.3f} s "
                      f"(load {os.getloadavg()[0]:.1f})", flush=True)
    finally:
        os.unlink(f.name)
    for name, rs in got.items():
        print(f"{name}, {args.ops} ops: ttnn-optimize-memory {stats([r['optimize'] for r in rs])}, "
              f"ttnn-check-l1 {stats([r['check'] for r in rs])}, both {stats([r['optimize'] + r['check'] for r in rs])}")


if __name__ == "__main__":
    main()
