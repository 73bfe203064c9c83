"""One StableHLO op -> the ttir ops computing the same values (the importer's op table).

| StableHLO | ttir |
|---|---|
| the compute-op registry's spellings (meshc/layout/compute_ops.py `stablehlo`) | its op, one for one (`ELEMENTWISE`) |
| and or xor not | on i1: multiply maximum ne, 1 - x on the 1 / 0 values; on integers: the registry's bitwise ops |
| sdy.manual_computation (shard_map) and its collectives | mesh_shard in / out, the body, all_reduce all_gather reduce_scatter collective_permute (manual.py) |
| clamp | minimum(maximum(x, min), max) |
| is_finite | multiply(gt(x, -inf), lt(x, inf)): 1 / 0 in x's element type (NaN and +-inf give 0) |
| compare (EQ NE GT GE LT LE), select | eq ne gt ge lt le (1 / 0 in the operands' element type), where |
| dot_general | permute + reshape each operand to (batch..., M, K) x (batch..., K, N), matmul, reshape |
| reduce (add / maximum / minimum body) | sum / max / min over `dimensions` |
| broadcast_in_dim | permute (dims out of order) + reshape (insert 1s) + broadcast |
| transpose, reshape, convert | permute, reshape, typecast (identity when the type is kept) |
| slice concatenate dynamic_slice dynamic_update_slice gather partition_id reduce_window chlo.top_k, reduce of two tensors (argmax) | slice, concat, embedding; one-hot where / sum at a run-time start; cumsum, argmax / argmin, top_k / top_k_indices; partition_id an all_slice of the ids (stablehlo_select.py) |
| sort (with an iota: argsort), reverse around it | sort / sort_indices, descending as the reverses make it (stablehlo_sort.py) |
| while with a trip count known at import (jax.lax.scan, fori_loop) | its body unrolled; scalar integer arithmetic on constants folded (stablehlo_loops.py) |
| constant, iota | constant (folded through broadcast_in_dim and convert; iota computed at import) |
| sdy.sharding_constraint, custom_call @Sharding | ttir.sharding_constraint |

Constants are kept aside until an op other than a fold needs them, so a scalar constant
broadcast to a tensor becomes one splat `ttir.constant` of the tensor's shape.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

import numpy as np
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    TensorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from meshc.errors import LocatedError
from meshc.dialects import ttir
from meshc.layout.compute_ops import stablehlo_spellings
from meshc.dialects.ttir import tensor_shape
from meshc.layout.errors import LayoutError
from meshc.layout.limits import MAX_ELEMENTS, check_count
from meshc.layout.shapes import fmt_shape
from meshc.importers.context import ImportContext
from meshc.importers.manual import HANDLERS as MANUAL_HANDLERS
from meshc.importers.stablehlo_select import HANDLERS as SELECT_HANDLERS, arg_reduce
from meshc.importers.stablehlo_scatter import HANDLERS as SCATTER_HANDLERS
from meshc.importers.stablehlo_sort import HANDLERS as SORT_HANDLERS
from meshc.importers.stablehlo_loops import HANDLERS as LOOP_HANDLERS, fold_scalar_integers
from meshc.importers.source import attr_of, dense_array, op_name, unregistered_body

Handler = Callable[[ImportContext, Operation], None]

OPS = ttir.COMPUTE_OPS
"""The ttir op of each compute-op registry kind."""


# ---- helpers ---------------------------------------------------------------------------------

def tensor_type(shape, element_type: Attribute) -> TensorType:
    return TensorType(element_type, list(shape))


def element(v: SSAValue | Attribute) -> Attribute:
    t = v.type if isinstance(v, SSAValue) else v
    assert isinstance(t, TensorType)
    return t.element_type


def ints(attr: Attribute | None) -> list[int]:
    if attr is None:
        return []
    if isinstance(attr, IntegerAttr):
        return [int(attr.value.data)]
    if isinstance(attr, DenseArrayBase):
        return [int(x) for x in attr.get_values()]
    if isinstance(attr, ArrayAttr):
        return [int(a.value.data) for a in attr.data]  # type: ignore[attr-defined]
    if isinstance(attr, DenseIntOrFPElementsAttr):
        return [int(x) for x in attr.get_values()]
    raise ValueError(f"expected a list of integers, got {attr}")


def check_dims(op: Operation, dims: list[int], rank: int, what: str, count: int | None = None) -> list[int]:
    """`dims`, each in [0, rank) and none twice (and `count` of them when given), else a located
    error saying what the op has (`what`) and what was expected."""
    if any(not 0 <= d < rank for d in dims) or len(set(dims)) != len(dims) or (count is not None and len(dims) != count):
        want = f"{count} distinct" if count is not None else "distinct"
        raise LocatedError(f"has {what}; expected {want} dims of a rank-{rank} tensor", op)
    return dims


def dims_of(op: Operation, key: str, rank: int, count: int | None = None) -> list[int]:
    """The dims listed in attribute `key`, checked by `check_dims`."""
    try:
        dims = ints(attr_of(op, key))
    except (ValueError, AttributeError):
        raise LocatedError(f"expected {key} as a list of integers", op) from None
    return check_dims(op, dims, rank, f"{key} = {dims}", count)


def i64_array(values) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, [int(v) for v in values])


def reshape(imp: ImportContext, x: SSAValue, new_shape) -> SSAValue:
    if tensor_shape(x) == tuple(new_shape):
        return x
    return imp.emit(OPS["reshape"], [x], tensor_type(new_shape, element(x)))


def permute(imp: ImportContext, x: SSAValue, perm) -> SSAValue:
    perm = list(perm)
    s = tensor_shape(x)
    if sorted(perm) != list(range(len(s))):
        raise LocatedError(f"permutes the dims of a rank-{len(s)} tensor by {perm}, which is not a permutation of "
                           f"0..{len(s) - 1}", imp.located_at or imp.source)
    if perm == list(range(len(perm))):
        return x
    return imp.emit(OPS["permute"], [x], tensor_type([s[p] for p in perm], element(x)),
                    {"permutation": i64_array(perm)})


def broadcast(imp: ImportContext, x: SSAValue, to) -> SSAValue:
    if tensor_shape(x) == tuple(to):
        return x
    return imp.emit(OPS["broadcast"], [x], tensor_type(to, element(x)))


def result(imp: ImportContext, op: Operation, i: int = 0, like: SSAValue | None = None) -> TensorType:
    """The type of result i, checked; a boolean (i1) result of a data movement op takes the element
    type its operand `like` was given (a comparison's 1 / 0 values)."""
    t = op.results[i].type
    if like is not None and isinstance(t, TensorType) and t.element_type == IntegerType(1):
        t = tensor_type(t.get_shape(), element(like))
    return imp.check_type(t, op, f"result {i}")


# ---- constants -------------------------------------------------------------------------------

def constant(imp: ImportContext, op: Operation) -> None:
    value = attr_of(op, "value")
    if not isinstance(value, DenseIntOrFPElementsAttr):
        raise LocatedError(f"expected a dense elements value, got {value}", op)
    imp.constants[op.results[0]] = dense_array(value)


def iota(imp: ImportContext, op: Operation) -> None:
    t = result(imp, op)
    s = tuple(t.get_shape())
    check_count(math.prod(s), MAX_ELEMENTS, f"the iota {t}", "elements")
    (d,) = dims_of(op, "iota_dimension", len(s), 1)
    line = np.arange(s[d]).reshape([s[d] if i == d else 1 for i in range(len(s))])
    imp.constants[op.results[0]] = np.broadcast_to(line, s)


# ---- elementwise -----------------------------------------------------------------------------

ELEMENTWISE = {name: OPS[e.name] for name, e in stablehlo_spellings().items()}
"""StableHLO / CHLO op -> the ttir op it imports to one for one (the compute-op registry's spellings)."""


def elementwise(imp: ImportContext, op: Operation) -> None:
    xs = [imp.value(v) for v in op.operands]
    imp.values[op.results[0]] = imp.emit(ELEMENTWISE[op_name(op)], xs, result(imp, op))


def _is_bool(t: Attribute) -> bool:
    return isinstance(t, TensorType) and t.element_type == IntegerType(1)


def convert(imp: ImportContext, op: Operation) -> None:
    """typecast (nothing when the held type is kept); a conversion to a boolean is x != 0, 1 / 0
    in x's type (a typecast would keep 0.5 as 0.5)."""
    src = op.operands[0]
    to_bool = _is_bool(op.results[0].type) and not _is_bool(src.type)
    if src in imp.constants:
        result(imp, op)
        vals = imp.constants[src]
        imp.constants[op.results[0]] = (np.asarray(vals) != 0).astype(np.uint8) if to_bool else vals
        return
    x = imp.value(src)
    t = result(imp, op, like=x)
    if to_bool:
        zero = imp.materialize(np.zeros(tensor_shape(x)), x.type)
        imp.values[op.results[0]] = imp.emit(OPS["ne"], [x, zero], x.type)
    elif element(x) == t.element_type:
        imp.values[op.results[0]] = x
    else:
        imp.values[op.results[0]] = imp.emit(OPS["typecast"], [x], t)


_COMPARISONS = {"EQ": OPS["eq"], "NE": OPS["ne"], "GT": OPS["gt"],
                "GE": OPS["ge"], "LT": OPS["lt"], "LE": OPS["le"]}


def compare(imp: ImportContext, op: Operation) -> None:
    """The i1 result becomes 1 / 0 in the operands' element type (the device holds no booleans)."""
    direction = (unregistered_body(attr_of(op, "comparison_direction"), "stablehlo.comparison_direction") or "").strip()
    if direction not in _COMPARISONS:
        raise LocatedError(f"compares by '{direction}'; meshc imports EQ, NE, GT, GE, LT, LE", op)
    a, b = (imp.value(v) for v in op.operands)
    t = op.results[0].type
    assert isinstance(t, TensorType)
    imp.values[op.results[0]] = imp.emit(_COMPARISONS[direction], [a, b], tensor_type(t.get_shape(), element(a)))


def select(imp: ImportContext, op: Operation) -> None:
    """where; selecting between booleans, the result is held as on_true is, and an on_false held
    in another type is converted to it (1 / 0 stay exact)."""
    cond, a, b = (imp.value(v) for v in op.operands)
    t = result(imp, op, like=a)
    if element(b) != t.element_type:
        b = imp.emit(OPS["typecast"], [b], tensor_type(tensor_shape(b), t.element_type))
    imp.values[op.results[0]] = imp.emit(OPS["where"], [cond, a, b], t)


def clamp(imp: ImportContext, op: Operation) -> None:
    """clamp(min, x, max) = minimum(maximum(x, min), max), as StableHLO defines it; a scalar bound
    is broadcast to x's shape."""
    t = result(imp, op)
    full = tuple(t.get_shape())
    lo, x, hi = op.operands

    def bound(v: SSAValue) -> SSAValue:
        if v in imp.constants and v not in imp.values:
            return imp.materialize(np.broadcast_to(np.asarray(imp.constants[v]), full), t)
        b = imp.value(v)
        return b if tensor_shape(b) == full else broadcast(imp, reshape(imp, b, [1] * len(full)), full)

    low = imp.emit(OPS["maximum"], [imp.value(x), bound(lo)], t)
    imp.values[op.results[0]] = imp.emit(OPS["minimum"], [low, bound(hi)], t)


def is_finite(imp: ImportContext, op: Operation) -> None:
    """-inf < x < inf: gt and lt (1 / 0 in x's element type; a NaN compares false to both)
    multiplied; jax.nn.logsumexp writes it to guard its max."""
    src = op.operands[0]
    if src in imp.constants and src not in imp.values:
        imp.constants[op.results[0]] = np.isfinite(np.asarray(imp.constants[src], np.float64)).astype(np.uint8)
        return
    x = imp.value(src)
    t = tensor_type(tensor_shape(x), element(x))
    above = imp.emit(OPS["gt"], [x, imp.materialize(np.full(tensor_shape(x), -np.inf), t)], t)
    below = imp.emit(OPS["lt"], [x, imp.materialize(np.full(tensor_shape(x), np.inf), t)], t)
    imp.values[op.results[0]] = imp.emit(OPS["multiply"], [above, below], t)


# ---- booleans ---------------------------------------------------------------------------------

def _boolean_operands(imp: ImportContext, op: Operation) -> list[SSAValue]:
    """The operands of a logical op on i1 values, which meshc holds as 1 / 0 in a number type (the
    compared operands'); a constant operand takes the type of the others."""
    t = op.results[0].type
    if not isinstance(t, TensorType) or t.element_type != IntegerType(1):
        raise LocatedError(f"is a bitwise op on {t}; meshc imports {op_name(op).split('.')[1]} on booleans (i1) only",
                           op)
    held = [imp.value(v) for v in op.operands if v not in imp.constants or v in imp.values]
    if not held:
        raise LocatedError("combines constant booleans only; meshc holds booleans in the type of the values "
                           "they were compared from", op)
    like = element(held[0])
    out = []
    for v in op.operands:
        if v in imp.constants and v not in imp.values:
            vals = np.asarray(imp.constants[v]).astype(np.float64)
            out.append(imp.materialize(np.broadcast_to(vals, tensor_shape(v)), tensor_type(tensor_shape(v), like)))
        else:
            out.append(imp.value(v))
    return out


def logical(imp: ImportContext, op: Operation) -> None:
    """and / or / xor / not on 1 / 0 values: multiply, maximum, ne, 1 - x (exact on 1 and 0); on
    integers, the bitwise ops of the registry (`ELEMENTWISE`)."""
    t = op.results[0].type
    if isinstance(t, TensorType) and t.element_type != IntegerType(1):
        elementwise(imp, op)
        return
    xs = _boolean_operands(imp, op)
    t = tensor_type(op.results[0].type.get_shape(), element(xs[0]))  # type: ignore[union-attr]
    kind = op_name(op)
    if kind == "stablehlo.not":
        one = imp.materialize(np.ones(tuple(t.get_shape())), t)
        imp.values[op.results[0]] = imp.emit(OPS["subtract"], [one, xs[0]], t)
        return
    cls = {"stablehlo.and": OPS["multiply"], "stablehlo.or": OPS["maximum"], "stablehlo.xor": OPS["ne"]}[kind]
    imp.values[op.results[0]] = imp.emit(cls, xs, t)


# ---- data movement ---------------------------------------------------------------------------

def _in_order(dims: list[int], rank: int, in_shape) -> tuple[list[int], list[int]]:
    """broadcast_in_dim as permute + reshape: the operand permutation putting `dims` in increasing
    order, and the shape of rank `rank` with the operand's sizes there and 1 elsewhere."""
    order = sorted(range(len(dims)), key=lambda i: dims[i])
    placed = {dims[i]: in_shape[i] for i in range(len(dims))}
    return order, [placed.get(d, 1) for d in range(rank)]


def broadcast_in_dim(imp: ImportContext, op: Operation) -> None:
    src = op.operands[0]
    t = result(imp, op, like=None if src in imp.constants else imp.value(src))
    out_shape = tuple(t.get_shape())
    dims = dims_of(op, "broadcast_dimensions", len(out_shape), len(tensor_shape(src)))
    order, mid = _in_order(dims, len(out_shape), tensor_shape(src))
    if src in imp.constants:
        vals = np.transpose(imp.constants[src], order).reshape(mid)
        imp.constants[op.results[0]] = np.broadcast_to(vals, out_shape)
        return
    x = reshape(imp, permute(imp, imp.value(src), order), mid)
    imp.values[op.results[0]] = broadcast(imp, x, out_shape)


def transpose(imp: ImportContext, op: Operation) -> None:
    x = imp.value(op.operands[0])
    result(imp, op, like=x)
    imp.values[op.results[0]] = permute(imp, x, ints(attr_of(op, "permutation")))


def reshape_op(imp: ImportContext, op: Operation) -> None:
    src = op.operands[0]
    t = result(imp, op, like=None if src in imp.constants else imp.value(src))
    if src in imp.constants:
        imp.constants[op.results[0]] = imp.constants[src].reshape(t.get_shape())
        return
    imp.values[op.results[0]] = reshape(imp, imp.value(src), t.get_shape())


# ---- dot_general -----------------------------------------------------------------------------

_DIMS = re.compile(r"(\w+)\s*=\s*\[([\d,\s]*)\]")


def dot_general(imp: ImportContext, op: Operation) -> None:
    t = result(imp, op)
    body = unregistered_body(attr_of(op, "dot_dimension_numbers"), "stablehlo.dot")
    if body is None:
        raise LocatedError("expected dot_dimension_numbers = #stablehlo.dot<...>", op)
    nums = {k: [int(x) for x in v.replace(" ", "").split(",") if x] for k, v in _DIMS.findall(body)}
    lb, rb = nums.get("lhs_batching_dimensions", []), nums.get("rhs_batching_dimensions", [])
    lc, rc = nums.get("lhs_contracting_dimensions", []), nums.get("rhs_contracting_dimensions", [])
    lhs, rhs = imp.value(op.operands[0]), imp.value(op.operands[1])
    ls, rs = tensor_shape(lhs), tensor_shape(rhs)
    for side, dims, rank in (("lhs", lb + lc, len(ls)), ("rhs", rb + rc, len(rs))):
        check_dims(op, dims, rank, f"{side} batching and contracting dims {dims}")
    if len(lb) != len(rb) or len(lc) != len(rc) or any(ls[a] != rs[b] for a, b in zip(lb + lc, rb + rc)):
        raise LocatedError(f"pairs lhs dims {lb + lc} of {fmt_shape(ls)} with rhs dims {rb + rc} of {fmt_shape(rs)}; "
                           "expected as many of each, of equal sizes", op)
    # K is the contracting dims merged: any order of the pairs gives the same sums, so take the
    # lhs's own order. The merged K of a reshape is then split where its major dim is split (a
    # heads dim sharded in `bqhd,bkhd->bqk`), and the matmul's sum factor leaves partial sums
    # (one all_reduce of the output) instead of both operands gathered (docs/propagation.md)
    if lc:
        lc, rc = (list(t) for t in zip(*sorted(zip(lc, rc))))
    lf = [d for d in range(len(ls)) if d not in lb and d not in lc]
    rf = [d for d in range(len(rs)) if d not in rb and d not in rc]
    batch = [ls[d] for d in lb]
    mm_element = element(lhs)
    if not lb and len(lc) == 1 and len(rs) == 2:  # (free..., K) x (K, N): matmul broadcasts the free dims
        a = permute(imp, lhs, lf + lc)
        b = permute(imp, rhs, rc + rf)
        out = imp.emit(OPS["matmul"], [a, b], tensor_type([ls[d] for d in lf] + [rs[rf[0]]], mm_element))
    else:
        m, k, n = math.prod(ls[d] for d in lf), math.prod(ls[d] for d in lc), math.prod(rs[d] for d in rf)
        a = reshape(imp, permute(imp, lhs, lb + lf + lc), batch + [m, k])
        b = reshape(imp, permute(imp, rhs, rb + rc + rf), batch + [k, n])
        out = imp.emit(OPS["matmul"], [a, b], tensor_type(batch + [m, n], mm_element))
        out = reshape(imp, out, batch + [ls[d] for d in lf] + [rs[d] for d in rf])
    if element(out) != t.element_type:
        out = imp.emit(OPS["typecast"], [out], t)
    imp.values[op.results[0]] = out


# ---- reduce ----------------------------------------------------------------------------------

_REDUCTIONS = {"stablehlo.add": (OPS["sum"], 0.0), "stablehlo.maximum": (OPS["max"], -np.inf),
               "stablehlo.minimum": (OPS["min"], np.inf),
               "stablehlo.or": (OPS["max"], 0.0), "stablehlo.and": (OPS["max"], 1.0)}
"""Reduce body -> the ttir reduction and the init it must start from. On booleans (1 / 0) `or`
(jnp.any) is the max from false, `and` (jnp.all) 1 - the max of 1 - x, from true."""


def _bounds(element: Attribute) -> tuple[float, float]:
    """The values at or beyond which a max's (min's) init is its identity in `element`: the
    float's finite extremes (JAX starts a max from -inf, other front ends from the lowest finite
    float), the integer's smallest / largest (JAX's jnp.max / jnp.min of int32 start from -2**31
    / 2**31 - 1; a 64-bit init saturates into i32, as tt-mlir normalizes it)."""
    if not isinstance(element, IntegerType):
        return -3.0e38, 3.0e38
    w = min(element.width.data, 32)  # a 64-bit init saturates into 32 bits, as its type is normalized
    return (0, 2 ** w - 1) if element.signedness.data == Signedness.UNSIGNED else (-(2 ** (w - 1)), 2 ** (w - 1) - 1)


def _is_identity(init: np.ndarray, identity: float, element: Attribute) -> bool:
    """Whether a reduction's `init` is its `identity` in `element` (`_bounds` for a max / min)."""
    if np.all(init == identity) or not np.isinf(identity):
        return bool(np.all(init == identity))
    lo, hi = _bounds(element)
    return bool(np.all(init <= lo) if identity < 0 else np.all(init >= hi))


def _identity_words(identity: float, element: Attribute) -> str:
    """The identity as an error names it: an integer max / min's is the extreme integer."""
    if not np.isinf(identity) or not isinstance(element, IntegerType):
        return str(identity)
    lo, hi = _bounds(element)
    return f"{lo} (the smallest {element})" if identity < 0 else f"{hi} (the largest {element})"


def reduce(imp: ImportContext, op: Operation) -> None:
    if len(op.operands) == 4 and len(op.results) == 2:  # values and indices: argmax / argmin
        arg_reduce(imp, op)
        return
    if len(op.operands) != 2 or len(op.results) != 1:
        raise LocatedError(f"reduces {len(op.operands) // 2} tensors at once; meshc imports single-tensor "
                           "sums and maxima", op)
    x = imp.value(op.operands[0])
    t = result(imp, op, like=x)
    body = [o for o in op.regions[0].blocks.first.ops if op_name(o) != "stablehlo.return"]  # type: ignore
    kind = op_name(body[0]) if len(body) == 1 else None
    boolean = isinstance(op.results[0].type, TensorType) and op.results[0].type.element_type == IntegerType(1)
    if kind in ("stablehlo.and", "stablehlo.or") and not boolean:
        raise LocatedError(f"reduces with {kind} over {op.results[0].type}; meshc imports and / or reductions of "
                           "booleans (i1) only", op)
    if kind not in _REDUCTIONS:
        raise LocatedError(f"reduces with {', '.join(op_name(o) for o in body) or 'nothing'}; meshc imports "
                           "reductions by stablehlo.add (sum), stablehlo.maximum (max) and stablehlo.minimum "
                           "(min)", op)
    cls, identity = _REDUCTIONS[kind]
    init = imp.constants.get(op.operands[1])
    if boolean and init is not None:  # an i1 constant's true may read as 1 or -1
        init = (np.asarray(init) != 0).astype(np.float64)
    source_type = op.operands[1].type
    ok_init = init is not None and isinstance(source_type, TensorType) and _is_identity(
        np.asarray(init), identity, source_type.element_type)
    if not ok_init:
        words = _identity_words(identity, source_type.element_type) if isinstance(source_type, TensorType) \
            else identity
        raise LocatedError(f"starts the {cls.name.split('.')[1]} from a value other than {words}; meshc imports "
                           "reductions from their identity", op)
    dims = dims_of(op, "dimensions", len(tensor_shape(x)))
    attrs = {"dim_arg": ArrayAttr([IntegerAttr(d, i32) for d in dims])}
    if kind == "stablehlo.and":  # all(x) = 1 - any(1 - x) on 1 / 0 values
        ones = imp.materialize(np.ones(tensor_shape(x)), x.type)
        flipped = imp.emit(cls, [imp.emit(OPS["subtract"], [ones, x], x.type)], t, attrs)
        one = imp.materialize(np.ones(tuple(t.get_shape())), t)
        imp.values[op.results[0]] = imp.emit(OPS["subtract"], [one, flipped], t)
        return
    imp.values[op.results[0]] = imp.emit(cls, [x], t, attrs)


# ---- sharding --------------------------------------------------------------------------------

def sdy_constraint(imp: ImportContext, op: Operation) -> None:
    t = result(imp, op)
    spec = imp.spec_of(attr_of(op, "sharding"), t.get_num_dims(), op)  # type: ignore[arg-type]
    if spec is None:
        raise LocatedError("expected sharding = #sdy.sharding<...>", op)
    x = op.operands[0]
    if t.get_num_dims() == 0 and x in imp.constants:  # a scalar constant (a loop counter with Explicit
        imp.constants[op.results[0]] = imp.constants[x]  # axes): nothing to place, and it stays foldable
        return
    imp.values[op.results[0]] = imp.constraint(imp.value(x), spec, imp.open_dims_of(attr_of(op, "sharding"), op))


def sdy_all_slice(imp: ImportContext, op: Operation) -> None:
    """Shardy's all_slice is global-view: the value is unchanged and leaves with `out_sharding`
    (the operand's with `slicing_axes` appended), so it reads as a constraint to that sharding;
    ttir-partition / reshard-to-collectives make it meshc's `all_slice`, which moves nothing."""
    t = result(imp, op)
    spec = imp.spec_of(attr_of(op, "out_sharding"), t.get_num_dims(), op)  # type: ignore[arg-type]
    if spec is None:
        raise LocatedError("expected out_sharding = #sdy.sharding<...>", op)
    imp.values[op.results[0]] = imp.constraint(imp.value(op.operands[0]), spec)


def custom_call(imp: ImportContext, op: Operation) -> None:
    target = attr_of(op, "call_target_name")
    name = target.data if isinstance(target, StringAttr) else "?"
    if name != "Sharding":
        raise LocatedError(f"calls @{name}, which meshc cannot import (the only custom call it reads is "
                           "@Sharding, a sharding constraint)", op)
    t = result(imp, op)
    sharding = attr_of(op, "mhlo.sharding")
    spec = None if sharding is None else imp.spec_of(sharding, t.get_num_dims(), op)
    if spec is None:
        raise LocatedError("@Sharding needs an mhlo.sharding attribute", op)
    config = attr_of(op, "backend_config")
    open_dims = unspecified_dims(config.data if isinstance(config, StringAttr) else "", t.get_num_dims(), op)
    imp.values[op.results[0]] = imp.constraint(imp.value(op.operands[0]), spec, open_dims)


def unspecified_dims(config: str, rank: int, at: Operation) -> tuple[int, ...]:
    """The dims GSPMD leaves open (`backend_config = "unspecified_dims=[0]"`, what JAX writes for
    `P.UNCONSTRAINED` with Shardy off); () without that key."""
    m = re.search(r"unspecified_dims=\[([^\]]*)\]", config)
    if m is None:
        return ()
    try:
        dims = sorted({int(d) for d in m.group(1).replace(" ", "").split(",") if d})
    except ValueError:
        dims = [-1]
    if any(not 0 <= d < rank for d in dims):
        raise LocatedError(f"backend_config '{config}' names dims outside the rank-{rank} tensor "
                           "(expected unspecified_dims=[d, ...] with 0 <= d < rank)", at)
    return tuple(dims)


# ---- the table -------------------------------------------------------------------------------

HANDLERS: dict[str, Handler] = {
    **{name: elementwise for name in ELEMENTWISE},
    **{name: logical for name in ("stablehlo.and", "stablehlo.or", "stablehlo.xor", "stablehlo.not")},
    **MANUAL_HANDLERS,
    **SELECT_HANDLERS,
    **SCATTER_HANDLERS,
    **SORT_HANDLERS,
    **LOOP_HANDLERS,
    "stablehlo.compare": compare,
    "stablehlo.select": select,
    "stablehlo.clamp": clamp,
    "stablehlo.is_finite": is_finite,
    "stablehlo.convert": convert,
    "stablehlo.constant": constant,
    "arith.constant": constant,  # tt-mlir's Shardy tests write tensor constants this way too
    "stablehlo.iota": iota,
    "stablehlo.broadcast_in_dim": broadcast_in_dim,
    "stablehlo.transpose": transpose,
    "stablehlo.reshape": reshape_op,
    "stablehlo.dot_general": dot_general,
    "stablehlo.reduce": reduce,
    "stablehlo.custom_call": custom_call,
    "sdy.sharding_constraint": sdy_constraint,
    "sdy.all_slice": sdy_all_slice,
}


def translate_op(imp: ImportContext, op: Operation) -> None:
    name = op_name(op)
    handler = HANDLERS.get(name)
    if handler is None:
        raise LocatedError("has no ttir translation in meshc (docs/importers.md lists the ops it imports)", op)
    if fold_scalar_integers(imp, op):  # a loop counter's arithmetic, known at import
        return
    try:
        handler(imp, op)
    except LayoutError as e:  # a placement-model refusal (a limit, a bad spec): its own words
        raise LocatedError(str(e), op) from None
    except (IndexError, KeyError, ValueError, TypeError, AttributeError, VerifyException) as e:
        # the net under the checks above: an op whose attributes or regions are not in the form
        # the handler reads is the input's fault, reported at it rather than as meshc's crash
        detail = str(e).splitlines()[0] if str(e) else ""
        raise LocatedError(f"cannot be imported as written ({type(e).__name__}{': ' + detail if detail else ''}); "
                           "docs/importers.md gives the forms meshc reads", op) from None
