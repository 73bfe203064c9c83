"""Compute kernels: every ttir / ttnn compute op run on host arrays, shared by the golden
interpreter and the simulators so that both compute the same thing.

What each op computes is its `meaning` in the compute-op registry (meshc/layout/compute_ops.py);
this module runs it under numpy's error state for IEEE results (a log of 0 is -inf, not a
warning). The caller rounds the result to the result's element type
(`meshc.sim.encoding.quantize`): bf16 round-to-nearest-even, block floats quantised per block.
"""

from __future__ import annotations

import numpy as np

from meshc.layout.compute_ops import COMPUTE_OPS, compute_op
from meshc.layout.errors import LayoutError


def kinds() -> frozenset[str]:
    """Every kind a kernel runs: the registry's ttir names and TTNN names, read live."""
    return frozenset(n for e in COMPUTE_OPS.values() for n in (e.name, e.ttnn_name))


def arithmetic() -> frozenset[str]:
    """Kinds whose results are computed (so bf16 / block float results round); the rest move data."""
    return frozenset(n for e in COMPUTE_OPS.values() if e.arithmetic for n in (e.name, e.ttnn_name))


KINDS = kinds()
ARITHMETIC = arithmetic()


def run_kernel(kind: str, inputs: list[np.ndarray], attrs: dict) -> np.ndarray:
    """The numpy result of op `kind` (a ttir or TTNN name) on host arrays."""
    try:
        entry = compute_op(kind)
    except LayoutError:
        raise LayoutError(f"no kernel for '{kind}'") from None
    if entry.arity is not None and len(inputs) != entry.arity:
        raise LayoutError(f"'{kind}' takes {entry.arity} operands, got {len(inputs)}")
    with np.errstate(all="ignore"):
        return entry.meaning(list(inputs), attrs)
