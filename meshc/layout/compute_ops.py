"""The compute ops: one registry of their kinds, families, meaning, sharding, kernels and spellings.

Every layer derives from `COMPUTE_OPS`, as it does from the collective registry
(meshc/layout/collectives.py):

- the dialects generate one op class an entry, `ttir.<name>` and `ttnn.<ttnn name>`, on the
  base class of the entry's `family` (its operands, attributes and shape rule);
- the sharding rules (meshc/layout/sharding_rules.py) build each op's rule from `rule` and
  `linear`;
- `convert-ttir-to-ttnn` replaces each ttir op by the ttnn op of its entry, and
  `convert-ttir-to-ttmetal` lowers it to the `ttmetal` kernel of its entry (the ttmetal tile ops
  accept exactly the registry's tile ops);
- the interpreters give every op its `@impl`, the golden run and the simulators compute `meaning`;
- the StableHLO importer translates each of `stablehlo` to the op;
- the time model reads `cost`.

An entry's `meaning` takes the operands as host arrays (float32 for f32 / bf16 / block floats)
and the op's attributes as a plain dict (meshc.interp.common.kernel_attrs), and returns a host
array; the caller rounds it to the result's element type. `gelu` is the tanh approximation
TT-Metal's SFPU uses by default.

Cost classes (`cost`), after where TT-Metal computes an op: `elementwise_fpu` (add, subtract,
multiply: the matrix engine's eltwise path, TT-Metal's eltwise binary op), `elementwise_sfpu`
(everything else elementwise: the vector unit, TT-Metal's SFPU unary and binary kernels),
`matmul`, `reduction` (a reduce over tiles; softmax is one with an SFPU exp), `data_movement`
(moves or gathers values, computes none).

Pure Python and numpy: no IR here.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from meshc.layout import sharding_factors as factors
from meshc.layout.errors import LayoutError
from meshc.layout.sharding_factors import Factors

ELEMENTWISE_FPU = "elementwise_fpu"
ELEMENTWISE_SFPU = "elementwise_sfpu"
MATMUL = "matmul"
REDUCTION = "reduction"
DATA_MOVEMENT = "data_movement"
COST_CLASSES = (ELEMENTWISE_FPU, ELEMENTWISE_SFPU, MATMUL, REDUCTION, DATA_MOVEMENT)
"""Every cost class an op may have (see the module docstring)."""

FAMILIES = ("unary", "typecast", "binary", "comparison", "where", "reduction", "matmul", "transpose",
            "permute", "reshape", "broadcast", "concat", "softmax", "embedding", "slice", "linear",
            "scan", "argreduce", "topk", "sort")
"""Every family: the ops of one family share their dialect base (operands, attributes, shape
rule). unary / binary / comparison / where are elementwise, with numpy broadcasting."""

ELEMENTWISE = ("unary", "typecast", "binary", "comparison", "where")


@dataclass(frozen=True)
class Kernel:
    """The TTMetal program a ttir op runs on every core of its result's grid."""

    family: str
    """unary | binary | where | reduce | matmul | transpose | softmax | copy | reshape | permute | broadcast | slice | concat | embedding."""
    tile_op: str = ""
    """The `op` of the tile op an elementwise or reduction kernel applies."""


Meaning = Callable[[list[np.ndarray], dict], np.ndarray]


@dataclass(frozen=True)
class ComputeOp:
    """One compute op: its shape, meaning, sharding rule, kernels, cost and spellings."""

    name: str
    """The ttir op name without `ttir.`; the kind the interpreters and the sharding rules use."""
    family: str
    """One of FAMILIES: the dialects' base class for its op."""
    arity: int | None
    """Operands (None: any number, as concat)."""
    meaning: Meaning
    rule: Factors
    """Its sharding rule's factors (meshc.layout.sharding_factors)."""
    cost: str
    """One of COST_CLASSES."""
    doc: str
    """What it computes, in one line (the generated op classes' docstring)."""
    ttmetal: Kernel | None = None
    """Its TTMetal kernel (None: convert-ttir-to-ttmetal refuses the op)."""
    ttnn: str = ""
    """The name of its TTNN op when it is not `name` (ttir's broadcast is TTNN's repeat)."""
    stablehlo: tuple[str, ...] = ()
    """The StableHLO / CHLO ops the importer translates to it one for one."""
    jax: str = ""
    """The JAX function that writes `stablehlo[0]` (documentation and the JAX checks)."""
    linear: bool = False
    """Commutes with a sum over devices: partial-sum operands give a partial-sum result."""
    arithmetic: bool = True
    """Its result is computed (a bf16 or block-float result rounds); False: it moves or selects."""
    integer_only: bool = False
    """Defined on integer element types only (bitwise ops, shifts): its op's verifier refuses others."""

    @property
    def ttnn_name(self) -> str:
        return self.ttnn or self.name

    @property
    def elementwise(self) -> bool:
        return self.family in ELEMENTWISE


