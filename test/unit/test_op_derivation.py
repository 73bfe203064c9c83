"""Adding a compute op: its entry in the compute-op registry (meshc/layout/compute_ops.py) is all an
elementwise op takes; every layer derives from the registry (docs/contracts.md). These tests add
a toy op, `toy_cube` (x ** 3, test/unit/helpers_toy_op.py), and check that each layer picks it
up without any other edit: the ttir and ttnn op classes (parse, verify), the sharding rule,
propagation and partition, both lowerings, the golden interpreter, both simulators and the
StableHLO importer. The end-to-end run registers the toy in a fresh interpreter before the
layers are imported (as a new entry in the registry's source would be); the live-read tables
are also checked in this process, the toy patched into the registry."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import StringAttr, TensorType, f32
from xdsl.utils.test_value import create_ssa_value

from meshc.dialects import ttir, ttmetal, ttnn
from meshc.interp.ttir import GoldenFunctions
from meshc.interp.ttnn import TTNNSimFunctions
from meshc.layout import compute_ops
from meshc.layout.compute_ops import COMPUTE_OPS, COST_CLASSES, FAMILIES
from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.sharding_rules import OpInfo, rule_for
from meshc.passes.convert_ttir_to_ttmetal_table import TTIR_TO_TTMETAL
from meshc.passes.convert_ttir_to_ttnn_table import TTIR_TO_TTNN
from meshc.sim.compute import run_kernel

from helpers_toy_op import TOY

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(COMPUTE_OPS, TOY.name, TOY)
    return TOY


# ---------------------------------------------------------------- every entry reaches every table


@pytest.mark.parametrize("kind", sorted(COMPUTE_OPS))
def test_each_entry_has_its_ops_lowerings_and_impls(kind):
    entry = COMPUTE_OPS[kind]
    assert entry.family in FAMILIES and entry.cost in COST_CLASSES
    src, dst = ttir.COMPUTE_OPS[kind], ttnn.COMPUTE_OPS[kind]
    assert src.name == f"ttir.{kind}" and dst.name == f"ttnn.{entry.ttnn_name}"
    assert src.COMPUTE is entry and dst.COMPUTE is entry
    assert src in ttir.TTIR.operations and dst in ttnn.TTNN.operations
    assert TTIR_TO_TTNN[src] is dst
    assert TTIR_TO_TTMETAL.get(src) == entry.ttmetal
    golden = {op for op, _ in GoldenFunctions._impls()}
    assert src in golden and dst in golden and dst in {op for op, _ in TTNNSimFunctions._impls()}


def test_the_spmd_ops_are_the_per_device_trait():
    """The sharding passes' 'written per device' set is a trait of mesh_shard, the collectives and
    the reshards: every collective kind has it through its base."""
    per_device = {op.name for op in ttir.TTIR.operations if op.has_trait(ttir.PerDevice)}
    assert {op.name for op in ttir.COLLECTIVE_OPS.values()} <= per_device
    assert {"ttir.mesh_shard", "ttir.reshard", "ttir.point_to_point"} <= per_device
    assert not per_device & {op.name for op in ttir.COMPUTE_OPS.values()}


# ---------------------------------------------------------------- the toy, read live in this process


def test_the_toy_gets_its_ttir_and_ttnn_classes(toy):
    made = ttir.compute_op_classes("ttir", ttir.FAMILY_BASES, __name__, {toy.name: toy})
    made_nn = ttir.compute_op_classes("ttnn", ttir.FAMILY_BASES, __name__, {toy.name: toy})
    cls, nn = made[toy.name], made_nn[toy.name]
    assert (cls.name, nn.name) == ("ttir.toy_cube", "ttnn.toy_cube")
    assert issubclass(cls, ttir.ElementwiseUnaryBase) and cls.COMPUTE is toy
    t = TensorType(f32, (4, 8))
    cls.create(operands=[create_ssa_value(t)], result_types=[t]).verify()
    with pytest.raises(Exception, match="result shape"):
        cls.create(operands=[create_ssa_value(t)], result_types=[TensorType(f32, (8, 4))]).verify()


def test_the_toy_has_a_sharding_rule_and_a_kernel(toy):
    mesh = Mesh((2, 4))
    spec = ShardingSpec(mesh, ((0,), (1,)))
    rule = rule_for(OpInfo("toy_cube", ((8, 16),), ((8, 16),)))
    assert rule.propose(0, spec) == (spec,)
    assert rule.require((spec,)) == (spec,)
    assert not rule.linear  # x ** 3 of a partial sum is not the sum of the cubes
    x = np.arange(-4, 4, dtype=np.float32).reshape(2, 4)
    np.testing.assert_array_equal(run_kernel("toy_cube", [x], {}), x ** 3)


def test_the_ttmetal_tile_op_takes_the_toy_and_refuses_an_unknown_one(toy):
    block = TensorType(f32, (32, 32))

    def tile(kind):
        return ttmetal.TileUnaryOp.create(operands=[create_ssa_value(block)], result_types=[block],
                                          attributes={"op": StringAttr(kind)})

    tile("toy_cube").verify()
    assert "toy_cube" in compute_ops.tile_ops("unary")
    with pytest.raises(Exception, match="toy_cube"):  # the message lists what it accepts
        tile("toy_square").verify()


def test_the_importer_spelling_reaches_the_toy(toy):
    assert compute_ops.stablehlo_spellings()["stablehlo.toy_cube"] is toy


# ---------------------------------------------------------------- the toy, end to end

_SCRIPT = """
import json, sys
sys.path.insert(0, {unit!r})
import helpers_toy_op
helpers_toy_op.register()  # before any layer is imported, as an entry in the registry's source

