"""Cheap minimisation of a failing tool input: drop lines while the failure stays the same.

Greedy delta debugging over the lines of the input file (chunks of halving size), keeping a
candidate when it still fails with the same signature (`classify.signature`). Bounded by a
number of trial runs, so it stays cheap; API cases are left as drawn (they are short already).
"""

from __future__ import annotations

from collections.abc import Callable

from fuzz.case import Case
from fuzz.classify import signature


def minimize(case: Case, klass: str, message: str, run: Callable[[list[Case]], list[tuple[str, str]]],
             budget: int = 48) -> Case:
    """A smaller case failing the same way as `case` (or `case` itself)."""
    if case.kind == "api" or "in.mlir" not in case.files:
        return case
    want = signature(klass, message)
    lines = case.files["in.mlir"].split(b"\n")
    chunk = max(1, len(lines) // 2)
    trials = 0
    while chunk >= 1 and trials < budget:
        starts = list(range(0, len(lines), chunk))
        candidates = []
        for s in starts:
            kept = lines[:s] + lines[s + chunk:]
            if kept:
                candidates.append(kept)
        if not candidates:
            break
        candidates = candidates[: budget - trials]
        results = run([_with_text(case, b"\n".join(c)) for c in candidates])
        trials += len(candidates)
        for kept, (k, m) in zip(candidates, results):
            if signature(k, m) == want:
                lines = kept
                break
        else:
            chunk //= 2
    return _with_text(case, b"\n".join(lines))


def _with_text(case: Case, data: bytes) -> Case:
    files = dict(case.files)
    files["in.mlir"] = data
    return Case(case.kind, case.origin + " [minimised]", list(case.argv), files, case.call, case.args, case.kwargs)
