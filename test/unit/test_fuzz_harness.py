"""The fuzz harness itself: outcome classes, fixed-seed mutation, and one case through a worker.

Classification is checked on hand-written tool outputs (a located error, a `file:0:0:` one, a
`file: error:` one, an internal error, a quoted source line that happens to say `error:`).
"""

import os
import random
import sys

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


# ---------------------------------------------------------------- the classes the harness missed


def _fake_tool(monkeypatch, run):
    """Make every tool case run `run(argv)` (through tool_main, as the real tools do)."""
    import fuzz.execute as ex

    monkeypatch.setattr(ex, "_tool", lambda kind: ("meshc-opt", run))
    return ex


def test_a_failed_run_that_changes_its_input_is_lost(tmp_path, monkeypatch):
    def clobber(argv):
        with open(argv[0], "w") as f:
            f.write("half\n")
        return 1

    ex = _fake_tool(monkeypatch, clobber)
    klass, message = ex.run_case(Case("opt", "t", ["{dir}/in.mlir"], {"in.mlir": b"module {\n}\n"}), str(tmp_path / "w"), 60)
    assert klass == "lost" and "in.mlir" in message


def test_a_failed_run_that_leaves_an_output_is_lost(tmp_path, monkeypatch):
    def partial(argv):
        os.makedirs(argv[1], exist_ok=True)
        open(os.path.join(argv[1], "result0.npy"), "wb").close()
        return 1

    ex = _fake_tool(monkeypatch, partial)
    klass, message = ex.run_case(Case("run", "t", ["{dir}/in.mlir", "{dir}/outs"], {"in.mlir": b""}), str(tmp_path / "w"), 60)
    assert klass == "lost" and "result0.npy" in message


def test_an_input_that_must_fail_and_exits_0_is_accepted(tmp_path, monkeypatch):
    ex = _fake_tool(monkeypatch, lambda argv: 0)
    case = Case("opt", "t", ["{dir}/in.mlir"], {"in.mlir": b""}, must_fail="mesh axis x named twice")
    assert ex.run_case(case, str(tmp_path / "w"), 60)[0] == "accepted"


def test_an_exit_code_that_depends_on_stderr_is_unread(tmp_path, monkeypatch):
    def says_then_fails(argv):  # the old bug: a message that cannot be written turned into exit 0
        try:
            print("in.mlir:1:1: error: bad\nx\n^", file=sys.stderr, flush=True)
        except BrokenPipeError:
            return 0
        return 1

    ex = _fake_tool(monkeypatch, says_then_fails)
    case = Case("opt", "t", ["{dir}/in.mlir"], {"in.mlir": b""}, stderr_closed=True)
    # tool_main keeps stderr writes from failing (LossyStream), so the real tools pass ...
    assert ex.run_case(case, str(tmp_path / "w"), 60)[0] == "located"
    # ... and without it the harness sees the exit code change
    monkeypatch.setattr(ex, "tool_main", _plain_tool_main)
    klass, message = ex.run_case(case, str(tmp_path / "w"), 60)
    assert klass == "unread" and "closed pipe: exit 0" in message


def _plain_tool_main(prog, run, argv):
    sys.exit(run(argv))


def test_the_real_tools_keep_their_exit_code_with_stderr_closed(tmp_path):
    bad = Case("opt", "t", ["{dir}/in.mlir"], {"in.mlir": b"module {\n  \xff\n}\n"}, stderr_closed=True)
    onto = Case("opt", "t", ["{dir}/in.mlir", "--split-input-file", "-o", "{dir}/in.mlir"],
                {"in.mlir": b"func.func @f() {\n  func.return\n}\n// -----\nfunc.func @g() {\n  %0 = \"t.x\"() : () -> ()\n}\n"})
    pool = Pool(1, time_limit=60, mem_limit_mb=2048, scratch=str(tmp_path))
    got = {i: (k, m) for i, _, k, m in pool.run([bad, onto])}
    assert got[0][0] == "located" and got[1][0] == "located"


def test_the_mutator_makes_the_missed_classes():
    m = Mutator(load_corpus(), random.Random(11))
    cases = [m.case() for _ in range(3000)]
    origins = " ".join(c.origin for c in cases)
    for name in ("nest", "mesh-axes", "o-onto-input", "huge-mesh", "npz"):
        assert f" {name}" in origins or f"[{name}" in origins, name
    reasons = " ".join(c.must_fail for c in cases)
    assert "nested" in reasons and "named twice" in reasons and "--input x.np" in reasons
    assert any(c.stderr_closed for c in cases)
    onto = [c for c in cases if "o-onto-input" in c.origin]
    assert all("--split-input-file" in c.argv and c.argv[-2:] == ["-o", "{dir}/in.mlir"] for c in onto)
