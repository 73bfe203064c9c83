"""meshc-run's progress on stderr: one bar a long phase (lowering, simulating, golden, check)
with its count, elapsed time and ETA, shown when stderr is a terminal or with --progress.

On a terminal the bars are rich's (redrawn in place, removed when done); elsewhere (--progress
into a file or a pipe) each phase prints a line at most every `every` seconds and when it ends:
`meshc-run: simulating 120/500 ops (24%), 1.2 s elapsed, ETA 3.8 s`. A phase whose size is not
known in advance (lowering, a single pipeline pass) shows its elapsed time only.
The object also serves as an xDSL interpreter listener: every interpreted op advances the phase.
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn


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

    @classmethod
    def for_stderr(cls, forced: bool) -> "RunProgress":
        """Enabled when stderr is a terminal or when --progress asks for it."""
        return cls(forced or sys.stderr.isatty())

    @contextmanager
    def phase(self, name: str, total: int | None = None, unit: str = "ops", block=None):
        """Report the phase `name` (of `total` `unit`s, if known) while the block runs; as a
        listener it counts the ops of `block` (a function body), not those nested in them."""
        self._block = block
        if not self.enabled:
            yield self
            return
        self._phase, self._unit, self._total, self._done = name, unit, total, 0
        self._start = self._last = time.perf_counter()
        if self.tty:
            cols = [TextColumn(f"{name:<11}")]
            cols += [BarColumn(), MofNCompleteColumn(), TextColumn(unit), TextColumn("ETA"), TimeRemainingColumn()] \
                if total else [SpinnerColumn()]
            cols += [TextColumn("{task.description}"), TimeElapsedColumn()]
            self._rich = Progress(*cols, console=Console(file=self.stream), transient=True)
            self._task = self._rich.add_task("", total=total)
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
            self._rich.update(self._task, advance=n, description=what)
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
            text = f"{self._phase} {self._done}/{self._total} {self._unit} ({100 * frac:.0f}%), {elapsed:.1f} s elapsed, {eta}"
        else:
            text = f"{self._phase}: {'done in' if final else 'running,'} {elapsed:.1f} s"
        print(f"meshc-run: {text}", file=self.stream, flush=True)

    # the xDSL interpreter's listener interface: one op a step
    def will_interpret_op(self, op, args) -> None:
        pass

    def did_interpret_op(self, op, results) -> None:
        if self._block is None or op.parent is self._block:
            self.advance(1, op.name)
