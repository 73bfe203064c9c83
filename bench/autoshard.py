"""ttir-auto-shard against two baselines, on the simulator.

For an MLP and the flagship transformer block written in global view without annotations
(examples/mlp_global.mlir and examples/flagship_transformer_global.mlir with their
`tt.sharding`s removed), on a t3k (2x4) and a galaxy (8x4), three placements:

* replicated: every argument and result replicated (no annotation);
* data parallel: the activations' first dim split over every mesh axis, weights replicated;
* auto: what `ttir-auto-shard` chooses.

Each is lowered with ttir-to-ttnn-pipeline, run on the simulator and checked against numpy
with `meshc-run --check`'s tolerances (meshc/interp/check.py).
Printed: auto-shard's predicted time, the simulator's time estimate, the ethernet bytes, and
the ratios of the baselines' simulated times to auto's. Ends with one summary line.

    .venv/bin/python bench/autoshard.py
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import numpy as np

import meshc
from meshc.interp.check import compare
from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.sharding_rules import replicated

ROOT = Path(__file__).resolve().parent.parent
SYSTEMS = {"t3k": (2, 4), "galaxy": (8, 4)}
ACTIVATIONS = {"x"}


def plain(example: str) -> str:
    """The example without its annotations and without its device."""
    text = (ROOT / "examples" / example).read_text()
    text = re.sub(r" \{tt\.sharding = #tt\.sharding<[^>]*>\}", "", text)
    text = re.sub(r"-> \((tensor<[^>]*>)\) \{", r"-> \1 {", text)
    return re.sub(r"^module attributes \{tt\.device = .*\} \{$", "module {", text, flags=re.M)


def with_specs(text: str, mesh_shape, placement: str):
    from xdsl.dialects import func

    from meshc.passes.sharding_ir import set_function_specs

    module = meshc.compile(text, f"tt-register-device{{system={system_of(mesh_shape)} mesh-shape={','.join(map(str, mesh_shape))}}}")
    mesh = Mesh(mesh_shape)
    if placement == "auto":
        return meshc.compile(module, "ttir-auto-shard")
    f = next(o for o in module.walk() if isinstance(o, func.FuncOp))
    ins = []
    for arg, t in zip(f.body.blocks.first.args, f.function_type.inputs.data):
        rank = len(t.get_shape())
        name = arg.name_hint or ""
        if placement == "data_parallel" and name in ACTIVATIONS:
            ins.append(ShardingSpec(mesh, (tuple(range(mesh.rank)),) + ((),) * (rank - 1)))
        else:
            ins.append(replicated(mesh, rank))
    outs = []
    for t in f.function_type.outputs.data:
        rank = len(t.get_shape())
        dp = placement == "data_parallel"
        outs.append(ShardingSpec(mesh, (tuple(range(mesh.rank)),) + ((),) * (rank - 1)) if dp else replicated(mesh, rank))
    set_function_specs(f, ins, outs)
    return module


def system_of(mesh_shape) -> str:
    return next(name for name, shape in SYSTEMS.items() if tuple(shape) == tuple(mesh_shape))


def measure(text: str, mesh_shape, placement: str) -> dict:
    from xdsl.dialects import func

    from meshc.passes.auto_shard import estimate
    from meshc.passes.propagate_sharding import plan_function
    from meshc.passes.sharding_ir import function_specs

    module = with_specs(text, mesh_shape, placement)
    f = next(o for o in module.walk() if isinstance(o, func.FuncOp))
    mesh = Mesh(mesh_shape)
    ins, outs = function_specs(f, mesh)
    predicted = estimate(f, mesh, ins, outs, plan_function(f, mesh, ins, outs, [True] * len(outs)))
    specs = ", ".join(str(s) for s in ins)
    rng = np.random.default_rng(0)
    inputs = {a.name_hint: rng.standard_normal(tuple(t.get_shape())).astype(np.float32)
              for a, t in zip(f.body.blocks.first.args, f.function_type.inputs.data)}
    golden = meshc.run(meshc.parse(text), inputs, mode="golden")
    sim = meshc.run(module, inputs)
    ok = all(compare("result", a, b, "f32", exact=False) is None for a, b in zip(sim.outputs, golden.outputs))
    return {"predicted_us": predicted.time_s * 1e6, "sim_us": sim.time_estimate * 1e6,
            "link_bytes": sim.traffic.link_bytes, "ok": ok, "specs": specs}


def main() -> int:
    started = time.perf_counter()
    programs = {"mlp": plain("mlp_global.mlir"), "flagship": plain("flagship_transformer_global.mlir")}
    header = (f"{'program':9} {'system':7} {'placement':14} {'predicted us':>12} {'sim us':>9} {'link B':>10} "
              f"{'sim / auto':>10}  check  argument specs")
    print(header)
    print("-" * len(header))
    wins, cases, checks = 0, 0, True
    for pname, text in programs.items():
        for sname, mesh_shape in SYSTEMS.items():
            rows = {p: measure(text, mesh_shape, p) for p in ("replicated", "data_parallel", "auto")}
            auto = rows["auto"]["sim_us"]
            for p, r in rows.items():
                checks &= r["ok"]
                print(f"{pname:9} {sname:7} {p:14} {r['predicted_us']:12.3f} {r['sim_us']:9.3f} {r['link_bytes']:10,} "
                      f"{r['sim_us'] / auto:10.2f}  {'ok' if r['ok'] else 'FAIL':5}  {r['specs']}")
            cases += 1
            wins += auto <= min(rows["replicated"]["sim_us"], rows["data_parallel"]["sim_us"])
    print("-" * len(header))
    print(f"auto-shard's simulated time <= both baselines' in {wins} of {cases} cases; every run checked against "
          f"numpy: {'yes' if checks else 'NO'}; {time.perf_counter() - started:.1f} s")
    return 0 if checks else 1


if __name__ == "__main__":
    sys.exit(main())
