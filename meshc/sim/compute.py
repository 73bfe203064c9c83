"""Compute kernels: the numpy meaning of every ttir / ttnn compute op, shared by the golden
interpreter and the simulator so that both compute the same thing.

A kernel takes host arrays (float32 for f32 / bf16 / block floats) and the op's attributes as a
plain dict, and returns a host array; the caller rounds the result to the result's element type
(`meshc.sim.encoding.quantize`): bf16 round-to-nearest-even, block floats quantised per block.
`gelu` is the tanh approximation TT-Metal's SFPU uses by default.
"""

from __future__ import annotations

import math

import numpy as np

from meshc.layout.errors import LayoutError


def _gelu(x):
    c = np.float32(math.sqrt(2.0 / math.pi))
    return (0.5 * x * (1.0 + np.tanh(c * (x + np.float32(0.044715) * x * x * x)))).astype(x.dtype, copy=False)


def _erf(x):
    """erf through the Chebyshev-fitted erfc of Numerical Recipes (fractional error < 1.2e-7),
    in float64, vectorized."""
    z = np.abs(x.astype(np.float64))
    t = 1.0 / (1.0 + 0.5 * z)
    poly = -1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (
        0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))))
    erfc = t * np.exp(-z * z + poly)
    return np.where(x >= 0, 1.0 - erfc, erfc - 1.0).astype(x.dtype, copy=False)


def _softmax(x, attrs):
    d = attrs["dimension"]
    m = np.max(x, axis=d, keepdims=True)
    e = np.exp(x - m)
    return e / np.sum(e, axis=d, keepdims=True)


def _matmul(a, b, attrs):
    if attrs.get("transpose_a"):
        a = np.swapaxes(a, -1, -2)
    if attrs.get("transpose_b"):
        b = np.swapaxes(b, -1, -2)
    return np.matmul(a, b)


def _reduce(fn):
    def k(x, attrs):
        dims = attrs.get("dim_arg")
        axis = tuple(range(x.ndim)) if dims is None else tuple(dims)
        return fn(x, axis=axis, keepdims=bool(attrs.get("keep_dim")))
    return k


def _transpose(x, attrs):
    return np.swapaxes(x, attrs["dim0"], attrs["dim1"])


def _broadcast(x, attrs):
    return np.broadcast_to(x, attrs["result_shape"]).copy()


def _embedding(idx, w, attrs):
    idx = np.asarray(idx).astype(np.int64)
    if idx.size and (idx.min() < 0 or idx.max() >= w.shape[0]):
        raise LayoutError(f"embedding index {int(idx.max() if idx.max() >= w.shape[0] else idx.min())} is outside "
                          f"the {w.shape[0]} rows of the weight")
    return w[idx]


UNARY = {
    "exp": np.exp, "log": np.log, "relu": lambda x: np.maximum(x, 0).astype(x.dtype, copy=False),
    "sigmoid": lambda x: (1.0 / (1.0 + np.exp(-x))).astype(x.dtype, copy=False),
    "tanh": np.tanh, "gelu": _gelu, "neg": np.negative, "sqrt": np.sqrt, "erf": _erf,
}  # fmt: skip

def _compare(fn):
    """A comparison as the device computes it: 1 where it holds, 0 elsewhere, in the operands' type."""
    return lambda a, b: fn(a, b).astype(np.result_type(a, b), copy=False)


BINARY = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "div": np.divide,
          "maximum": np.maximum, "minimum": np.minimum, "pow": np.power,
          "eq": _compare(np.equal), "ne": _compare(np.not_equal), "gt": _compare(np.greater),
          "ge": _compare(np.greater_equal), "lt": _compare(np.less), "le": _compare(np.less_equal)}

OTHER = {
    "matmul": _matmul,
    "transpose": _transpose,
    "permute": lambda x, a: np.transpose(x, a["permutation"]),
    "reshape": lambda x, a: x.reshape(a["result_shape"]),
    "broadcast": _broadcast,
    "repeat": _broadcast,
    "concat": None,  # variadic: handled in run_kernel
    "sum": _reduce(np.sum),
    "mean": _reduce(np.mean),
    "max": _reduce(np.max),
    "softmax": _softmax,
    "embedding": _embedding,
    "typecast": lambda x, a: x,
    "where": lambda c, x, y, a: np.where(c != 0, x, y),
}

KINDS = frozenset(UNARY) | frozenset(BINARY) | frozenset(OTHER)

ARITHMETIC = frozenset(UNARY) | frozenset(BINARY) | {"matmul", "sum", "mean", "softmax"}
"""Kinds whose results are computed (so bf16 / block float results round); the rest move data."""


def run_kernel(kind: str, inputs: list[np.ndarray], attrs: dict) -> np.ndarray:
    """The numpy result of op `kind` on host arrays."""
    with np.errstate(all="ignore"):
        if kind in UNARY:
            (x,) = inputs
            return UNARY[kind](x)
        if kind in BINARY:
            a, b = inputs
            return BINARY[kind](a, b)
        if kind == "concat":
            return np.concatenate(inputs, axis=attrs["dim"])
        if kind in OTHER:
            return OTHER[kind](*inputs, attrs)
    raise LayoutError(f"no kernel for '{kind}'")


def flops(kind: str, inputs: list[np.ndarray], out_shape: tuple[int, ...], attrs: dict) -> int:
    """Floating point operations of a kernel (for the report; matmul 2*M*N*K)."""
    if kind == "matmul":
        a = inputs[0]
        k = a.shape[-2] if attrs.get("transpose_a") else a.shape[-1]
        return 2 * int(np.prod(out_shape)) * int(k)
    if kind in ARITHMETIC:
        return int(max(np.prod(out_shape), max((x.size for x in inputs), default=0)))
    return 0
