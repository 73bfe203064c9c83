"""Located diagnostics for meshc's tools: `file:line:col: error: ...` with the source line.

Everything that reports an error about user input goes through this module:

* `LocatingParser` is xDSL's parser, extended to stamp every parsed operation with a
  `FileLineColLoc` and to turn attribute verification failures into located parse errors.
* `verify_located` verifies a module op by op and reports each failure at its op's location,
  MLIR style: `file:12:3: error: 'ttir.all_gather' op ...`.
* `LocatedError` is what passes and verifiers raise for a failure tied to an op.
* `check_expected_diagnostics` implements `--verify-diagnostics` (`// expected-error @+1 {{...}}`).
"""

from __future__ import annotations

import math
import re
import sys
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from xdsl.dialects.builtin import FileLineColLoc, Float80Type, Float128Type, FloatAttr, IntAttr, ModuleOp, StringAttr
from xdsl.ir import Attribute, Block, OpResult, Operation
from xdsl.parser import Parser
from xdsl.traits import NoTerminator
from xdsl.utils.exceptions import ParseError, VerifyException

from meshc.layout.errors import LayoutError
from meshc.layout.limits import MAX_ATTRIBUTE_ELEMENTS, check_count


@dataclass(frozen=True)
class Diagnostic:
    """One message at one place of one source file."""

    file: str
    line: int
    col: int
    message: str
    severity: str = "error"

    def format(self, source: "SourceFile | None" = None) -> str:
        head = f"{self.file}:{self.line}:{self.col}: {self.severity}: {self.message}"
        if source is None:
            return head
        text = source.line_text(self.line)
        if text is None:
            return head
        caret = " " * (self.col - 1) + "^"
        return f"{head}\n{text}\n{caret}"


@dataclass
class SourceFile:
    """The text of an input file, for quoting the line a diagnostic points at."""

    name: str
    text: str
    _lines: list[str] = field(default_factory=list, init=False, repr=False)

    def __post_init__(self):
        self._lines = self.text.split("\n")

    def line_text(self, line: int) -> str | None:
        if 1 <= line <= len(self._lines):
            return self._lines[line - 1]
        return None

    def position_of(self, offset: int) -> tuple[int, int]:
        """1-based (line, col) of a character offset."""
        line = self.text.count("\n", 0, offset) + 1
        start = self.text.rfind("\n", 0, offset) + 1
        return line, offset - start + 1


def decode_source(data: bytes, name: str) -> str:
    """The text of an input file; bytes that are not UTF-8 raise a DiagnosticError at the first one."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        good = data[: e.start].decode("utf-8")
        line = good.count("\n") + 1
        col = len(good) - (good.rfind("\n") + 1) + 1
        raise DiagnosticError([Diagnostic(name, line, col, f"the input is not valid UTF-8: byte 0x{data[e.start]:02x} "
                                                         f"({e.reason}); MLIR source is UTF-8 text")]) from None


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


class DiagnosticError(Exception):
    """One or more located diagnostics; raised by the tools' front ends."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("\n".join(d.format() for d in diagnostics))
        self.diagnostics = diagnostics


class LocatedError(Exception):
    """An error tied to an operation (or to nothing): raised by verifiers and passes.

    The driver prints it at `op.location`, prefixed with `'op.name' op`.
    """

    def __init__(self, message: str, op: Operation | None = None):
        super().__init__(message)
        self.message = message
        self.op = op


def location_of(op: Operation | None) -> tuple[str, int, int] | None:
    """(file, line, col) of an op, walking up to the nearest located ancestor."""
    while op is not None:
        loc = op.location
        if isinstance(loc, FileLineColLoc):
            return loc.filename.data, loc.line.data, loc.column.data
        op = op.parent_op()
    return None


def op_diagnostic(op: Operation | None, message: str, default_file: str = "<unknown>") -> Diagnostic:
    where = location_of(op)
    text = f"'{op.name}' op {message}" if op is not None else message
    if where is None:
        return Diagnostic(default_file, 0, 0, text)
    return Diagnostic(where[0], where[1], where[2], text)


