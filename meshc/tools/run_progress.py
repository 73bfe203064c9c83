"""meshc-run's progress on stderr: one bar a long phase (lowering, simulating, golden, check)
with its count, elapsed time and ETA, shown when stderr is a terminal or with --progress.

On a terminal the bars are rich's (redrawn in place, removed when done); elsewhere (--progress
into a file or a pipe) each phase prints a line at most every `every` seconds and when it ends:
`meshc-run: simulating 120/500 ops (24%), 1.2 s elapsed, ETA 3.8 s`. A phase whose size is not
known in advance (lowering, a single pipeline pass) shows its elapsed time only.
The object also serves as an xDSL interpreter listener: every interpreted op advances the phase.

Simulating and the golden run measure progress by work, not by op count (`op_work`: a matmul of
M x K by K x N is M*N*K, any other op the elements it reads and writes), so a program whose
time goes into a few big ops among many small ones gets an honest ETA:
`meshc-run: simulating 62% of the work (12/500 ops), 1.2 s elapsed, ETA 0.7 s`.
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from math import prod

from rich.console import Console
from rich.table import Column
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TaskProgressColumn, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)


def _elements(value) -> int:
    shape = getattr(value.type, "get_shape", None)
    return prod(shape()) if shape is not None else 0


def op_work(op) -> int:
    """An op's work, for progress: M*N*K for a matmul (its result's elements times the
    contracting size), else the elements it reads and writes; at least 1."""
    if op.name.endswith(".matmul") and op.operands and op.results:
        a = getattr(op.operands[0].type, "get_shape", None)
        if a is not None and a():
            return max(1, _elements(op.results[0]) * a()[-1])
    return max(1, sum(_elements(v) for v in (*op.operands, *op.results)))


def block_work(block) -> dict:
    """`op_work` of every op of a function body (the ops the progress listener counts)."""
    return {op: op_work(op) for op in block.ops}


class RunProgress:
    def __init__(self, enabled: bool, every: float = 1.0, stream=None):
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.tty = enabled and self.stream.isatty()
        self.every = every
        self._rich = None
        self._task = None
        self._phase = ""
        self._unit = ""
        self._total = None
        self._done = 0
        self._start = 0.0
        self._last = 0.0
        self._block = None
        self._weights: dict | None = None
        self._ops_done = 0
        self._ops_total = 0

    @classmethod
    def for_stderr(cls, forced: bool) -> "RunProgress":
        """Enabled when stderr is a terminal or when --progress asks for it."""
        return cls(forced or sys.stderr.isatty())

    @contextmanager
    def phase(self, name: str, total: int | None = None, unit: str = "ops", block=None, by_work: bool = False):
        """Report the phase `name` (of `total` `unit`s, if known) while the block runs; as a
        listener it counts the ops of `block` (a function body), not those nested in them, each
        by its work (`op_work`) when `by_work`."""
        self._block = block
        self._weights = block_work(block) if by_work and block is not None and self.enabled else None
        if not self.enabled:
            yield self
            return
        self._ops_total, self._ops_done = (len(self._weights), 0) if self._weights else (0, 0)
        if self._weights:
            total = sum(self._weights.values())
        self._phase, self._unit, self._total, self._done = name, unit, total, 0
        self._start = self._last = time.perf_counter()
        if self.tty:
            cols = [TextColumn(f"{name:<11}")]
            if total and self._weights:
                cols += [BarColumn(bar_width=20), TaskProgressColumn(), TextColumn("of the work, op {task.fields[ops]}"),
                         TextColumn("ETA"), TimeRemainingColumn()]
            elif total:
                cols += [BarColumn(bar_width=20), MofNCompleteColumn(), TextColumn(unit), TextColumn("ETA"),
                         TimeRemainingColumn()]
            else:
                cols += [SpinnerColumn()]
            # the elapsed time before the op's name, which is cut first on a narrow terminal
            cols += [TimeElapsedColumn(), TextColumn("{task.description}", table_column=Column(no_wrap=True, overflow="ellipsis"))]
            self._rich = Progress(*cols, console=Console(file=self.stream), transient=True)
            self._task = self._rich.add_task("", total=total, ops=f"0/{self._ops_total}")
            self._rich.start()
        try:
            yield self
        finally:
            if self._rich is not None:
                self._rich.stop()
                self._rich = None
            else:
                self._line(final=True)

    def advance(self, n: int = 1, what: str = "") -> None:
        if not self.enabled:
            return
        self._done += n
        if self._rich is not None:
            self._rich.update(self._task, advance=n, description=what, ops=f"{self._ops_done}/{self._ops_total}")
            return
        now = time.perf_counter()
        if now - self._last >= self.every:
            self._last = now
            self._line()

    def _line(self, final: bool = False) -> None:
        elapsed = time.perf_counter() - self._start
        if self._total:
            frac = self._done / self._total
            eta = "done" if final else (f"ETA {elapsed / frac * (1 - frac):.1f} s" if frac > 0 else "ETA unknown")
            if self._weights:
                text = (f"{self._phase} {100 * frac:.0f}% of the work ({self._ops_done}/{self._ops_total} ops), "
                        f"{elapsed:.1f} s elapsed, {eta}")
            else:
                text = (f"{self._phase} {self._done}/{self._total} {self._unit} ({100 * frac:.0f}%), "
                        f"{elapsed:.1f} s elapsed, {eta}")
        else:
            text = f"{self._phase}: {'done in' if final else 'running,'} {elapsed:.1f} s"
        print(f"meshc-run: {text}", file=self.stream, flush=True)

    # the xDSL interpreter's listener interface: one op a step
    def will_interpret_op(self, op, args) -> None:
        pass

    def did_interpret_op(self, op, results) -> None:
        if self._block is None or op.parent is self._block:
            if self._weights is not None:
                self._ops_done += 1
                self.advance(self._weights.get(op, 1), op.name)
            else:
                self.advance(1, op.name)
