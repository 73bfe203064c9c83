"""meshc's located parser reads what xDSL's parser reads, parsing a repeated plain function type or
flat attribute dictionary once per spelling (meshc/located_parser.py)."""

import pytest
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError

from meshc.driver import make_context, parse_source
from meshc.errors import DiagnosticError
from meshc.located_parser import LocatingParser

REPEATS = (
    'func.func @f(%x: tensor<4x8xf32>, %y: tensor<8xf32>) -> tensor<4x8xf32> {\n'
    '  %0 = "ttir.add"(%x, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>\n'
    '  %1 = "ttir.add"(%0, %0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>\n'
    '  %2 = "ttir.sum"(%1) {dim_arg = [1 : i32], keep_dim = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>\n'
    '  %3 = "ttir.sum"(%1) {dim_arg = [1 : i32], keep_dim = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>\n'
    '  %4 = "ttir.sum"(%1) {dim_arg = [1 : i32], // a comment after an entry\n'
    '                       keep_dim = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>\n'
    '  %5 = "ttir.sum"(%1) {dim_arg = [1 : i32], keep_dim = true} // a comment after the dictionary\n'
    '         : (tensor<4x8xf32>) -> tensor<4x1xf32>\n'
    '  %6 = "ttir.sum"(%1) {dim_arg = [1 : i32], keep_dim = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>\n'
    '  %7 = "arith.constant"() {value = 2 : i32} : () -> i32\n'
    '  %8 = "arith.constant"() {value = 2 : i32} : () -> i32\n'
    '  %9:2 = "test.pair"(%y) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)\n'
    '  %10:2 = "test.pair"(%y) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)\n'
    '  "test.none"() : () -> ()\n'
    '  "test.none"() : () -> ()\n'
    '  func.return %0 : tensor<4x8xf32>\n}\n')


def _generic(module) -> str:
    from io import StringIO

    out = StringIO()
    Printer(stream=out, print_generic_format=True).print_op(module)
    return out.getvalue()


def test_repeated_spellings_read_as_xdsl_reads_them():
    ctx = make_context(allow_unregistered=True)
    ours = LocatingParser(ctx, REPEATS, "r.mlir").parse_module()
    theirs = Parser(ctx, REPEATS, "r.mlir").parse_module()
    assert _generic(ours) == _generic(theirs)
    sums = [o for o in ours.walk() if o.name == "ttir.sum"]
    assert len(sums) == 5 and all(set(o.attributes) == {"dim_arg", "keep_dim"} for o in sums)
    consts = [o for o in ours.walk() if o.name == "arith.constant"]
    # `value` is arith.constant's property: moved out of each op's own copy of the dictionary
    assert [str(c.properties["value"]) for c in consts] == ["2 : i32", "2 : i32"]
    assert consts[0].attributes is not consts[1].attributes


def test_each_spelling_is_parsed_once(monkeypatch):
    calls = {"function": 0, "dict": 0}
    fn, dct = Parser.parse_optional_function_type, Parser.parse_optional_attr_dict

    def count_fn(self):  # (xDSL asks for a function type before every builtin type: count the ones found)
        value = fn(self)
        calls["function"] += value is not None
        return value

    def count_dict(self):
        value = dct(self)
        calls["dict"] += bool(value)
        return value

    monkeypatch.setattr(Parser, "parse_optional_function_type", count_fn)
    monkeypatch.setattr(Parser, "parse_optional_attr_dict", count_dict)
    LocatingParser(make_context(allow_unregistered=True), REPEATS, "r.mlir").parse_module()
    # the function types of plain tensors once each: (4x8, 4x8) -> 4x8, 4x8 -> 4x1 (after a comment
    # too), 8 -> (8, 8), () -> (); () -> i32 has a non-tensor type: both times
    assert calls["function"] == 4 + 2
    # non-empty dictionaries: the sum's and the constant's once each; the one with a comment inside
    assert calls["dict"] == 2 + 1


def test_an_error_after_a_repeated_spelling_is_where_xdsl_puts_it():
    bad = REPEATS.replace('%6 = "ttir.sum"(%1) {dim_arg = [1 : i32], keep_dim = true} :',
                          '%6 = "ttir.sum"(%1) {dim_arg = [1 : i32], keep_dim = true}} :')
    with pytest.raises(DiagnosticError) as e:
        parse_source(make_context(allow_unregistered=True), bad, "b.mlir")
    d = e.value.diagnostics[0]
    # line 10, at the second `}`: 2 + len('%6 = "ttir.sum"(%1) {dim_arg = [1 : i32], keep_dim = true}')
    # = 2 + 58 columns before it
    assert (d.line, d.col) == (10, 61)
    with pytest.raises(ParseError) as plain:
        Parser(make_context(allow_unregistered=True), bad, "b.mlir").parse_module()
    assert (plain.value.span.get_location().line, plain.value.span.get_location().col) == (10, 61)
