"""The error types every layer above the placement model raises and the tools print.

`Diagnostic` is one `file:line:col: error: ...` message (with its source line when printed);
`DiagnosticError` carries several; `LocatedError` is what verifiers and passes raise for a failure
tied to an op, printed at the op's location. Nothing here parses or verifies: the located parser
is `meshc/located_parser.py`, op-by-op verification `meshc/verify.py`, `--verify-diagnostics`
`meshc/verify_diagnostics.py`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr
from xdsl.ir import Operation


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


_collectors: list[list[Diagnostic]] = []


@contextmanager
def collecting_warnings() -> Iterator[list[Diagnostic]]:
    """Inside the block, `warn` appends its warnings to the list yielded instead of printing them
    (meshc-opt --verify-diagnostics checks them against the input's `expected-warning`s)."""
    got: list[Diagnostic] = []
    _collectors.append(got)
    try:
        yield got
    finally:
        _collectors.pop()


def warn(op: Operation | None, message: str) -> None:
    """Print a located warning (`file:line:col: warning: 'op' op message`) on stderr: a change a
    pass makes to what the input said (e.g. a result type retyped to the shape TTNN yields).
    Inside `collecting_warnings` it is collected instead."""
    d = replace(op_diagnostic(op, message), severity="warning")
    if _collectors:
        _collectors[-1].append(d)
    else:
        print(d.format(), file=sys.stderr)


def stamp_location(op: Operation, file: str, line: int, col: int) -> None:
    op.location = FileLineColLoc(StringAttr(file), IntAttr(line), IntAttr(col))



def first_line(msg: str) -> str:
    """The first line of an exception's message (xDSL's carry the whole op after it)."""
    return msg.strip().split("\n")[0]