def stamp_location(op: Operation, file: str, line: int, col: int) -> None:
    op.location = FileLineColLoc(StringAttr(file), IntAttr(line), IntAttr(col))


_PLAIN_TENSOR = re.compile(r"tensor<(?:(?:\d+|\?)x)*[a-z][a-z0-9]*>")
"""A ranked tensor type of a builtin element type without an encoding (`tensor<64x128xf32>`)."""


class LocatingParser(Parser):
    """xDSL's parser, with locations on ops and located attribute verification errors.

    A plain tensor type (`_PLAIN_TENSOR`) is parsed once per spelling: later occurrences reuse the
    type parsed first (types are immutable values; MLIR uniques them the same way), which spares
    re-lexing and re-verifying the type every op of a long program repeats."""

    _line_starts: list[int] | None = None
    _types: dict[str, Attribute] | None = None

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
            stamp_location(op, self.lexer.input.name, line, col)
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
        start = self._current_token.span.start
        content = self.lexer.input.content
        if not content.startswith("tensor<", start) or (m := _PLAIN_TENSOR.match(content, start)) is None:
            return self._located(super().parse_optional_type, "type")
        if self._types is None:
            self._types = {}
        hit = self._types.get(m.group())
        if hit is not None:
            self._resume_from(m.end())
            return hit
        value = self._located(super().parse_optional_type, "type")
        if value is not None and self._current_token.span.start >= m.end():
            self._types[m.group()] = value
        return value

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


def parse_error_diagnostic(e: ParseError) -> Diagnostic:
    loc = e.span.get_location()
    name = getattr(loc, "filename", None) or e.span.input.name
    return Diagnostic(name, loc.line, loc.col, e.msg)


# ----------------------------------------------------------------------------- verification

TypeChecker = Callable[[Attribute], None]
"""A check of one type (e.g. a tensor against its layout encoding); raises VerifyException."""

_type_checkers: list[TypeChecker] = []

OpChecker = Callable[[Operation], None]
"""A check of one op that needs more than the op itself (e.g. a module's device against its system)."""

_op_checkers: list[OpChecker] = []


def register_op_checker(check: OpChecker) -> None:
    """Dialects register checks run on every op after its own verifier; they raise LocatedError."""
    if check not in _op_checkers:
        _op_checkers.append(check)


def register_type_checker(check: TypeChecker) -> None:
    """Dialects register checks that need a whole type (a tensor and its encoding)."""
    if check not in _type_checkers:
        _type_checkers.append(check)


def _check_types(op: Operation, checked: dict[int, Attribute]) -> None:
    """Run the type checkers on op's types; `checked` holds the types already found good in this
    verification (by id, holding the type so its id stays its own): a program repeats a handful
    of types on thousands of ops, and a check depends on the type alone."""
    types = [r.type for r in op.results] + [o.type for o in op.operands]
    for region in op.regions:
        for block in region.blocks:
            types += [a.type for a in block.args]
    for t in types:
        if id(t) in checked:
            continue
        for check in _type_checkers:
            check(t)
        checked[id(t)] = t


def _walk_skipping(op: Operation, skip: Callable[[Operation], bool]) -> Iterable[Operation]:
    """op and the ops nested in it, in text order, leaving out every op `skip` accepts (and its body)."""
    stack = [op]
    while stack:
        cur = stack.pop()
        yield cur
        for region in reversed(cur.regions):
            for block in reversed(region.blocks):
                stack.extend(o for o in reversed(list(block.ops)) if not skip(o))


