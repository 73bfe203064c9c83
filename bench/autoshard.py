"""ttir-auto-shard against two baselines, on the simulator.

For an MLP and the flagship transformer block written in global view without annotations
(examples/mlp_global.mlir and examples/flagship_transformer_global.mlir with their
`tt.sharding`s removed), on a t3k (2x4) and a galaxy (8x4), three placements:

* replicated: every argument and result replicated (no annotation);
* data parallel: the activations' first dim split over every mesh axis, weights replicated;
* auto: what `ttir-auto-shard` chooses.

Each is lowered with ttir-to-ttnn-pipeline, run on the simulator and checked against numpy
with `meshc-run --check`'s tolerances (meshc/interp/check.py).
Printed: the predicted time (ttir-auto-shard's estimate of the program as written), the
simulator's time, their ratio, the ethernet bytes, and the ratios of the baselines' simulated
times to auto's.

Then the search at scale on a galaxy (8x4): a chain of 64 256x256 matmuls and 32 layers of the
flagship transformer block, the pass timed as the median of 3 runs (min and max in brackets),
its prediction against an abstract simulation of what it wrote. Ends with one summary line.

    .venv/bin/python bench/autoshard.py
"""

from __future__ import annotations

import re
import statistics
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

    from meshc.passes.auto_shard import written_estimate
    from meshc.passes.sharding_ir import function_specs

    module = with_specs(text, mesh_shape, placement)
    f = next(o for o in module.walk() if isinstance(o, func.FuncOp))
    mesh = Mesh(mesh_shape)
    ins, outs = function_specs(f, mesh)
    predicted = written_estimate(f, mesh, ins, outs)
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
    header = (f"{'program':9} {'system':7} {'placement':14} {'predicted us':>12} {'sim us':>9} {'pred/sim':>8} "
              f"{'link B':>10} {'sim / auto':>10}  check  argument specs")
    print(header)
    print("-" * len(header))
    wins, cases, checks, worst = 0, 0, True, 0.0
    for pname, text in programs.items():
        for sname, mesh_shape in SYSTEMS.items():
            rows = {p: measure(text, mesh_shape, p) for p in ("replicated", "data_parallel", "auto")}
            auto = rows["auto"]["sim_us"]
            for p, r in rows.items():
                checks &= r["ok"]
                ratio = r['predicted_us'] / r['sim_us']
                worst = max(worst, abs(ratio - 1))
                print(f"{pname:9} {sname:7} {p:14} {r['predicted_us']:12.3f} {r['sim_us']:9.3f} {ratio:8.3f} "
                      f"{r['link_bytes']:10,} {r['sim_us'] / auto:10.2f}  {'ok' if r['ok'] else 'FAIL':5}  {r['specs']}")
            cases += 1
            wins += auto <= min(rows["replicated"]["sim_us"], rows["data_parallel"]["sim_us"])
    print("-" * len(header))
    scale = {name: search_at_scale(text) for name, text in (("chain64", chain(64)), ("transformer32", transformer(32)))}
    print(f"auto-shard's simulated time <= both baselines' in {wins} of {cases} cases; predicted / simulated within "
          f"{worst:.1%}; every run checked against numpy: {'yes' if checks else 'NO'}; {time.perf_counter() - started:.1f} s")
    print("SUMMARY autoshard: " + " ".join(
        f"{n} {r['median']:.2f}s [{r['min']:.2f}-{r['max']:.2f}] pred/sim {r['ratio']:.3f}" for n, r in scale.items()))
    return 0 if checks else 1


def chain(n: int, d: int = 256) -> str:
    """A global-view chain of `n` d x d matmuls, every weight an argument."""
    params = ", ".join([f"%x: tensor<{d}x{d}xf32>"] + [f"%w{i}: tensor<{d}x{d}xf32>" for i in range(n)])
    body, prev = [], "%x"
    for i in range(n):
        body.append(f'  %h{i} = "ttir.matmul"({prev}, %w{i}) : (tensor<{d}x{d}xf32>, tensor<{d}x{d}xf32>) '
                    f'-> tensor<{d}x{d}xf32>')
        prev = f"%h{i}"
    return (f"func.func @main({params}) -> tensor<{d}x{d}xf32> {{\n" + "\n".join(body)
            + f"\n  return {prev} : tensor<{d}x{d}xf32>\n}}\n")


def transformer(layers: int) -> str:
    """`layers` copies of the flagship block (examples/flagship_transformer_global.mlir, no
    annotations), each with its own weights, the output of one the input of the next."""
    text = plain("flagship_transformer_global.mlir")
    m = re.search(r"func.func @main\((.*?)\) -> (tensor<[^>]*>) \{\n(.*?)\n\s*return (%\w+)", text, re.S)
    params, ret, body, out = m.group(1), m.group(2), m.group(3), m.group(4)
    weights = [(n, t) for n, t in re.findall(r"%(\w+): (tensor<[^>]*>)", params) if n != "x"]
    defs = sorted(re.findall(r"^\s*%(\w+) =", body, re.M), key=len, reverse=True)
    all_params, lines, prev = [f"%x: {ret}"], [], "x"
    for layer in range(layers):
        b = body
        for name in defs + [n for n, _ in weights]:
            b = re.sub(rf"%{name}\b", f"%{name}l{layer}", b)
        lines.append(re.sub(r"%x\b", f"%{prev}", b))
        all_params += [f"%{n}l{layer}: {t}" for n, t in weights]
        prev = f"{out[1:]}l{layer}"
    return (f"func.func @main({', '.join(all_params)}) -> {ret} {{\n" + "\n".join(lines)
            + f"\n  return %{prev} : {ret}\n}}\n")


def search_at_scale(text: str, runs: int = 3) -> dict:
    """ttir-auto-shard on a galaxy: median, min and max seconds of `runs` runs, and its prediction
    over an abstract simulation of the program it wrote."""
    from xdsl.dialects import func

    times = []
    for _ in range(runs):
        module = meshc.compile(text, "tt-register-device{system=galaxy mesh-shape=8,4}")
        t0 = time.perf_counter()
        out = meshc.compile(module, "ttir-auto-shard")
        times.append(time.perf_counter() - t0)
    f = next(o for o in out.walk() if isinstance(o, func.FuncOp))
    predicted = f.attributes["tt.auto_shard"].data["time_us"].value.data
    simulated = meshc.run(out, abstract=True).time_estimate * 1e6
    return {"median": statistics.median(times), "min": min(times), "max": max(times),
            "ratio": predicted / simulated}


if __name__ == "__main__":
    sys.exit(main())
