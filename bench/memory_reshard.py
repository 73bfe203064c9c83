"""ttnn-optimize-memory's reshard phase (meshc/layout/memory_reshard.py): the modelled device time
of a program lowered with `ttir-to-ttnn-pipeline` with the phase and with `reshard=false`, and the
copies it made, on the Llama-70B MLP layer of issue 25 on a galaxy (bench/scale.py's LLAMA: 32 x
2048 tokens, hidden 8192, FFN 28672, bf16, Megatron) and examples/flagship_transformer_t3k.mlir
(system=t3k mesh-shape=2,4, as `make demo` lowers it); then the phase's own CPU time on
bench/scale.py's 10k-op module against plan_memory's.

The modelled time is the simulator's (an abstract, shape-only run; meshc.layout.timemodel),
deterministic, so one run each is the figure. The CPU times are the median of `--runs` with
their range.

    python bench/memory_reshard.py [--runs 3]
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
from meshc.interp.common import find_entry  # noqa: E402
from meshc.layout.memory_plan import plan_memory  # noqa: E402
from meshc.layout.memory_reshard import plan_reshards  # noqa: E402
from meshc.passes.ttnn_check_l1 import device_tensors, module_l1  # noqa: E402
from meshc.passes.ttnn_optimize_memory import program_ops  # noqa: E402
from scale import LLAMA, generate  # noqa: E402

CASES = {
    "Llama-70B MLP layer, galaxy": (LLAMA, "system=galaxy"),
    "examples/flagship_transformer_t3k.mlir": ((ROOT / "examples/flagship_transformer_t3k.mlir").read_text(),
                                               "system=t3k mesh-shape=2,4"),
}


def device_time(text: str, options: str, reshard: bool) -> tuple[float, int]:
    """(modelled device seconds, to_memory_config ops) of `text` lowered with or without the phase."""
    module = meshc.compile(meshc.parse(text), f"ttir-to-ttnn-pipeline{{{options} reshard={str(reshard).lower()}}}")
    moves = sum(1 for o in module.walk() if o.name == "ttnn.to_memory_config")
    run = meshc.run(module, abstract=True)
    return sum(o.time.device_s for o in run.ops), moves


def phase_cpu(runs: int) -> tuple[list[float], list[float], int]:
    """CPU seconds of plan_memory and of plan_reshards on the 10k-op module (as the pass runs them)."""
    module = meshc.compile(meshc.parse(generate(10_000)), "ttir-to-ttnn-pipeline{system=t3k mesh-shape=2,4}")
    block = find_entry(module, None).body.blocks.first
    tensors, ops, where = program_ops(device_tensors(block), block)
    arch, capacity = module_l1(module)
    step = {id(o): n for n, o in enumerate(block.ops)}
    steps = [step[id(o)] for o in where]
    plans, phases = [], []
    for _ in range(runs):
        t = time.process_time()
        plan = plan_memory(tensors, ops, arch, capacity, explained=False)
        plans.append(time.process_time() - t)
        t = time.process_time()
        plan_reshards(tensors, ops, plan, arch, capacity, steps)
        phases.append(time.process_time() - t)
    return plans, phases, len(ops)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    for name, (text, options) in CASES.items():
        on, moves_on = device_time(text, options, True)
        off, moves_off = device_time(text, options, False)
        print(f"{name}: device {on * 1e6:,.3f} us with the phase ({moves_on - moves_off} copies), "
              f"{off * 1e6:,.3f} us without (one run each)", flush=True)
    plans, phases, n = phase_cpu(args.runs)
    med = statistics.median
    print(f"{n} ops: plan_memory {med(plans):.2f} s CPU [{min(plans):.2f}-{max(plans):.2f}], reshard phase "
          f"{med(phases):.2f} s CPU [{min(phases):.2f}-{max(phases):.2f}] (median of {args.runs})")


if __name__ == "__main__":
    main()
