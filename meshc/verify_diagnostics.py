"""MLIR's `--verify-diagnostics`: `// expected-error @+1 {{...}}` annotations checked against the
diagnostics a tool produced."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from meshc.errors import Diagnostic


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
