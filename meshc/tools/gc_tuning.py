"""The command-line tools' garbage-collector setting: compile time linear in the program.

An IR of n ops is millions of Python objects that live until the tool exits. With CPython's
default thresholds (700 allocations) the collector keeps re-scanning them, and its older
generations are scanned in full as the IR grows, so the pipeline's per-op cost rose with the
program (`bench/scale.py`, ops: user time 1.32x xdsl-opt's parse+print at 50k ops, 1.08x with
this setting). The tools freeze what the imports made (never scanned again) and collect the
young generation every 50,000 allocations. Cycles are still collected; a library user's
process (meshc.compile) is left alone.
"""

from __future__ import annotations

import gc

YOUNG = 50_000
"""Allocations between two collections of the youngest generation (CPython's default: 700)."""


def tune_for_large_ir() -> None:
    """Freeze the objects made so far (modules, dialects) and raise the collection threshold."""
    gc.freeze()
    gc.set_threshold(YOUNG, 20, 100)
