"""The TTMetal memory-layout optimizer's effect: the modelled time of a program lowered with
`ttir-to-ttmetal-pipeline` (ttmetal-optimize-memory on) against the same with
`optimize-memory=false` (ttir-layout's places, ttnn-check-l1 spilling to DRAM what L1 cannot
hold), on examples/mlp_global.mlir (a T3K), examples/flagship_transformer_t3k.mlir and the
Llama-70B MLP layer of issue 25 on a galaxy (bench/scale.py's LLAMA: 32 x 2048 tokens, hidden
8192, FFN 28672, bf16, Megatron).

The modelled time is the simulator's (an abstract, shape-only run; meshc.layout.timemodel): the
device time of every op and the host transfers, deterministic, so one run is the figure. The
compile time is wall time, the median of `--runs` interleaved on / off compiles with its range.

    python bench/ttmetal_memory.py [--runs 3] [--only mlp,flagship,llama]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import meshc  # noqa: E402
from scale import LLAMA  # noqa: E402

CASES = {
    "mlp": ("examples/mlp_global.mlir", (ROOT / "examples/mlp_global.mlir").read_text(), ""),
    "flagship": ("examples/flagship_transformer_t3k.mlir",
                 (ROOT / "examples/flagship_transformer_t3k.mlir").read_text(), ""),
    "llama": ("Llama-70B MLP layer, galaxy", LLAMA, "system=galaxy"),
}


def pipeline(options: str, on: bool) -> str:
    opts = " ".join(x for x in (options, "" if on else "optimize-memory=false") if x)
    return f"ttir-to-ttmetal-pipeline{{{opts}}}" if opts else "ttir-to-ttmetal-pipeline"


def measure(source: str, options: str, runs: int) -> dict:
    out: dict = {}
    for on in (True, False):
        out[on] = {"compile": []}
    for _ in range(runs):
        for on in (True, False):  # interleaved: both see the same load
            t0 = time.perf_counter()
            module = meshc.compile(meshc.parse(source), pipeline(options, on))
            out[on]["compile"].append(time.perf_counter() - t0)
            out[on]["module"] = module
    for on in (True, False):
        r = meshc.run(out[on]["module"], abstract=True)
        out[on]["device"] = sum(o.time.device_s for o in r.ops)
        out[on]["total"] = r.time_estimate
        out[on]["peak_l1"] = r.peak_l1_core
    return out


def stats(xs: list[float]) -> str:
    return f"{statistics.median(xs):.2f} s (min {min(xs):.2f}, max {max(xs):.2f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", default=",".join(CASES))
    args = ap.parse_args()
    for key in args.only.split(","):
        name, source, options = CASES[key]
        m = measure(source, options, args.runs)
        on, off = m[True], m[False]
        print(f"{name}: modelled device time {on['device'] * 1e6:,.3f} us with ttmetal-optimize-memory, "
              f"{off['device'] * 1e6:,.3f} us with optimize-memory=false ({off['device'] / on['device']:.3f}x); "
              f"with host transfers {on['total'] * 1e6:,.3f} / {off['total'] * 1e6:,.3f} us; "
              f"busiest core's L1 {on['peak_l1']:,} / {off['peak_l1']:,} B; "
              f"compile {stats(on['compile'])} / {stats(off['compile'])}")


if __name__ == "__main__":
    main()
