"""meshc-opt's views of a run, as mlir-opt gives them: the IR before or after named passes
(`--mlir-print-ir-before=<pass>`, `--mlir-print-ir-after=<pass>`, `--mlir-print-ir-after-all`),
passes nested in a pipeline included, on stderr; the execution time report of `--mlir-timing`
(parsing, verification, every pass at its depth, output) on stderr; the dialects meshc
registers (`--show-dialects`).

The passes are watched through meshc.passes.observe (a listener sees every pass, nested ones
at their depth).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

from meshc.dialects import get_all_dialects
from meshc.driver import print_module
from meshc.passes import pass_names
from meshc.tools.pass_catalog import suggestion


def named_passes(values: list[str], flag: str) -> set[str]:
    """The pass names of `--mlir-print-ir-before/after` (repeatable, comma-separated lists);
    ValueError naming an unknown one, with a suggestion."""
    names = set(pass_names())
    out = set()
    for v in values:
        for name in (n.strip() for n in v.split(",")):
            if name not in names:
                raise ValueError(f"{flag}: unknown pass '{name}'{suggestion(name, names)} "
                                 "(meshc-opt --list-passes lists the passes)")
            out.add(name)
    return out


def show_dialects() -> str:
    """mlir-opt's `--show-dialects` line."""
    return "Available Dialects: " + ", ".join(sorted(get_all_dialects())) + "\n"


class PassWatch:
    """The listener meshc.passes.observe calls around every pass: IR dumps and timings."""

    def __init__(self, before: set[str], after: set[str], after_all: bool, print_kw: dict):
        self.before_names = before
        self.after_names = after
        self.after_all = after_all
        self.print_kw = print_kw
        self.times: dict[tuple[str, ...], float] = {}
        """Seconds by path (enclosing pipelines, then the pass), in first-run order."""
        self._path: list[str] = []

    def _dump(self, when: str, p, module) -> None:
        print(f"// -----// IR Dump {when} {p.name} //----- //", file=sys.stderr)
        sys.stderr.write(print_module(module, **self.print_kw))

    def before(self, p, module, depth: int) -> None:
        del self._path[depth:]
        self._path.append(p.name)
        self.times.setdefault(tuple(self._path), 0.0)  # a pipeline is listed before its passes
        if p.name in self.before_names:
            self._dump("Before", p, module)

    def after(self, p, module, seconds: float, depth: int) -> None:
        key = tuple(self._path[: depth + 1])
        self.times[key] = self.times.get(key, 0.0) + seconds
        if self.after_all or p.name in self.after_names:
            self._dump("After", p, module)

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        """Time a step of the tool outside the passes (Parser, Verifier, Output)."""
        start = time.perf_counter()
        try:
            yield
        finally:
            key = (name,)
            self.times[key] = self.times.get(key, 0.0) + time.perf_counter() - start

    def timing_report(self, total: float) -> str:
        """mlir-opt's `--mlir-timing` report: wall time and share of each step and pass (passes
        nested in a pipeline indented under it), the rest of the run, the total."""
        bar = "===" + "-" * 73 + "==="
        lines = [bar, "... Execution time report ...".center(79).rstrip(), bar,
                 f"  Total Execution Time: {total:.4f} seconds", "", "  ----Wall Time----  ----Name----"]
        total = max(total, 1e-12)
        order = sorted(self.times, key=lambda k: k[0] == "Output")  # Output after the passes
        top = sum(t for k, t in self.times.items() if len(k) == 1)
        for key in order:
            t = self.times[key]
            lines.append(f"  {t:10.4f} ({100 * t / total:5.1f}%)  {'  ' * (len(key) - 1)}{key[-1]}")
        rest = max(total - top, 0.0)
        lines.append(f"  {rest:10.4f} ({100 * rest / total:5.1f}%)  Rest")
        lines.append(f"  {total:10.4f} (100.0%)  Total")
        return "\n".join(lines) + "\n"