import numpy as np
import meshc
from meshc.dialects import ttir
from meshc.importers.stablehlo import import_stablehlo
from meshc.passes.sharding_ir import chosen_specs

PROGRAM = '''
func.func @main(%x: tensor<8x16xf32> {{tt.sharding = #tt.sharding<[S0, S1]>}})
    -> (tensor<8x16xf32> {{tt.sharding = #tt.sharding<[S0, S1]>}}) {{
  %y = "ttir.toy_cube"(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}}
'''
STABLEHLO = '''
"builtin.module"() ({{
  "func.func"() <{{function_type = (tensor<8x16xf32>) -> tensor<8x16xf32>, sym_name = "main"}}> ({{
  ^bb0(%x: tensor<8x16xf32>):
    %y = "stablehlo.toy_cube"(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    "func.return"(%y) : (tensor<8x16xf32>) -> ()
  }}) : () -> ()
}}) : () -> ()
'''
device = "system=t3k mesh-shape=2,4"
x = np.linspace(-2.0, 2.0, 128, dtype=np.float32).reshape(8, 16)
out = {{}}
propagated = meshc.compile(PROGRAM, "tt-register-device{{" + device + "}},ttir-propagate-sharding")
cube = next(o for o in propagated.walk() if o.name == "ttir.toy_cube")
out["propagated"] = [str(s) for s in chosen_specs(cube)]
partitioned = meshc.compile(PROGRAM, "tt-register-device{{" + device + "}},ttir-partition")
cube = next(o for o in partitioned.walk() if o.name == "ttir.toy_cube")
out["local_shape"] = list(cube.results[0].type.get_shape())
out["reshards"] = sum(isinstance(o, ttir.ReshardOp) for o in partitioned.walk())
def main_ops(module):  # the lowered function's ops (a lowered module may also carry its source)
    return list(next(iter(module.body.ops)).walk())

ttnn_module = meshc.compile(PROGRAM, "ttir-to-ttnn-pipeline{{" + device + "}}")
out["ttnn_ops"] = sorted({{o.name for o in main_ops(ttnn_module) if "toy" in o.name}})
metal = meshc.compile(PROGRAM, "ttir-to-ttmetal-pipeline{{" + device + "}}")
out["tile_ops"] = sorted({{o.op.data for o in main_ops(metal) if o.name == "ttmetal.tile_unary"}})
module = meshc.parse(PROGRAM)
out["golden"] = meshc.run(module, {{"x": x}}, mode="golden").outputs[0].tolist()
out["ttnn"] = meshc.run(module, {{"x": x}}, pipeline="ttir-to-ttnn-pipeline{{" + device + "}}").outputs[0].tolist()
out["ttmetal"] = meshc.run(module, {{"x": x}}, pipeline="ttir-to-ttmetal-pipeline{{" + device + "}}",
                           target="ttmetal").outputs[0].tolist()
