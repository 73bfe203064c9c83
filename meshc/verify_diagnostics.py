"""MLIR's `--verify-diagnostics`: `// expected-error @+1 {{...}}` annotations checked against the
diagnostics a tool produced (errors and the warnings passes emit through `meshc.errors.warn`).

The semantics are mlir-opt's (its SourceMgrDiagnosticVerifierHandler):

- a designator is `expected-(error|warning|remark|note)`, optionally `-re`, optionally an offset
  `@+N`, `@-N`, `@above` (the last line above that holds no designator), `@below` (the next such
  line) or `@unknown` (a diagnostic with no location), then `{{message}}` closing the line; one
  designator a line, the message running to the line's last `}}`;
- the message matches a diagnostic of that severity on that line that contains it; with `-re`,
  `{{...}}` blocks inside it are regular expressions (Python's `re`, POSIX's `[[:digit:]]`
  classes read as MLIR's regexes read them) and the rest is literal;
- a diagnostic no designator matches is an error at the diagnostic's place
  (`unexpected warning: ...`), or, when a designator on its line matches its text but names
  another severity, an error at the designator (`'warning' diagnostic emitted when expecting a
  'error'`); a designator nothing matched is an error at the designator (`expected warning "..."
  was not produced`). One designator may match several identical diagnostics of its line, as in
  MLIR.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable
from dataclasses import dataclass

from meshc.errors import Diagnostic


_DESIGNATOR = re.compile(
    r"expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *\{\{(.*)\}\}$"
)


@dataclass
class Expectation:
    """One designator: the diagnostic it expects and where the designator itself is written."""

    line: int  # the line the diagnostic must be on (0 for @unknown)
    severity: str
    text: str
    at_line: int  # where the designator is (its `expected-`), for the errors about it
    at_col: int
    pattern: re.Pattern | None = None  # the -re form, compiled
    problem: str | None = None  # a -re designator whose regex is malformed
    matched: bool = False
    unknown: bool = False  # @unknown: a diagnostic with no location, whatever `line` says

    def matches(self, message: str) -> bool:
        if self.pattern is not None:
            return self.pattern.search(message) is not None
        return self.text in message


# POSIX bracket classes (MLIR's regexes are POSIX extended ones), as the sets Python's re reads
_POSIX_CLASSES = {
    "alnum": "0-9A-Za-z", "alpha": "A-Za-z", "blank": " \\t", "cntrl": "\\x00-\\x1f\\x7f", "digit": "0-9",
    "graph": "!-~", "lower": "a-z", "print": " -~", "punct": "!-/:-@\\[-`{-~", "space": " \\t\\n\\r\\f\\v",
    "upper": "A-Z", "xdigit": "0-9A-Fa-f",
}
_POSIX_CLASS = re.compile(r"\[:([a-z]*):\]")


def _python_regex(block: str) -> str:
    """A designator's regex block for Python's re: `[[:digit:]]` as `[0-9]` (re would read it as a
    nested set); a class POSIX does not name raises re.error."""
    def one(m: re.Match) -> str:
        if m.group(1) not in _POSIX_CLASSES:
            raise re.error(f"unknown character class [:{m.group(1)}:]")
        return _POSIX_CLASSES[m.group(1)]

    block = _POSIX_CLASS.sub(one, block)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # re's FutureWarnings (a nested set, ...) as errors, not leaked
        try:
            re.compile(block)
        except FutureWarning as e:
            raise re.error(str(e)) from None
    return block


def _compile(text: str) -> tuple[re.Pattern | None, str | None]:
    """The regex of a -re designator's message: `{{...}}` blocks as written, the rest escaped."""
    parts: list[str] = []
    rest = text
    while rest:
        start = rest.find("{{")
        if start < 0:
            parts.append(re.escape(rest))
            break
        parts.append(re.escape(rest[:start]))
        rest = rest[start + 2:]
        end = rest.find("}}")
        if end < 0:
            return None, "found start of regex with no end '}}'"
        try:
            block = _python_regex(rest[:end])
        except (re.error, RecursionError, OverflowError) as e:
            return None, f"invalid regex: {e}"
        parts.append(f"({block})")
        rest = rest[end + 2:]
    try:  # blocks valid alone can fail together (a backreference counts the groups around it)
        return re.compile("".join(parts)), None
    except (re.error, RecursionError, OverflowError) as e:
        return None, f"invalid regex: {e}"


def collect_expectations(text: str, first_line: int = 1) -> list[Expectation]:
    """The designators of a chunk (padded to its place in the file, so lines are the file's)."""
    out: list[Expectation] = []
    below: list[Expectation] = []  # @below designators waiting for the next plain line
    last_plain = first_line  # MLIR's: @above on the first line points at that line
    lines = text.split("\n")
    for i, raw in enumerate(lines):
        lineno = first_line + i
        m = _DESIGNATOR.search(raw.rstrip())
        if m is None:
            for ex in below:
                ex.line = lineno
            below.clear()
            last_plain = lineno
            continue
        sev, is_re, _, off, msg = m.groups()
        ex = Expectation(lineno, sev, msg, lineno, m.start() + 1)
        if is_re:
            ex.pattern, ex.problem = _compile(msg)
        if off == "above":
            ex.line = last_plain
        elif off == "below":
            ex.line = first_line + len(lines) - 1  # a @below with no plain line after it: the last line
            below.append(ex)
        elif off == "unknown":
            ex.line, ex.unknown = 0, True
        elif off:
            ex.line = lineno + int(off)
        out.append(ex)
    return out


def check_expected_diagnostics(
    expectations: list[Expectation], produced: Iterable[Diagnostic], file: str
) -> list[Diagnostic]:
    """MLIR's --verify-diagnostics over one chunk: the errors it reports (none when every produced
    diagnostic was expected and every expectation met), in MLIR's order: malformed designators,
    then the produced diagnostics no designator matched, then the designators nothing met."""
    problems = [Diagnostic(file, ex.at_line, ex.at_col, ex.problem) for ex in expectations if ex.problem]
    usable = [ex for ex in expectations if ex.problem is None]
    for d in produced:
        # line 0: no location (MLIR's unknown), for @unknown designators only; another file holds none
        if d.line == 0:
            candidates = [ex for ex in usable if ex.unknown]
        else:
            candidates = [ex for ex in usable if not ex.unknown and ex.line == d.line] if d.file == file else []
        near: Expectation | None = None
        hit = False
        for ex in candidates:
            if not ex.matches(d.message):
                continue
            if ex.severity == d.severity:
                ex.matched = hit = True
                break
            near = ex
        if hit:
            continue
        if near is not None:
            problems.append(Diagnostic(file, near.at_line, near.at_col,
                                       f"'{d.severity}' diagnostic emitted when expecting a '{near.severity}'"))
        else:
            problems.append(Diagnostic(d.file, d.line, d.col, f"unexpected {d.severity}: {d.message}"))
    for ex in usable:
        if not ex.matched:
            problems.append(Diagnostic(file, ex.at_line, ex.at_col,
                                       f'expected {ex.severity} "{ex.text}" was not produced'))
    return problems
