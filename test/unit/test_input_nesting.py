"""The nesting limit of tools' input (meshc.located_parser.check_nesting, MAX_NESTING): measured on
the text before parsing, exact at the limit, blind to brackets that open nothing, the same across
scan blocks; and input nested exactly to the limit parses, prints and verifies without a
RecursionError in every bracket kind (so the limit stays below what the parsers can take)."""

from __future__ import annotations

import pytest

import meshc.located_parser as lp
from meshc.driver import make_context, parse_source, print_module, verify_or_raise
from meshc.errors import DiagnosticError
from meshc.layout.limits import MAX_NESTING


def _refused_at(text: str) -> tuple[int, int] | None:
    try:
        lp.check_nesting(text.encode(), "t.mlir")
    except DiagnosticError as e:
        (d,) = e.diagnostics
        return d.line, d.col
    return None


def test_the_limit_is_exact():
    assert _refused_at("[" * MAX_NESTING + "]" * MAX_NESTING) is None
    # the opening bracket number MAX_NESTING + 1 is at column MAX_NESTING + 1
    assert _refused_at("[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1)) == (1, MAX_NESTING + 1)
    # closed brackets do not add up: many shallow groups are fine
    assert _refused_at("[]" * 10 * MAX_NESTING) is None


def test_position_counts_lines_and_characters():
    text = "// a comment é\nx = é" + "(" * (MAX_NESTING + 1)
    assert _refused_at(text) == (2, len("x = é") + MAX_NESTING + 1)


@pytest.mark.parametrize("filler", ['"' + "(" * 200 + '"', "// " + "{" * 200 + "\n", "<" + "->" * 200 + ">",
                                    "<" + ">=" * 200 + ">", '"\\"' + "[" * 200 + '"'])
def test_brackets_that_open_nothing_do_not_count(filler):
    assert _refused_at(filler * 3) is None


def test_scan_blocks_carry_the_depth(monkeypatch):
    text = ("{}" * 37 + "(") * (MAX_NESTING + 1)
    whole = _refused_at(text)
    monkeypatch.setattr(lp, "_SCAN_BLOCK", 7)
    # after MAX_NESTING units the depth is MAX_NESTING; the next unit's first `{` is one too deep
    assert _refused_at(text) == whole == (1, (2 * 37 + 1) * MAX_NESTING + 1)


def _regions(n: int) -> str:
    return "".join('"test.op"() ({\n' for _ in range(n)) + "".join("}) : () -> ()\n" for _ in range(n))


# each at exactly MAX_NESTING brackets open at once, built from the bracket kinds of MLIR's syntax
AT_LIMIT = {
    "dictionaries": 'func.func @f() attributes {a = ' + "{a = " * (MAX_NESTING - 1) + "1" + "}" * (MAX_NESTING - 1)
                    + "} {\n  func.return\n}\n",
    "arrays": 'func.func @f() attributes {a = ' + "[" * (MAX_NESTING - 1) + "1" + "]" * (MAX_NESTING - 1)
              + "} {\n  func.return\n}\n",
    "types": "func.func @f(%a: " + "tuple<" * (MAX_NESTING - 1) + "i32" + ">" * (MAX_NESTING - 1) + ") {\n  func.return\n}\n",
    "parentheses": "func.func @f() attributes {a = affine_map<(d0) -> (" + "(" * (MAX_NESTING - 3) + "d0"
                   + ")" * (MAX_NESTING - 3) + ")>} {\n  func.return\n}\n",
    "regions": _regions(MAX_NESTING // 2),
    "modules": "module {\n" * MAX_NESTING + "}\n" * MAX_NESTING,
}


@pytest.mark.parametrize("kind", list(AT_LIMIT))
def test_input_at_the_limit_parses_prints_and_verifies(kind):
    text = AT_LIMIT[kind]
    assert _refused_at(text) is None
    assert _refused_at("(" + text + ")") is not None  # it is at the limit: one more level is refused
    module = parse_source(make_context(allow_unregistered=True), text, "t.mlir")
    verify_or_raise(module, "t.mlir")
    again = parse_source(make_context(allow_unregistered=True), print_module(module), "again.mlir")
    verify_or_raise(again, "again.mlir")