imported = import_stablehlo(STABLEHLO)
out["imported_ops"] = [o.name for o in imported.walk() if o.name.startswith("ttir.")]
out["imported"] = meshc.run(imported, {{"x": x}}, mode="golden").outputs[0].tolist()
try:
    meshc.parse('"ttir.toy_cube"(%x) : (tensor<8x16xf32>) -> tensor<16x8xf32>'.join(PROGRAM.split(
        '"ttir.toy_cube"(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>')).replace("return %y : tensor<8x16xf32>",
        "return %x : tensor<8x16xf32>"))
except Exception as e:
    out["bad_shape"] = str(e)
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def toy_end_to_end():
    script = _SCRIPT.format(unit=str(Path(__file__).parent))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def _want():
    x = np.linspace(-2.0, 2.0, 128, dtype=np.float32).reshape(8, 16)
    return x * x * x


def test_the_toy_propagates_and_partitions_as_elementwise(toy_end_to_end):
    assert toy_end_to_end["propagated"] == ["[S0, S1]"]  # the argument's sharding, kept
    assert toy_end_to_end["local_shape"] == [4, 4]  # 8x16 split 2 x 4 ways
    assert toy_end_to_end["reshards"] == 0  # the result is wanted as the argument is split: nothing moves


def test_both_lowerings_take_the_toy(toy_end_to_end):
    assert toy_end_to_end["ttnn_ops"] == ["ttnn.toy_cube"]
    assert "toy_cube" in toy_end_to_end["tile_ops"]


@pytest.mark.parametrize("run", ["golden", "ttnn", "ttmetal", "imported"])
def test_every_run_of_the_toy_computes_the_cube(toy_end_to_end, run):
    np.testing.assert_allclose(np.array(toy_end_to_end[run], dtype=np.float32), _want(), rtol=1e-6, atol=1e-6)


def test_the_importer_spells_the_toy_and_the_verifier_checks_it(toy_end_to_end):
    assert toy_end_to_end["imported_ops"] == ["ttir.toy_cube"]
    assert "result shape" in toy_end_to_end["bad_shape"] and "ttir.toy_cube" in toy_end_to_end["bad_shape"]


# ---------------------------------------------------------------- the count the registry is for


def test_an_elementwise_op_is_named_in_the_registry_only():
    """A unary op of the registry appears (quoted, or as ttir./ttnn. name) in no other source
    file, except the ops other code builds with: exp (the softmax kernel), neg (the importer's
    minimum reductions, -max(-x)), bitwise_not (a min across devices of integers on TTNN,
    ~max(~x)) and typecast (lowerings that change an element type)."""
    builders = {"exp", "neg", "bitwise_not", "typecast"}
    sources = [p for p in (ROOT / "meshc").rglob("*.py") if p.name != "compute_ops.py"]
    texts = {p: p.read_text() for p in sources}
    for kind, e in COMPUTE_OPS.items():
        if e.family != "unary" or kind in builders:
            continue
        words = (f'"{kind}"', f"'{kind}'", f"ttir.{kind}", f"ttnn.{kind}")
        naming = [str(p.relative_to(ROOT)) for p, t in texts.items() if any(w in t for w in words)]
        assert not naming, f"{kind} is named outside the registry in {naming}"


def test_the_importer_table_in_the_docs_names_every_spelling():
    """docs/importers.md has a row for every StableHLO / CHLO op the registry imports (named in
    the row's first column, `chlo.` ops with their dialect)."""
    doc = (ROOT / "docs" / "importers.md").read_text()
    rows = [r for r in doc[doc.index("## The op table"):].splitlines() if r.startswith("| `")]
    named = {w.strip("`,()") for r in rows for w in r.split("|")[1].split()}
    missing = [s for s in compute_ops.stablehlo_spellings()
               if (s if s.startswith("chlo.") else s.split(".", 1)[1]) not in named]
    assert not missing, f"docs/importers.md's op table has no row for {missing}"