def verify_located(module: Operation, file: str = "<unknown>",
                   skip: Callable[[Operation], bool] | None = None) -> list[Diagnostic]:
    """Verify every op; return one located diagnostic per failing op (MLIR reports them all).

    Ops that `skip` accepts are left out with their bodies (the driver skips a reference program
    it verified before: meshc/dialects/reference.py). The ops nested in an op that fails its own
    verifier are not verified: their verifiers may read the parent's attributes (a kernel op its
    program's `grid`, a return its function's type), which are then missing or malformed."""
    diags: list[Diagnostic] = []
    defined: set[int] = set()
    checked: dict[int, Attribute] = {}
    broken: set[int] = set()
    for op in (module.walk() if skip is None else _walk_skipping(module, skip)):  # pre-order: parents first
        parent = op.parent_op()
        if parent is not None and id(parent) in broken:
            broken.add(id(op))
            defined.update(id(r) for r in op.results)
            continue
        late = _used_before_defined(op, defined, file)
        if late is not None:
            diags.append(late)
        try:
            try:
                op.verify(verify_nested_ops=False)
            except (LocatedError, VerifyException):
                if op.regions:
                    broken.add(id(op))
                raise
            _check_empty_blocks(op)
            _check_types(op, checked)
            for check in _op_checkers:
                check(op)
        except LocatedError as e:
            diags.append(op_diagnostic(e.op or op, e.message, file))
        except VerifyException as e:
            diags.append(op_diagnostic(op, _first_line(str(e)), file))
    return diags


def _check_empty_blocks(op: Operation) -> None:
    """MLIR's 'empty block' error: a single-block region of an op that needs a terminator holds a
    block without one (`func.func @f() {}`). xDSL checks this in Block.verify, which a verification
    that does not recurse (verify_nested_ops=False, as here) never reaches."""
    if op.has_trait(NoTerminator):
        return
    for region in op.regions:
        if len(region.blocks) == 1 and region.blocks.first.first_op is None:
            raise VerifyException("empty block: expected at least a terminator (e.g. func.return) in its "
                                  "single-block region")


def _used_before_defined(op: Operation, defined: set[int], file: str) -> Diagnostic | None:
    """An op using a result of an op that comes after it (swapped ops): MLIR's dominance error.

    `defined` holds the results of the ops walked so far (walk order is text order)."""
    bad = None
    for i, v in enumerate(op.operands):
        if isinstance(v, OpResult) and id(v) not in defined and bad is None:
            bad = (i, v)
    for r in op.results:
        defined.add(id(r))
    if bad is None:
        return None
    i, v = bad
    name = f" (%{v.name_hint})" if v.name_hint else ""
    where = location_of(v.op)
    at = f" at line {where[1]}" if where is not None else ""
    return op_diagnostic(op, f"operand #{i}{name} does not dominate this use: it is defined by "
                             f"'{v.op.name}'{at}, after this op", file)


def _first_line(msg: str) -> str:
    return msg.strip().split("\n")[0]


# ----------------------------------------------------------------------------- expected-error

_EXPECTED = re.compile(
    r"expected-(error|note|remark|warning)(-re)?\s*(@([+-]\d+|above|below))?\s*\{\{(.*?)\}\}"
)


@dataclass
class Expectation:
    line: int
    severity: str
    text: str
    regex: bool
    matched: bool = False


def collect_expectations(text: str, first_line: int = 1) -> list[Expectation]:
    """`// expected-error @+1 {{message}}` annotations of a chunk, by absolute line."""
    out: list[Expectation] = []
    lines = text.split("\n")
    for i, line in enumerate(lines):
        lineno = first_line + i
        for m in _EXPECTED.finditer(line):
            sev, is_re, _, off, msg = m.groups()
            target = lineno
            if off == "above":
                target = lineno - 1
            elif off == "below":
                target = lineno + 1
            elif off:
                target = lineno + int(off)
            out.append(Expectation(target, sev, msg, is_re is not None))
    return out


def check_expected_diagnostics(
    expectations: list[Expectation], produced: Iterable[Diagnostic], file: str
) -> list[str]:
    """MLIR's --verify-diagnostics: every produced diagnostic expected, every expectation met."""
    problems: list[str] = []
    for d in produced:
        hit = None
        for ex in expectations:
            if ex.matched or ex.line != d.line or ex.severity != d.severity:
                continue
            ok = re.search(ex.text, d.message) if ex.regex else ex.text in d.message
            if ok:
                hit = ex
                break
        if hit is None:
            problems.append(f"{d.file}:{d.line}:{d.col}: error: unexpected {d.severity}: {d.message}")
        else:
            hit.matched = True
    for ex in expectations:
        if not ex.matched:
            problems.append(
                f"{file}:{ex.line}:1: error: expected {ex.severity} \"{ex.text}\" was not produced"
            )
    return problems