# ----------------------------------------------------------------------------- numpy meanings


def _each(fn) -> Meaning:
    """The meaning of an elementwise op from a numpy function of its operands."""
    return lambda xs, attrs: fn(*xs)


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


def _compare(fn) -> Meaning:
    """A comparison as the device computes it: 1 where it holds, 0 elsewhere, in the operands' type."""
    return lambda xs, attrs: fn(*xs).astype(np.result_type(*xs), copy=False)


def _softmax(xs, attrs):
    x, d = xs[0], attrs["dimension"]
    e = np.exp(x - np.max(x, axis=d, keepdims=True))
    return e / np.sum(e, axis=d, keepdims=True)


def _matmul(xs, attrs):
    a, b = xs
    if attrs.get("transpose_a"):
        a = np.swapaxes(a, -1, -2)
    if attrs.get("transpose_b"):
        b = np.swapaxes(b, -1, -2)
    return np.matmul(a, b)


def _linear(xs, attrs):
    """tt-mlir's linear: matmul(a, b) (transposes as flagged; a rank-1 operand is a vector, as
    numpy's matmul takes it) plus the optional bias, broadcast against the product; a
    vector-vector product is the result's `tensor<1>`."""
    out = _matmul(xs[:2], attrs)
    out = out + xs[2] if len(xs) > 2 else out
    return out.reshape(attrs["result_shape"]) if "result_shape" in attrs else out


def matmul_dims(a: tuple[int, ...], b: tuple[int, ...], attrs: dict) -> tuple[int, int, int]:
    """(M, K, N) of a matmul or linear of operand shapes a and b with the `transpose_a/_b` flags
    of `attrs`; a rank-1 a is one row (M = 1), a rank-1 b one column (N = 1)."""
    if len(a) == 1:
        m, k = 1, a[0]
    else:
        m, k = (a[-1], a[-2]) if attrs.get("transpose_a") else (a[-2], a[-1])
    if len(b) == 1:
        n = 1
    else:
        n = b[-2] if attrs.get("transpose_b") else b[-1]
    return m, k, n


def _reduce(fn) -> Meaning:
    def meaning(xs, attrs):
        x = xs[0]
        dims = attrs.get("dim_arg")
        axis = tuple(range(x.ndim)) if dims is None else tuple(dims)
        return fn(x, axis=axis, keepdims=bool(attrs.get("keep_dim")))
    return meaning


def _broadcast(xs, attrs):
    return np.broadcast_to(xs[0], attrs["result_shape"]).copy()


def _embedding(xs, attrs):
    idx, w = xs
    idx = np.asarray(idx).astype(np.int64)
    if idx.size and (idx.min() < 0 or idx.max() >= w.shape[0]):
        raise LayoutError(f"embedding index {int(idx.max() if idx.max() >= w.shape[0] else idx.min())} is outside "
                          f"the {w.shape[0]} rows of the weight")
    return w[idx]


def _slice(xs, attrs):
    """x[begins[d]:ends[d]:step[d]] along every dim d."""
    return xs[0][tuple(slice(b, e, s) for b, e, s in zip(attrs["begins"], attrs["ends"], attrs["step"]))].copy()


