"""The fuzz harness itself: outcome classes, fixed-seed mutation, and one case through a worker.

Classification is checked on hand-written tool outputs (a located error, a `file:0:0:` one, a
`file: error:` one, an internal error, a quoted source line that happens to say `error:`).
"""

import random

from fuzz.__main__ import _cases
from fuzz.case import Case
from fuzz.classify import classify_tool, signature
from fuzz.corpus import load_corpus
from fuzz.mutate import Mutator
from fuzz.pool import Pool

LOCATED = "in.mlir:3:5: error: 'ttir.add' op bad\n    %0 = \"ttir.add\"(%a) // CHECK: error: x\n    ^\n"


def test_located_error_with_its_source_line():
    assert classify_tool(1, "", LOCATED) == "located"


def test_zero_zero_and_fileonly_errors_are_unlocated():
    assert classify_tool(1, "", "in.mlir:0:0: error: Integer value 2 is out of range\n") == "unlocated"
    assert classify_tool(1, "", "in.mlir: error: the module has no function to run\n") == "unlocated"
    assert classify_tool(1, "", "") == "unlocated"


def test_command_line_errors_name_the_tool():
    assert classify_tool(1, "", "meshc-opt: error: invalid pass pipeline 'x{'\n") == "located"


def test_internal_and_warnings():
    assert classify_tool(2, "", "meshc-opt: internal error: KeyError: 'x'\n") == "internal"
    assert classify_tool(2, "", "meshc-run: internal error: MemoryError: Unable to allocate\n") == "oom"
    assert classify_tool(0, "", "x.py:3: RuntimeWarning: invalid value encountered in reduce\n") == "internal"


def test_signature_blurs_numbers_and_names():
    a = signature("unlocated", "f.mlir:0:0: error: Integer value 2 is out of range for type i0")
    b = signature("unlocated", "g.mlir:0:0: error: Integer value 7 is out of range for type i9")
    assert a == b


def test_mutation_is_fixed_by_the_seed():
    seeds = load_corpus()
    one = [Mutator(seeds, random.Random(3)).case() for _ in range(1)]
    m1, m2 = Mutator(seeds, random.Random(3)), Mutator(seeds, random.Random(3))
    a = [m1.case() for _ in range(30)]
    b = [m2.case() for _ in range(30)]
    assert [(c.argv, c.files) for c in a] == [(c.argv, c.files) for c in b]
    assert one[0].files == a[0].files
    assert len({c.files["in.mlir"] for c in a}) > 20  # mutations differ from case to case


def test_a_slice_of_the_campaign_is_the_same_inputs():
    # --start 20 --inputs 10 runs inputs 20..29 of the seed's stream (no API share: no hypothesis)
    whole = [(c.argv, c.files) for c in _cases(30, 5, 0.0)]
    part = [(c.argv, c.files) for c in _cases(10, 5, 0.0, start=20)]
    assert part == whole[20:]


def test_a_worker_runs_a_case_and_classifies_it(tmp_path):
    bad = Case("opt", "test", ["{dir}/in.mlir"], {"in.mlir": b"module {\n  \xff\n}\n"})
    good = Case("opt", "test", ["{dir}/in.mlir"], {"in.mlir": b"module {\n}\n"})
    api = Case("api", "test", call="aggregate", args=({}, (2,), ("@", "ConcatMeshToTensor", (0,), {})))
    pool = Pool(1, time_limit=60, mem_limit_mb=2048, scratch=str(tmp_path))
    got = {i: (k, m) for i, _, k, m in pool.run([bad, good, api])}
    assert got[0][0] == "located" and "not valid UTF-8" in got[0][1]
    assert got[1][0] == "ok"
    assert got[2][0] == "located" and "0 shards" in got[2][1]


def test_stablehlo_seeds_go_to_meshc_import():
    seeds = load_corpus()
    hlo = {s.origin.split("#")[0] for s in seeds if s.stablehlo}
    assert "test/lit/importers/errors.mlir" in hlo and "test/lit/interop/stablehlo-shard-map.mlir" in hlo
    cases = [Mutator(seeds, random.Random(9), import_share=1.0).case() for _ in range(20)]
    assert all(c.kind == "import" and c.describe().startswith("meshc-import ") for c in cases)
    assert all(c.origin.split("#")[0].split(" ")[0] in hlo for c in cases)


def test_a_worker_runs_an_import_case(tmp_path):
    hlo = (b'"builtin.module"() ({\n  "func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, '
           b'sym_name = "main"}> ({\n  ^bb0(%a: tensor<4xf32>):\n    "func.return"(%a) : (tensor<4xf32>) -> ()\n'
           b'  }) : () -> ()\n}) : () -> ()\n')
    bad = hlo.replace(b"func.return\"(%a)", b"func.return\"(%b)")
    pool = Pool(1, time_limit=60, mem_limit_mb=2048, scratch=str(tmp_path))
    got = {i: (k, m) for i, _, k, m in pool.run([Case("import", "t", ["{dir}/in.mlir"], {"in.mlir": hlo}),
                                                  Case("import", "t", ["{dir}/in.mlir"], {"in.mlir": bad})])}
    assert got[0][0] == "ok"
    assert got[1][0] == "located"
