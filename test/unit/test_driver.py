"""The compiler driver: chunk splitting keeps line numbers, aliases hoist long attributes once."""

from meshc.diagnostics import Diagnostic, SourceFile, check_expected_diagnostics, collect_expectations
from meshc import parse
from meshc.driver import print_module, split_chunks


def test_split_chunks_keep_line_numbers():
    text = "a\nb\n// -----\nc\n// -----\nd"
    chunks = split_chunks(text)
    assert len(chunks) == 3
    # line 4 of the file ("c") is line 4 of its chunk, line 6 ("d") line 6 of its chunk
    assert chunks[1].split("\n")[3] == "c"
    assert chunks[2].split("\n")[5] == "d"


def test_aliases_hoist_each_distinct_attribute_once():
    dev = "#tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chipIds = [0]>"
    dev2 = "#tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>"
    text = f"module attributes {{a = {dev}, b = {dev}, c = {dev2}}} {{\n}}\n"
    out = print_module(parse(text))
    lines = out.split("\n")
    assert lines[0] == f"#device = {dev}"
    assert lines[1] == f"#device1 = {dev2}"
    assert "a = #device, b = #device, c = #device1" in out
    assert print_module(parse(out)) == out  # the aliased text parses back to the same module


def test_aliases_leave_text_without_meshc_attributes_alone():
    text = "builtin.module {\n  func.func @f() {\n    func.return\n  }\n}\n"
    assert print_module(parse(text)) == text


def test_diagnostic_format_quotes_the_line():
    src = SourceFile("x.mlir", "first\n  second line\n")
    d = Diagnostic("x.mlir", 2, 3, "bad thing")
    assert d.format(src) == "x.mlir:2:3: error: bad thing\n  second line\n  ^"


def test_expected_diagnostics_offsets_and_mismatches():
    text = "// expected-error @+1 {{boom}}\nop\nop2 // expected-error {{bang}}\n// expected-error @above {{z}}"
    exps = collect_expectations(text)
    assert [(e.line, e.text) for e in exps] == [(2, "boom"), (3, "bang"), (3, "z")]
    produced = [Diagnostic("f", 2, 1, "a boom here"), Diagnostic("f", 5, 1, "surprise")]
    problems = check_expected_diagnostics(exps, produced, "f")
    assert any("unexpected error: surprise" in p for p in problems)
    assert any('expected error "bang" was not produced' in p for p in problems)
    assert not any("boom" in p for p in problems)