def _scan(fn) -> Meaning:
    """A running sum / product along `dim` in the operand's type (numpy's sequential one), from
    the end of the dim when `reverse`."""
    def meaning(xs, attrs):
        x, d = xs[0], attrs["dim"]
        if attrs.get("reverse"):
            return np.flip(fn(np.flip(x, d), axis=d, dtype=x.dtype), d).copy()
        return fn(x, axis=d, dtype=x.dtype)
    return meaning


def _arg(fn) -> Meaning:
    """argmax / argmin along `dim`: the first extreme's index, int32 (JAX's index type)."""
    def meaning(xs, attrs):
        return fn(xs[0], axis=attrs["dim"], keepdims=bool(attrs.get("keep_dim"))).astype(np.int32)
    return meaning


def _top_k(indices: bool) -> Meaning:
    """The k (the result's length along `dim`) largest along `dim`, the first of equals first (a
    stable sort of the negation), NaNs before every number as JAX's top_k orders them (a second
    stable sort by NaN-ness): their indices (int32) or values."""
    def meaning(xs, attrs):
        x, d = xs[0], attrs["dim"]
        k = attrs["result_shape"][d]
        order = np.argsort(-x, axis=d, kind="stable")
        nan_last = ~np.isnan(np.take_along_axis(x, order, axis=d))
        order = np.take_along_axis(order, np.argsort(nan_last, axis=d, kind="stable"), axis=d)
        idx = np.take(order, np.arange(k), axis=d)
        return idx.astype(np.int32) if indices else np.take_along_axis(x, idx, axis=d)
    return meaning


def _sort(indices: bool) -> Meaning:
    """tt-mlir's sort along `dim`: ascending, or descending if `descending`; equal elements in
    their order (stable), NaNs above every number (last ascending, first descending) as JAX's
    jnp.sort / jnp.argsort and numpy order them: the positions (int32) or the values. Descending
    sorts the order-reversed values (~x on integers, no overflow; -x on floats) stably, then the
    NaNs first (a second stable sort by NaN-ness)."""
    def meaning(xs, attrs):
        x, d = xs[0], attrs["dim"]
        if not attrs.get("descending"):
            order = np.argsort(x, axis=d, kind="stable")  # numpy puts NaNs last, in their order
        else:
            order = np.argsort(np.invert(x) if np.issubdtype(x.dtype, np.integer) else -x, axis=d, kind="stable")
            if np.issubdtype(x.dtype, np.floating):
                not_nan = ~np.isnan(np.take_along_axis(x, order, axis=d))
                order = np.take_along_axis(order, np.argsort(not_nan, axis=d, kind="stable"), axis=d)
        return order.astype(np.int32) if indices else np.take_along_axis(x, order, axis=d)
    return meaning


# ----------------------------------------------------------------------------- entries by family


def unary(name: str, fn, doc: str, cost: str = ELEMENTWISE_SFPU, stablehlo: tuple[str, ...] = (), jax: str = "",
          linear: bool = False, integer_only: bool = False) -> ComputeOp:
    """An elementwise op on one tensor: every dim `pass`, a TTMetal unary tile op of its name."""
    return ComputeOp(name, "unary", 1, _each(fn), factors.identity, cost, doc, Kernel("unary", name),
                     stablehlo=stablehlo, jax=jax, linear=linear, integer_only=integer_only)


def binary(name: str, fn, doc: str, cost: str = ELEMENTWISE_SFPU, stablehlo: tuple[str, ...] = (), jax: str = "",
           linear: bool = False, integer_only: bool = False) -> ComputeOp:
    """An elementwise op on two tensors (numpy broadcasting), a TTMetal binary tile op of its name."""
    return ComputeOp(name, "binary", 2, _each(fn), factors.elementwise, cost, doc, Kernel("binary", name),
                     stablehlo=stablehlo, jax=jax, linear=linear, integer_only=integer_only)


def comparison(name: str, fn, doc: str) -> ComputeOp:
    """1 where `lhs <relation> rhs` holds, else 0, in the operands' type (the device holds no booleans)."""
    return ComputeOp(name, "comparison", 2, _compare(fn), factors.elementwise, ELEMENTWISE_SFPU, doc,
                     Kernel("binary", name))


