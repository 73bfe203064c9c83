"""ttir-auto-shard scores placements with the simulator's own time model and finds the best one.

- predicted = simulated: the `tt.auto_shard` time of the program the pass writes equals the
  abstract simulator's time of that program within 5%, on the repo's global-view examples
  (annotations removed) on a t3k and a galaxy, and on a written placement of each;
- the search finds the best placement: for small programs every placement of the free arguments
  is written, lowered and simulated; the pass's choice simulates within 1.05x the best;
- the dynamic program's work grows linearly along a chain (ops alike share their evaluations).
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from xdsl.dialects import func

import meshc
from meshc.layout.mesh import Mesh
from meshc.passes import auto_shard_search
from meshc.passes.auto_shard import _results_follow, costing_of, placements, written_estimate
from meshc.passes.auto_shard_cost import op_time
from meshc.passes.auto_shard_search import dp_search
from meshc.passes.propagate_sharding import plan_function
from meshc.passes.sharding_ir import function_specs, set_function_specs

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = {(2, 4): "t3k", (8, 4): "galaxy", (1, 4): "t3k", (1, 2): "n300", (2, 2): "t3k"}


def plain(example: str) -> str:
    """An example without its annotations and its device (as bench/autoshard.py reads it)."""
    text = (ROOT / "examples" / example).read_text()
    text = re.sub(r" \{tt\.sharding = #tt\.sharding<[^>]*>\}", "", text)
    text = re.sub(r"-> \((tensor<[^>]*>)\) \{", r"-> \1 {", text)
    return re.sub(r"^module attributes \{tt\.device = .*\} \{$", "module {", text, flags=re.M)


def registered(text: str, mesh_shape):
    shape = ",".join(map(str, mesh_shape))
    return meshc.compile(text, f"tt-register-device{{system={SYSTEMS[tuple(mesh_shape)]} mesh-shape={shape}}}")


def entry(module) -> func.FuncOp:
    return next(o for o in module.walk() if isinstance(o, func.FuncOp))


def simulated_us(module) -> float:
    return meshc.run(module, abstract=True).time_estimate * 1e6


def written(module, mesh_shape, ins):
    """`module` with argument specs `ins` written and each result following its value, as the
    pass writes a placement."""
    f = entry(module)
    mesh = Mesh(tuple(mesh_shape))
    _, outs = function_specs(f, mesh)
    chosen = plan_function(f, mesh, ins, outs, [False] * len(outs))
    set_function_specs(f, ins, _results_follow(f, mesh, chosen))
    return module


@pytest.mark.parametrize("example", ["mlp_global.mlir", "flagship_transformer_global.mlir"])
@pytest.mark.parametrize("mesh_shape", [(2, 4), (8, 4)], ids=["t3k", "galaxy"])
def test_predicted_is_simulated(example, mesh_shape):
    out = meshc.compile(registered(plain(example), mesh_shape), "ttir-auto-shard")
    predicted = entry(out).attributes["tt.auto_shard"].data["time_us"].value.data
    assert predicted == pytest.approx(simulated_us(out), rel=0.05)


@pytest.mark.parametrize("example", ["mlp_global.mlir", "flagship_transformer_global.mlir"])
def test_predicted_is_simulated_for_the_written_examples(example):
    # the examples as written (their own shardings, on a t3k)
    module = meshc.parse((ROOT / "examples" / example).read_text())
    f = entry(module)
    mesh = Mesh((2, 4))
    ins, outs = function_specs(f, mesh)
    predicted = written_estimate(f, mesh, ins, outs).time_s * 1e6
    assert predicted == pytest.approx(simulated_us(module), rel=0.05)


SMALL = {
    # the issue's tall matmul on four chips in a row
    "tall-matmul": ("""
func.func @main(%x: tensor<4096x16xf32>, %w: tensor<16x16xf32>) -> tensor<4096x16xf32> {
  %0 = "ttir.matmul"(%x, %w) : (tensor<4096x16xf32>, tensor<16x16xf32>) -> tensor<4096x16xf32>
  return %0 : tensor<4096x16xf32>
}""", (1, 4)),
    # a two-layer MLP on two chips
    "mlp": ("""
func.func @main(%x: tensor<256x128xf32>, %w1: tensor<128x256xf32>, %w2: tensor<256x128xf32>) -> tensor<256x128xf32> {
  %h = "ttir.matmul"(%x, %w1) : (tensor<256x128xf32>, tensor<128x256xf32>) -> tensor<256x256xf32>
  %g = "ttir.gelu"(%h) : (tensor<256x256xf32>) -> tensor<256x256xf32>
  %y = "ttir.matmul"(%g, %w2) : (tensor<256x256xf32>, tensor<256x128xf32>) -> tensor<256x128xf32>
  return %y : tensor<256x128xf32>
}""", (1, 2)),
    # a residual add of a matmul on a 2x2 mesh
    "residual": ("""
func.func @main(%x: tensor<512x512xf32>, %w: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %h = "ttir.matmul"(%x, %w) : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  %y = "ttir.add"(%x, %h) : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  return %y : tensor<512x512xf32>
}""", (2, 2)),
}


@pytest.mark.parametrize("name", sorted(SMALL))
def test_the_choice_is_within_five_percent_of_every_placement(name):
    text, mesh_shape = SMALL[name]
    mesh = Mesh(mesh_shape)
    args = list(entry(registered(text, mesh_shape)).body.blocks.first.args)
    every = list(itertools.product(*(placements(a, mesh) for a in args)))
    best = min(simulated_us(written(registered(text, mesh_shape), mesh_shape, list(c))) for c in every)
    chosen = simulated_us(meshc.compile(registered(text, mesh_shape), "ttir-auto-shard"))
    assert chosen <= 1.05 * best, f"{name}: the choice simulates {chosen:.3f} us, the best of {len(every)} {best:.3f} us"


def _chain(n: int, d: int = 256) -> str:
    params = ", ".join([f"%x: tensor<{d}x{d}xf32>"] + [f"%w{i}: tensor<{d}x{d}xf32>" for i in range(n)])
    body, prev = [], "%x"
    for i in range(n):
        body.append(f'  %h{i} = "ttir.matmul"({prev}, %w{i}) : (tensor<{d}x{d}xf32>, tensor<{d}x{d}xf32>) '
                    f'-> tensor<{d}x{d}xf32>')
        prev = f"%h{i}"
    return f"func.func @main({params}) -> tensor<{d}x{d}xf32> {{\n" + "\n".join(body) + \
        f"\n  return {prev} : tensor<{d}x{d}xf32>\n}}"


def test_a_chain_costs_linear_work(monkeypatch):
    # the dynamic program evaluates each (op, operand shardings) once, and ops alike share it:
    # a chain of 16 matmuls asks the time model no more than a chain of 4 does
    calls = []

    def counting(*a, **k):
        calls.append(1)
        return op_time(*a, **k)

    monkeypatch.setattr(auto_shard_search, "op_time", counting)
    counts = {}
    for n in (4, 16):
        f = entry(registered(_chain(n), (8, 4)))
        mesh = Mesh((8, 4))
        ins, outs = function_specs(f, mesh)
        choices = [placements(a, mesh) for a in f.body.blocks.first.args]
        calls.clear()
        dp_search(f, mesh, costing_of(f, mesh), ins, outs, choices, [False])
        counts[n] = len(calls)
    assert 0 < counts[16] == counts[4]
