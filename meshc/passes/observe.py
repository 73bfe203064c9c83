"""Watching passes run, nested ones included: the hook behind meshc-opt's per-pass IR dumps
(`--mlir-print-ir-before/after=<pass>`, `--mlir-print-ir-after-all`) and timings
(`--mlir-timing`).

A pipeline pass (meshc/passes/pipelines.py) runs its passes through `run_pass`, as the driver
runs the top-level ones, so a listener installed with `observing(listener)` sees every pass at
its depth: `listener.before(p, module, depth)` and `listener.after(p, module, seconds, depth)`.
Without a listener `run_pass` is `p.apply(ctx, module)`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_LISTENER: ContextVar[Any] = ContextVar("meshc_pass_listener", default=None)
_DEPTH: ContextVar[int] = ContextVar("meshc_pass_depth", default=0)


@contextmanager
def observing(listener) -> Iterator[None]:
    """Let `listener` watch every pass run inside the block (see the module docstring)."""
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)


def run_pass(p, ctx, module) -> None:
    """`p.apply(ctx, module)`, told to the listener (if any) before and after, at its depth."""
    listener = _LISTENER.get()
    if listener is None:
        p.apply(ctx, module)
        return
    depth = _DEPTH.get()
    listener.before(p, module, depth)
    token = _DEPTH.set(depth + 1)
    start = time.perf_counter()
    try:
        p.apply(ctx, module)
    finally:
        _DEPTH.reset(token)
    listener.after(p, module, time.perf_counter() - start, depth)