def reduction(name: str, fn, doc: str, summed: bool, arithmetic: bool) -> ComputeOp:
    """A reduction over `dim_arg` (all dims when absent); `summed`: partial sums are its own."""
    return ComputeOp(name, "reduction", 1, _reduce(fn), factors.reduction(summed), REDUCTION, doc,
                     Kernel("reduce", name), linear=summed, arithmetic=arithmetic)


def _erfc(x):
    """erfc as `_erf` computes it, without the cancellation of 1 - erf for large x."""
    z = np.abs(x.astype(np.float64))
    t = 1.0 / (1.0 + 0.5 * z)
    poly = -1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (
        0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))))
    erfc = t * np.exp(-z * z + poly)
    return np.where(x >= 0, erfc, 2.0 - erfc).astype(x.dtype, copy=False)


def _in_type(fn):
    """A float function of x, its result in x's element type."""
    return lambda x: fn(x).astype(x.dtype, copy=False)


def _divide(a, b):
    """lhs / rhs; on integers StableHLO's: the quotient rounded toward zero, x / 0 = -1."""
    if np.issubdtype(a.dtype, np.integer) and np.issubdtype(b.dtype, np.integer):
        a64, b64 = a.astype(np.int64), b.astype(np.int64)
        q = np.where(b64 == 0, -1, np.trunc(a64 / np.where(b64 == 0, 1, b64)).astype(np.int64))
        return q.astype(np.result_type(a, b), copy=False)
    return np.divide(a, b)


def _remainder(a, b):
    """StableHLO's remainder: the sign of the dividend (C's fmod); on integers x % 0 = x."""
    if np.issubdtype(a.dtype, np.integer) and np.issubdtype(b.dtype, np.integer):
        return np.where(b == 0, a, np.fmod(a, np.where(b == 0, 1, b))).astype(np.result_type(a, b), copy=False)
    return np.fmod(a, b)


def _bits(a) -> int:
    return np.dtype(a.dtype).itemsize * 8


def _shift_left(a, b):
    """a << b; a shift by the width or more (or a negative one) is 0, as StableHLO says."""
    n = _bits(a)
    ok = (b >= 0) & (b < n)
    return np.where(ok, np.left_shift(a, np.where(ok, b, 0).astype(a.dtype)), 0).astype(a.dtype, copy=False)


def _shift_right_arithmetic(a, b):
    """a >> b filling with the sign bit; a shift by the width or more gives all sign bits."""
    n = _bits(a)
    signed = a.astype(np.dtype(f"i{n // 8}"))
    k = np.where((b >= 0) & (b < n), b, n - 1).astype(signed.dtype)
    return np.right_shift(signed, k).astype(a.dtype, copy=False)


def _shift_right_logical(a, b):
    """a >> b filling with zeros; a shift by the width or more is 0."""
    n = _bits(a)
    unsigned = a.astype(np.dtype(f"u{n // 8}"))
    ok = (b >= 0) & (b < n)
    return np.where(ok, np.right_shift(unsigned, np.where(ok, b, 0).astype(unsigned.dtype)), 0).astype(
        a.dtype, copy=False)


def _relu(x):
    return np.maximum(x, 0).astype(x.dtype, copy=False)


def _sigmoid(x):
    return (1.0 / (1.0 + np.exp(-x))).astype(x.dtype, copy=False)


