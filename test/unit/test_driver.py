"""The compiler driver: chunk splitting keeps line numbers, aliases hoist long attributes once."""

from meshc.errors import Diagnostic, SourceFile

from meshc.verify_diagnostics import check_expected_diagnostics, collect_expectations
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
    # MLIR's rules: @above is the last line above holding no designator (line 3 holds one, so
    # line 2); an unmet designator is reported where it is written (line 3, its `expected-` at 5)
    text = "// expected-error @+1 {{boom}}\nop\nop2 // expected-error {{bang}}\n// expected-error @above {{z}}"
    exps = collect_expectations(text)
    assert [(e.line, e.text) for e in exps] == [(2, "boom"), (3, "bang"), (2, "z")]
    produced = [Diagnostic("f", 2, 1, "a boom here"), Diagnostic("f", 5, 1, "surprise"),
                Diagnostic("f", 2, 1, "z", "warning")]
    problems = [d.format() for d in check_expected_diagnostics(exps, produced, "f")]
    assert problems == [
        "f:5:1: error: unexpected error: surprise",
        "f:4:4: error: 'warning' diagnostic emitted when expecting a 'error'",
        'f:3:8: error: expected error "bang" was not produced',
        'f:4:4: error: expected error "z" was not produced',
    ]


def test_expected_diagnostics_unknown_location():
    # a diagnostic with no location (line 0) is met by @unknown only, not by an offset that lands
    # on line 0 (@-2 on line 2)
    exps = collect_expectations("a\n// expected-error @-2 {{x}}\n// expected-warning @unknown {{y}}")
    produced = [Diagnostic("f", 0, 0, "x"), Diagnostic("f", 0, 0, "y here", "warning")]
    problems = [d.format() for d in check_expected_diagnostics(exps, produced, "f")]
    assert problems == ["f:0:0: error: unexpected error: x", 'f:2:4: error: expected error "x" was not produced']


def _ops(module, name):
    return [o for o in module.walk() if o.name == name]


def test_plain_tensor_types_are_parsed_once_per_spelling():
    from meshc.driver import make_context, parse_source

    text = ('func.func @f(%x: tensor<4x8xf32>, %y: tensor<8x4xbf16>) -> tensor<4x8xf32> {\n'
            '  %0 = "ttir.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>\n'
            '  %1 = "ttir.relu"(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>\n'
            '  %2 = "ttir.exp"(%y) : (tensor<8x4xbf16>) -> tensor<8x4xbf16>\n'
            '  func.return %1 : tensor<4x8xf32>\n}\n')
    m = parse_source(make_context(), text, "t.mlir")
    a, b = _ops(m, "ttir.exp")[0], _ops(m, "ttir.relu")[0]
    assert a.results[0].type is b.results[0].type is b.operands[0].type  # one object per spelling
    c = _ops(m, "ttir.exp")[1]
    assert c.results[0].type.get_shape() == (8, 4) and str(c.results[0].type.element_type) == "bf16"
    assert str(a.results[0].type) == "tensor<4x8xf32>"


def test_a_bad_type_after_a_good_one_of_the_same_form_is_located():
    import pytest

    from meshc.errors import DiagnosticError
    from meshc.driver import make_context, parse_source

    text = ('func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n'
            '  %0 = "ttir.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n'
            '  %1 = "ttir.exp"(%0) : (tensor<4xf32>) -> tensor<4xfoo>\n'
            '  func.return %0 : tensor<4xf32>\n}\n')
    with pytest.raises(DiagnosticError) as e:
        parse_source(make_context(), text, "t.mlir")
    # line 3, at `foo`: 7 + 10 + 4 + 3 + 15 + 4 + len('tensor<4x') = 52 columns before it
    assert (e.value.diagnostics[0].line, e.value.diagnostics[0].col) == (3, 53)


REFERENCE_WITH_A_BAD_OP = (
    'module {\n'
    '  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n'
    '    func.return %x : tensor<4xf32>\n  }\n'
    '  module attributes {meshc.reference} {\n'
    '    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n'
    '      %0 = "ttir.exp"(%x) : (tensor<4xf32>) -> tensor<8xf32>\n'
    '      func.return %x : tensor<4xf32>\n    }\n  }\n}\n')


def test_verification_can_leave_out_reference_programs():
    from meshc.verify import verify_located
    from meshc.dialects.reference import is_reference
    from meshc.driver import make_context, parse_source

    m = parse_source(make_context(), REFERENCE_WITH_A_BAD_OP, "r.mlir")
    assert [d.line for d in verify_located(m, "r.mlir")] == [7]  # the input's reference is verified
    assert verify_located(m, "r.mlir", skip=is_reference) == []  # as after a pass: left out


def test_type_checks_run_once_per_good_type_and_again_for_a_bad_one():
    from xdsl.utils.exceptions import VerifyException

    from meshc.dialects import checkers
    from meshc.verify import verify_located
    from meshc.driver import make_context, parse_source

    seen = []

    def check(t):
        seen.append(str(t))
        if "bf16" in str(t):
            raise VerifyException("no bf16 here")

    text = ('func.func @f(%x: tensor<4xf32>, %y: tensor<4xbf16>) -> tensor<4xf32> {\n'
            '  %0 = "ttir.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n'
            '  %1 = "ttir.exp"(%y) : (tensor<4xbf16>) -> tensor<4xbf16>\n'
            '  %2 = "ttir.exp"(%y) : (tensor<4xbf16>) -> tensor<4xbf16>\n'
            '  func.return %0 : tensor<4xf32>\n}\n')
    m = parse_source(make_context(), text, "c.mlir")
    checkers.register_type_checker(check)
    try:
        diags = verify_located(m, "c.mlir")
    finally:
        checkers.unregister_type_checker(check)
    assert [d.line for d in diags] == [1, 3, 4]  # every op holding the bad type is reported
    assert seen.count("tensor<4xf32>") == 1


def test_aliased_text_is_the_inline_text_with_each_alias_defined_once():
    """The aliased output (a function type of tensor types rendered once per set of types, the
    aliases made as they are met) is the inline output with the `#alias = ...` lines substituted
    back, for a lowered program whose types carry layouts."""
    import re
    from pathlib import Path

    from meshc import compile as compile_

    text = (Path(__file__).parents[2] / "examples" / "mlp_global.mlir").read_text()
    m = compile_(text, "ttir-to-ttnn-pipeline{system=t3k mesh-shape=2,4}")
    aliased, inline = print_module(m), print_module(m, aliases=False)
    head = [line for line in aliased.split("\n") if re.match(r"#\w+ = ", line)]
    defs = dict(line.split(" = ", 1) for line in head)
    assert len(defs) == len(set(defs.values())) >= 3  # each distinct attribute once
    body = aliased.split("\n", len(head))[-1]
    names = sorted(defs, key=len, reverse=True)  # #ttnn_layout10 before #ttnn_layout1
    expanded = re.sub("|".join(re.escape(n) + r"\b" for n in names), lambda a: defs[a.group()], body)
    assert expanded == inline
