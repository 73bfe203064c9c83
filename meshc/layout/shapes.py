"""Shape arithmetic every layer shares: ceil division, the 2-d fold of an N-d tensor, and how a
shape is written in messages and attributes (`64x128`).

A tensor folds into 2-d as TTNN buffers store it: its outer dims multiply into the height, its
last dim is the width; a 0-d tensor folds to (1, 1), a 1-d tensor of n to (1, n).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence


def ceil_div(a: int, b: int) -> int:
    """The smallest integer >= a / b (b > 0)."""
    return -(-a // b)


def round_up(a: int, b: int) -> int:
    """`a` rounded up to a multiple of `b` (b > 0)."""
    return ceil_div(a, b) * b


def fold_2d(shape: Sequence[int]) -> tuple[int, int]:
    """(height, width) of the 2-d buffer a tensor of `shape` folds to."""
    if len(shape) == 0:
        return (1, 1)
    return (math.prod(int(n) for n in shape[:-1]), int(shape[-1]))


def fmt_shape(shape: Sequence[int]) -> str:
    """`64x128`: a shape as MLIR writes one (a 0-d shape is the empty string); an entry that is
    not an integer (a bad shape an error message names) is written as it is."""
    return "x".join(_dim_text(n) for n in shape)


def _dim_text(n) -> str:
    try:
        return str(operator.index(n))
    except TypeError:
        return str(n)