_ENTRIES = (
    unary("exp", np.exp, "e ** x", stablehlo=("stablehlo.exponential",), jax="jnp.exp"),
    unary("log", np.log, "the natural logarithm", stablehlo=("stablehlo.log",), jax="jnp.log"),
    unary("relu", _relu, "max(x, 0)", jax="jax.nn.relu"),
    # jax.nn.sigmoid: JAX's CPU lowering writes it as 1 / (1 + exp(-x)), not stablehlo.logistic
    unary("sigmoid", _sigmoid, "1 / (1 + e ** -x)", stablehlo=("stablehlo.logistic",)),
    unary("tanh", np.tanh, "the hyperbolic tangent", stablehlo=("stablehlo.tanh",), jax="jnp.tanh"),
    unary("gelu", _gelu, "x * Phi(x), Phi by the tanh approximation (TT-Metal's default)"),
    unary("neg", np.negative, "-x", stablehlo=("stablehlo.negate",), jax="jnp.negative", linear=True),
    unary("sqrt", np.sqrt, "the square root", stablehlo=("stablehlo.sqrt",), jax="jnp.sqrt"),
    unary("erf", _erf, "the error function", stablehlo=("chlo.erf",), jax="jax.scipy.special.erf"),
    ComputeOp("typecast", "typecast", 1, lambda xs, attrs: xs[0], factors.identity, ELEMENTWISE_SFPU,
              "the operand converted to the result's element type", Kernel("unary", "typecast"), arithmetic=False),
    binary("add", np.add, "lhs + rhs", ELEMENTWISE_FPU, ("stablehlo.add",), "jnp.add", linear=True),
    binary("subtract", np.subtract, "lhs - rhs", ELEMENTWISE_FPU, ("stablehlo.subtract",), "jnp.subtract",
           linear=True),
    binary("multiply", np.multiply, "lhs * rhs", ELEMENTWISE_FPU, ("stablehlo.multiply",), "jnp.multiply"),
    binary("div", _divide, "lhs / rhs (on integers rounded toward zero)", stablehlo=("stablehlo.divide",),
           jax="jnp.divide"),
    binary("maximum", np.maximum, "the larger of lhs and rhs", stablehlo=("stablehlo.maximum",), jax="jnp.maximum"),
    binary("minimum", np.minimum, "the smaller of lhs and rhs", stablehlo=("stablehlo.minimum",), jax="jnp.minimum"),
    binary("pow", np.power, "lhs ** rhs (a negative base to a non-integer power is NaN, as in IEEE pow)",
           stablehlo=("stablehlo.power",), jax="jnp.power"),
    comparison("eq", np.equal, "1 where lhs == rhs"),
    comparison("ne", np.not_equal, "1 where lhs != rhs"),
    comparison("gt", np.greater, "1 where lhs > rhs"),
    comparison("ge", np.greater_equal, "1 where lhs >= rhs"),
    comparison("lt", np.less, "1 where lhs < rhs"),
    comparison("le", np.less_equal, "1 where lhs <= rhs"),
    ComputeOp("where", "where", 3, lambda xs, attrs: np.where(xs[0] != 0, xs[1], xs[2]), factors.elementwise,
              ELEMENTWISE_SFPU, "on_true where condition is nonzero, else on_false", Kernel("where"),
              arithmetic=False),
    ComputeOp("matmul", "matmul", 2, _matmul, factors.matmul, MATMUL,
              "(..., M, K) x (..., K, N) -> (..., M, N), batch dims broadcast", Kernel("matmul")),
    # tt-mlir's linear (a fully connected layer): TTNN runs it as one matmul whose output stage adds
    # the bias, so its cost is the matmul's; TTMetal runs the matmul program adding the bias block in
    # its kernel (the forms ttir-decompose-ttmlir-ops leaves fused)
    ComputeOp("linear", "linear", None, _linear, factors.linear, MATMUL,
              "matmul(a, b) + bias (bias optional, broadcast against the product)", Kernel("matmul")),
    ComputeOp("transpose", "transpose", 1, lambda xs, a: np.swapaxes(xs[0], a["dim0"], a["dim1"]),
              factors.permutation, DATA_MOVEMENT, "dims dim0 and dim1 swapped", Kernel("transpose"),
              linear=True, arithmetic=False),
    ComputeOp("permute", "permute", 1, lambda xs, a: np.transpose(xs[0], a["permutation"]), factors.permutation,
              DATA_MOVEMENT, "result dim i = operand dim permutation[i]", Kernel("permute"), linear=True,
              arithmetic=False),
    ComputeOp("reshape", "reshape", 1, lambda xs, a: xs[0].reshape(a["result_shape"]), factors.reshape,
              DATA_MOVEMENT, "the same elements in row-major order, another shape", Kernel("reshape"), linear=True,
              arithmetic=False),
    ComputeOp("broadcast", "broadcast", 1, _broadcast, factors.broadcast, DATA_MOVEMENT,
              "the operand broadcast to the result shape (numpy rules)", Kernel("broadcast"), ttnn="repeat",
              linear=True,
              arithmetic=False),
    ComputeOp("concat", "concat", None, lambda xs, a: np.concatenate(xs, axis=a["dim"]), factors.concat,
              DATA_MOVEMENT, "the operands joined along dim", Kernel("concat"), linear=True, arithmetic=False),
    ComputeOp("slice", "slice", 1, _slice, factors.slice_dims, DATA_MOVEMENT,
              "the elements begins[d], begins[d] + step[d], ... below ends[d] of every dim d", Kernel("slice"),
              linear=True, arithmetic=False),
    reduction("sum", np.sum, "the sum over dim_arg", summed=True, arithmetic=True),
    reduction("mean", np.mean, "the mean over dim_arg", summed=False, arithmetic=True),
    reduction("max", np.max, "the largest element over dim_arg", summed=False, arithmetic=False),
    # a NaN in the reduced elements is the result, as JAX's jnp.min (numpy's np.min); TT-Metal's
    # reduce takes ReduceOpMath::MIN, so TTMetal runs it as a tile_reduce min
    reduction("min", np.min, "the smallest element over dim_arg", summed=False, arithmetic=False),
    ComputeOp("softmax", "softmax", 1, _softmax, factors.keep_dim_attr, REDUCTION,
              "e ** x / sum(e ** x) along dimension", Kernel("softmax")),
    ComputeOp("embedding", "embedding", 2, _embedding, factors.embedding, DATA_MOVEMENT,
              "rows of weight gathered by the integer input indices", Kernel("embedding"),
              arithmetic=False),
    # a scan and the index selections over a dim (issue 23): split over a mesh without gathering
    # the dim (meshc/passes/partition_select.py); no TTMetal kernel
    ComputeOp("cumsum", "scan", 1, _scan(np.cumsum), factors.scan, REDUCTION,
              "the running sum along dim (from its end when reverse)", linear=True),
    # meshc's running product (tt-mlir has no cumprod; TTNN's ttnn.cumprod), split as cumsum is
    ComputeOp("cumprod", "scan", 1, _scan(np.cumprod), factors.scan, REDUCTION,
              "the running product along dim (from its end when reverse)"),
    ComputeOp("argmax", "argreduce", 1, _arg(np.argmax), factors.arg_reduction, REDUCTION,
              "the index of the first largest element along dim", arithmetic=False),
    ComputeOp("argmin", "argreduce", 1, _arg(np.argmin), factors.arg_reduction, REDUCTION,
              "the index of the first smallest element along dim", arithmetic=False),
    ComputeOp("top_k", "topk", 1, _top_k(False), factors.top_k, REDUCTION,
              "the k largest elements along dim, largest first (the first of equals first)", ttnn="topk",
              arithmetic=False),
    ComputeOp("top_k_indices", "topk", 1, _top_k(True), factors.top_k, REDUCTION,
              "the indices of the k largest elements along dim, in top_k's order", ttnn="topk_indices",
              arithmetic=False),
    # tt-mlir's sort, values and indices as two ops (as top_k's): over a split dim the dim is
    # gathered first (its rule's `keep`); no TTMetal kernel: ttir-decompose-selections writes it
    # with the ops TTMetal has
    ComputeOp("sort", "sort", 1, _sort(False), factors.keep_dim_attr, REDUCTION,
              "the elements along dim in ascending (descending) order, equals in their order, NaNs above numbers",
              arithmetic=False),
    ComputeOp("sort_indices", "sort", 1, _sort(True), factors.keep_dim_attr, REDUCTION,
              "the positions along dim of sort's elements", arithmetic=False),
    # the cheap elementwise ops JAX programs use (issue 23)
    unary("abs", np.abs, "|x|", stablehlo=("stablehlo.abs",), jax="jnp.abs"),
    unary("sign", np.sign, "-1, 0 or 1 as x is negative, zero or positive", stablehlo=("stablehlo.sign",),
          jax="jnp.sign"),
    unary("sin", np.sin, "the sine", stablehlo=("stablehlo.sine",), jax="jnp.sin"),
    unary("cos", np.cos, "the cosine", stablehlo=("stablehlo.cosine",), jax="jnp.cos"),
    unary("square", lambda x: x * x, "x * x", stablehlo=("chlo.square",), jax="jnp.square"),
    unary("erfc", _erfc, "1 - erf(x)", stablehlo=("chlo.erfc",), jax="jax.scipy.special.erfc"),
    unary("floor", np.floor, "the largest integer <= x", stablehlo=("stablehlo.floor",), jax="jnp.floor"),
    unary("ceil", np.ceil, "the smallest integer >= x", stablehlo=("stablehlo.ceil",), jax="jnp.ceil"),
    unary("round", np.round, "the nearest integer, halves to even", stablehlo=("stablehlo.round_nearest_even",),
          jax="jnp.round"),
    unary("log1p", np.log1p, "log(1 + x)", stablehlo=("stablehlo.log_plus_one",), jax="jnp.log1p"),
    unary("expm1", np.expm1, "e ** x - 1", stablehlo=("stablehlo.exponential_minus_one",), jax="jnp.expm1"),
    unary("rsqrt", _in_type(lambda x: 1.0 / np.sqrt(x)), "1 / sqrt(x)", stablehlo=("stablehlo.rsqrt",),
          jax="jax.lax.rsqrt"),
    binary("remainder", _remainder, "lhs - rhs * trunc(lhs / rhs): the sign of lhs (C's fmod)",
           stablehlo=("stablehlo.remainder",), jax="jax.lax.rem"),
    unary("bitwise_not", np.invert, "~x", stablehlo=("stablehlo.not",), jax="jnp.invert", integer_only=True),
    binary("bitwise_and", np.bitwise_and, "lhs & rhs", stablehlo=("stablehlo.and",), jax="jnp.bitwise_and",
           integer_only=True),
    binary("bitwise_or", np.bitwise_or, "lhs | rhs", stablehlo=("stablehlo.or",), jax="jnp.bitwise_or",
           integer_only=True),
    binary("bitwise_xor", np.bitwise_xor, "lhs ^ rhs", stablehlo=("stablehlo.xor",), jax="jnp.bitwise_xor",
           integer_only=True),
    binary("shift_left", _shift_left, "lhs << rhs (0 past the width)", stablehlo=("stablehlo.shift_left",),
           jax="jax.lax.shift_left", integer_only=True),
    binary("shift_right_arithmetic", _shift_right_arithmetic, "lhs >> rhs, sign-filled",
           stablehlo=("stablehlo.shift_right_arithmetic",), jax="jax.lax.shift_right_arithmetic",
           integer_only=True),
    binary("shift_right_logical", _shift_right_logical, "lhs >> rhs, zero-filled",
           stablehlo=("stablehlo.shift_right_logical",), jax="jax.lax.shift_right_logical", integer_only=True),
)

