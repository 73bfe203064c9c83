"""xDSL's parser with located errors, and the reading of a tool's input text.

`LocatingParser` stamps every parsed operation with a `FileLineColLoc` and turns attribute and
type failures into located parse errors; `read_source` / `decode_source` read an input file as
UTF-8, refusing other bytes at the first one.
"""

from __future__ import annotations

import math
import re
import sys
from bisect import bisect_right

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (BFloat16Type, BytesAttr, DenseIntOrFPElementsAttr, FileLineColLoc, Float16Type,
                                   Float32Type, Float64Type, Float80Type, Float128Type, FloatAttr,
                                   FunctionType, IntAttr, StringAttr)
from xdsl.ir import Attribute, Block, Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError, VerifyException

from meshc.errors import Diagnostic, DiagnosticError, first_line as _first_line
from meshc.layout.errors import LayoutError
from meshc.layout.limits import MAX_ATTRIBUTE_ELEMENTS, MAX_NESTING, check_count


def decode_source(data: bytes, name: str) -> str:
    """The text of an input file; bytes that are not UTF-8 raise a DiagnosticError at the first
    one, and so does a bracket nested deeper than MAX_NESTING (`check_nesting`)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise DiagnosticError([_at(data, e.start, name, f"the input is not valid UTF-8: byte 0x{data[e.start]:02x} "
                                                       f"({e.reason}); MLIR source is UTF-8 text")]) from None
    check_nesting(data, name)
    return text


def _at(data: bytes, offset: int, name: str, message: str) -> Diagnostic:
    """A diagnostic at byte `offset` of the (UTF-8 up to there) input `data`."""
    good = data[:offset].decode("utf-8", errors="replace")
    line = good.count("\n") + 1
    col = len(good) - (good.rfind("\n") + 1) + 1
    return Diagnostic(name, line, col, message)


_NOT_BRACKETS = re.compile(rb'"(?:[^"\\\n]|\\.)*"|//[^\n]*|->|>=|<=')
"""What holds bracket characters that open or close nothing: string literals, comments, `->`
(function types, affine maps) and the comparisons of integer sets."""
_DEPTH_STEP = np.zeros(256, np.int8)
"""+1 for a byte that opens a bracket, -1 for one that closes it, 0 for the others."""
_DEPTH_STEP[np.frombuffer(b"([{<", np.uint8)] = 1
_DEPTH_STEP[np.frombuffer(b")]}>", np.uint8)] = -1
_SCAN_BLOCK = 1 << 24


def check_nesting(data: bytes, name: str) -> None:
    """Refuse, at the first bracket past the limit, input whose brackets nest deeper than
    MAX_NESTING (meshc.layout.limits): the parsers recurse a level at a time. One vectorised pass
    over the bytes (a running sum of +1 an opening bracket, -1 a closing one) before any parsing."""
    if sum(data.count(c) for c in (b"(", b"[", b"{", b"<")) <= MAX_NESTING:
        return  # cannot nest deeper than it has brackets
    blank = _NOT_BRACKETS.sub(lambda m: b" " * len(m.group()), data)
    depth = 0
    for start in range(0, len(blank), _SCAN_BLOCK):  # blocks bound the int64 running sums' memory
        a = np.frombuffer(blank, np.uint8, count=min(_SCAN_BLOCK, len(blank) - start), offset=start)
        running = depth + np.cumsum(_DEPTH_STEP[a], dtype=np.int64)
        over = np.flatnonzero(running > MAX_NESTING)
        if over.size:
            raise DiagnosticError([_at(data, start + int(over[0]), name,
                                       f"brackets nest {MAX_NESTING + 1} deep here, more than meshc reads "
                                       f"({MAX_NESTING}, meshc.layout.limits.MAX_NESTING: its parsers recurse once a "
                                       "level); flatten the input")])
        depth = int(running[-1]) if running.size else depth


def read_source(prog: str, path: str | None) -> tuple[str, str] | None:
    """(name, text) of a tool's input file (stdin for None or `-`); None, after printing why as
    `prog`, when the file cannot be read or is not UTF-8 (a located error at the first bad byte)."""
    if path is None or path == "-":
        name, data = "<stdin>", sys.stdin.buffer.read()
    else:
        name = path
        try:
            with open(name, "rb") as f:
                data = f.read()
        except OSError as e:
            print(f"{prog}: error: cannot read '{name}': {e.strerror}", file=sys.stderr)
            return None
    try:
        return name, decode_source(data, name)
    except DiagnosticError as e:
        print("\n".join(d.format() for d in e.diagnostics), file=sys.stderr)
        return None


_PLAIN = r"tensor<(?:(?:\d+|\?)x)*[a-z][a-z0-9]*>"
_PLAIN_TENSOR = re.compile(_PLAIN)
"""A ranked tensor type of a builtin element type without an encoding (`tensor<64x128xf32>`)."""
_PLAIN_LIST = rf"\((?:{_PLAIN}(?:, {_PLAIN})*)?\)"
_PLAIN_FUNCTION_TYPE = re.compile(rf"{_PLAIN_LIST} -> (?:{_PLAIN}|{_PLAIN_LIST})")
"""A function type of plain tensor types (`(tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>`), the
trailing type of nearly every generic op of a ttir program."""
_FLAT_DICT = re.compile(r'\{[^{}"/]*\}')
"""An attribute dictionary with no dictionary, string or comment in it (`{dim_arg = [1 : i32], keep_dim = true}`)."""


_FLOAT_BITS = {BFloat16Type: (np.uint16, ml_dtypes.bfloat16), Float16Type: (np.uint16, np.float16),
               Float32Type: (np.uint32, np.float32), Float64Type: (np.uint64, np.float64)}
"""Float element types whose hex literals are bit patterns: (the unsigned integer of their width,
the numpy type the bits are viewed as)."""


def float_from_bits(bits: int, element_type: Attribute) -> float:
    """The value whose bit pattern in `element_type` (bf16, f16, f32, f64) is `bits`."""
    uint, host = _FLOAT_BITS[type(element_type)]
    return float(np.array([bits], uint).view(host)[0])


class LocatingParser(Parser):
    """xDSL's parser, with locations on ops and located attribute verification errors.

    A plain tensor type (`_PLAIN_TENSOR`), a function type of them (`_PLAIN_FUNCTION_TYPE`) and a
    generic op's attribute dictionary without nested dictionaries or strings (`_FLAT_DICT`) are
    parsed once per spelling: later occurrences reuse the values parsed first (types and attributes
    are immutable values; MLIR uniques them the same way; an alias a spelling names cannot be
    redefined), which spares re-lexing and re-verifying what every op of a long program repeats.
    Only a spelling parsed without error, to exactly its end, is reused, so errors are those of
    xDSL's parser."""

    _line_starts: list[int] | None = None
    _types: dict[str, Attribute] | None = None
    _function_types: dict[str, FunctionType] | None = None
    _attr_dicts: dict[str, dict[str, Attribute]] | None = None
    _literal_spans: list | None = None
    """The spans of the elements of the dense literal being parsed, in order (to find hex ones)."""

    _file: StringAttr | None = None
    _ints: dict[int, IntAttr] | None = None

    def _file_attr(self) -> StringAttr:
        """The input's name as the one StringAttr every location of this parse shares."""
        if self._file is None:
            self._file = StringAttr(self.lexer.input.name)
        return self._file

    def _int_attr(self, n: int) -> IntAttr:
        """IntAttr(n), made once for each column the ops start at."""
        if self._ints is None:
            self._ints = {}
        hit = self._ints.get(n)
        if hit is None:
            hit = self._ints[n] = IntAttr(n)
        return hit

    def _line_col(self, offset: int) -> tuple[int, int]:
        """1-based (line, col) of an input offset, by bisection over the line starts (linear overall;
        xDSL's Span.get_location counts newlines from the file's start on every call)."""
        if self._line_starts is None:
            content = self.lexer.input.content
            nl = "\n" if isinstance(content, str) else b"\n"
            starts = [0]
            i = content.find(nl)
            while i != -1:
                starts.append(i + 1)
                i = content.find(nl, i + 1)
            self._line_starts = starts
        line = bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        try:
            op = super().parse_operation()
        except VerifyException as e:  # an op's assembly format checking its types while parsing
            self.raise_error(_first_line(str(e)), start, max(self.pos, start + 1))
        if not isinstance(op.location, FileLineColLoc):
            line, col = self._line_col(start)
            op.location = FileLineColLoc(self._file_attr(), IntAttr(line), self._int_attr(col))
        return op

    def _parse_block(self) -> Block:
        return self._block_label(super()._parse_block)

    def parse_optional_successor(self) -> Block | None:
        return self._block_label(super().parse_optional_successor)

    def _block_label(self, parse):
        """xDSL names a block after its label without checking it first (`^0xbb0`); a label it
        refuses becomes a parse error at the label."""
        start = self._current_token.span.start
        try:
            return parse()
        except ValueError as e:
            if "Invalid Block name" not in str(e):
                raise
            self.raise_error("invalid block label: expected `^` and a name that starts with a letter or `_` "
                             "(`^bb0`, `^exit`)", start, max(self.pos, start + 1))

    def parse_optional_attribute(self):  # type: ignore[override]
        return self._located(super().parse_optional_attribute, "attribute")

    def parse_optional_type(self):  # type: ignore[override]
        return self._reused("tensor<", _PLAIN_TENSOR, "_types",
                            lambda: self._located(super(LocatingParser, self).parse_optional_type, "type"))

    def parse_optional_function_type(self) -> FunctionType | None:  # type: ignore[override]
        return self._reused("(", _PLAIN_FUNCTION_TYPE, "_function_types", super().parse_optional_function_type)

    def parse_optional_attr_dict(self) -> dict[str, Attribute]:
        return self._reused("{", _FLAT_DICT, "_attr_dicts", super().parse_optional_attr_dict,
                            copy=dict)  # the caller moves properties out of the dict it gets

    def _reused(self, prefix: str, spelling: re.Pattern, cache: str, parse, copy=None):
        """`parse()`, or the value parsed before for the same text when the text at the current
        token matches `spelling` (a cheap `prefix` test first); a value is remembered (in the
        per-parser dict named `cache`) only when its parse ended exactly at the spelling's end.
        `copy` (if given) is applied to what is remembered and to what a reuse returns."""
        start = self._current_token.span.start
        content = self.lexer.input.content
        if not content.startswith(prefix, start) or (m := spelling.match(content, start)) is None:
            return parse()
        seen = getattr(self, cache)
        if seen is None:
            seen = {}
            setattr(self, cache, seen)
        hit = seen.get(m.group())
        if hit is not None:
            self._resume_from(m.end())
            return hit if copy is None else copy(hit)
        value = parse()
        if value is not None and self._parsed_to(m.end()):
            seen[m.group()] = value if copy is None else copy(value)
        return value

    def _parsed_to(self, end: int) -> bool:
        """Whether the last token parsed ends at `end`: only white space lies between `end` and the
        next token (a token running past `end`, or a comment after it, leaves other text there)."""
        start = self._current_token.span.start
        return start >= end and not self.lexer.input.content[end:start].strip()

    def _located(self, parse, kind: str):
        """Run `parse`; a value xDSL refuses while building the attribute or type (an integer out of
        its type's range, an affine expression it cannot represent, a literal its parser asserts
        on) becomes a parse error at it."""
        start = self._current_token.span.start
        try:
            value = parse()
        except ParseError:
            raise
        except (VerifyException, ValueError, ArithmeticError, NotImplementedError, AssertionError) as e:
            msg = _first_line(str(e)) or type(e).__name__
            if isinstance(e, ZeroDivisionError):
                msg = "division by zero"
            elif isinstance(e, AssertionError):  # xDSL's parser asserts on some values its type cannot hold
                msg = "a value its type cannot hold (e.g. a hex literal for a complex element type)"
            self.raise_error(f"invalid {kind}: {msg}", start, max(self.pos, start + 1))
        if isinstance(value, FloatAttr) and isinstance(value.type, (Float80Type, Float128Type)):
            # xDSL cannot print or pack an f80 / f128 value
            self.raise_error(f"invalid {kind}: {value.type} float values are not supported; use f16, bf16, "
                             "f32 or f64", start, max(self.pos, start + 1))
        return value

    def _parse_tensor_literal_element(self):  # type: ignore[override]
        element = super()._parse_tensor_literal_element()
        if self._literal_spans is not None:
            self._literal_spans.append(element.span)
        return element

    def parse_dense_int_or_fp_elements_attr(self, literal_type):  # type: ignore[override]
        """A dense literal, where a hexadecimal element of a float type (`dense<0xFF80> :
        tensor<4xbf16>`) is its bit pattern in that type, as in MLIR (xDSL reads it as the integer
        65408); its printer writes inf and nan this way, so its output reads back exactly."""
        outer, self._literal_spans = self._literal_spans, []
        try:
            attr = super().parse_dense_int_or_fp_elements_attr(literal_type)
            spans = self._literal_spans
        finally:
            self._literal_spans = outer
        element_type = attr.get_element_type()
        hexes = [(i, sp) for i, sp in enumerate(spans) if "0x" in sp.text[:3].lower()]
        if not hexes or type(element_type) not in _FLOAT_BITS:
            return attr
        uint = np.dtype(_FLOAT_BITS[type(element_type)][0]).newbyteorder("<")  # xDSL packs little-endian
        width = uint.itemsize * 8
        bits = np.frombuffer(attr.data.data, dtype=uint).copy()
        for i, sp in hexes:
            text = sp.text
            if text.startswith("-"):
                self.raise_error(f"hexadecimal float literal should not have a leading minus: {text} is a bit "
                                 f"pattern of {element_type}; write the sign bit into it", sp.start, sp.end)
            value = int(text, 16)
            if value >> width:
                self.raise_error(f"hexadecimal float constant out of range for {element_type}: {text} has more "
                                 f"than {width} bits", sp.start, sp.end)
            if len(spans) == 1:  # a splat
                bits[:] = value
            else:
                bits[i] = value
        return DenseIntOrFPElementsAttr(attr.type, BytesAttr(bits.tobytes()))

    def _parse_dense_literal_type(self):  # type: ignore[override]
        """The type of a `dense<...>` attribute, refused when it has more elements than
        MAX_ATTRIBUTE_ELEMENTS: xDSL expands a splat to one Python value per element."""
        start = self._current_token.span.start
        t = super()._parse_dense_literal_type()
        try:
            check_count(math.prod(t.get_shape()), MAX_ATTRIBUTE_ELEMENTS, f"dense attribute of type {t}", "elements")
        except LayoutError as e:
            self.raise_error(f"invalid attribute: {e}", start, max(self.pos, start + 1))
        return t

    def _parse_extended_type_or_attribute(self, attr_or_dialect_name: str, is_type: bool):  # type: ignore[override]
        start = self.pos - len(attr_or_dialect_name) - 1
        try:
            return super()._parse_extended_type_or_attribute(attr_or_dialect_name, is_type)  # type: ignore[call-overload]
        except ParseError:
            raise
        except (VerifyException, ValueError) as e:
            kind = "type" if is_type else "attribute"
            prefix = "!" if is_type else "#"
            self.raise_error(f"invalid {kind} '{prefix}{attr_or_dialect_name}': {e}", start, self.pos)


_SIGIL_EXAMPLES = {"%": "%x or %0", "^": "^bb0", "#": "#map or #tt.device<...>", "!": "!ttnn.device"}


def parse_error_diagnostic(e: ParseError) -> Diagnostic:
    loc = e.span.get_location()
    name = getattr(loc, "filename", None) or e.span.input.name
    msg = e.msg
    if "{first_char}" in msg:  # xDSL 0.74's lexer leaves this placeholder unformatted
        sigil = e.span.text[:1]
        msg = (f"expected a name after '{sigil}'" +
               (f" (e.g. {_SIGIL_EXAMPLES[sigil]})" if sigil in _SIGIL_EXAMPLES else ""))
    return Diagnostic(name, loc.line, loc.col, msg)