COMPUTE_OPS: dict[str, ComputeOp] = {e.name: e for e in _ENTRIES}
"""Every compute op meshc has, by its ttir name (without `ttir.`)."""


def compute_op(kind: str) -> ComputeOp:
    """The registry entry of `kind` (its ttir or its TTNN name); LayoutError naming the kinds there
    are otherwise."""
    for e in COMPUTE_OPS.values():
        if kind in (e.name, e.ttnn_name):
            return e
    raise LayoutError(f"unknown compute op '{kind}'; expected one of {', '.join(COMPUTE_OPS)}")


def is_matmul(kind: str) -> bool:
    """Whether op `kind` (a ttir or TTNN name) is timed as a matmul (cost class `matmul`)."""
    return any(kind in (e.name, e.ttnn_name) and e.cost == MATMUL for e in COMPUTE_OPS.values())


def tile_ops(kernel_family: str) -> tuple[str, ...]:
    """The tile ops of the TTMetal kernels of `kernel_family` (unary, binary, reduce), read live."""
    return tuple(e.ttmetal.tile_op for e in COMPUTE_OPS.values()
                 if e.ttmetal is not None and e.ttmetal.family == kernel_family and e.ttmetal.tile_op)


def stablehlo_spellings() -> dict[str, ComputeOp]:
    """StableHLO / CHLO op name -> the compute op the importer translates it to, one for one."""
    return {s: e for e in COMPUTE_OPS.values() for s in e.stablehlo}
