"""`ttir-decompose-selections`: cumsum, cumprod, argmax, argmin, top_k, top_k_indices, sort and sort_indices
written with the ops TTMetal has kernels for, so `ttir-to-ttmetal-pipeline` lowers them (it runs
this after ttir-partition, on each device's ops; TTNN has the ops themselves).

* `cumsum` along d: a matmul by the upper-triangular 0/1 matrix of d's length (lower, reversed;
  d moved last by a permute and back when it is not the last dim); the sums associate as the
  matmul adds them.
* `cumprod` along d: ceil(log2 n) steps, each multiplying every element by the one 2**t places
  before it (after it, reversed; 1 past the end: a slice joined to ones by concat). Exact on
  integers (wrapping as the device multiplies); on floats the products associate as a tree,
  within rounding of a sequential scan.
* `argmax` along d: the maximum (keeping d), where each element equals it the negated position
  (-inf elsewhere), the maximum of that, negated: the first position of the maximum, made an
  integer by a typecast; taken on a key that puts the first NaN first, as numpy and JAX do
  (`nan_first`, which ttir-partition's pick of the gathered candidates uses too). `argmin` is
  argmax of the negation.
* `top_k` / `top_k_indices` along d: k rounds of argmax's first maximum (NaNs first, as JAX),
  each taken position set to -inf for the next round; the k maxima (values) or positions
  (indices) joined by a concat.
* `sort` / `sort_indices` along d (d moved last, the other dims flattened to R rows of n): each
  element's rank, the count of the elements that sort before it, from an R x n x n cube of
  comparisons (smaller, or larger if descending; equal and earlier; NaNs above numbers), summed;
  then place p of a row takes the element whose rank is p: the maximum over the row of
  where(rank == p, x, the lowest value) for the values (exact: one element and fills; a NaN or
  -0.0 comes through), of the positions for the indices. n x n work a row: for short rows.

Positions are computed in f32 (exact below 2**24), a bf16 operand typecast to f32 first (its
values come back unchanged). Each op is replaced where it stands; its location is kept.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
    f32,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from meshc.dialects import ttir
from meshc.dialects.ttir.base import bool_value, int_value, tensor_shape
from meshc.dialects.ttir.scan import ArgReduceBase, ScanBase, SortBase, TopKBase

OPS = ttir.COMPUTE_OPS
_SI32 = IntegerType(32, Signedness.SIGNED)


class _At:
    """New ops inserted before `op`, at its location."""

    def __init__(self, op: Operation):
        self.op = op

    def emit(self, kind: str, operands: list[SSAValue], shape, element: Attribute, **attrs) -> SSAValue:
        new = OPS[kind].create(operands=operands, result_types=[TensorType(element, list(shape))], attributes=attrs)
        new.location = self.op.location
        Rewriter.insert_op(new, InsertPoint.before(self.op))
        return new.results[0]

    def constant(self, values: np.ndarray, element: Attribute) -> SSAValue:
        t = TensorType(element, list(values.shape))
        if isinstance(element, IntegerType):  # an integer cumsum's 0/1 matrix as integers
            values = values.astype(np.int64)
        flat = [v.item() for v in values.reshape(-1)]
        new = ttir.ConstantOp.create(result_types=[t], attributes={"value": DenseIntOrFPElementsAttr.from_list(t, flat)})
        new.location = self.op.location
        Rewriter.insert_op(new, InsertPoint.before(self.op))
        return new.results[0]

    def reduce_max(self, x: SSAValue, d: int) -> SSAValue:
        shape = tuple(1 if i == d else n for i, n in enumerate(tensor_shape(x)))
        return self.emit("max", [x], shape, x.type.element_type,  # type: ignore[attr-defined]
                         dim_arg=ArrayAttr([IntegerAttr(d, i32)]), keep_dim=BoolAttr.from_bool(True))


def _along(values: np.ndarray, rank: int, d: int) -> np.ndarray:
    return values.reshape([values.size if i == d else 1 for i in range(rank)])


def _first_max(at: _At, z: SSAValue, d: int, neg_iota: SSAValue, ninf: SSAValue) -> tuple[SSAValue, SSAValue]:
    """(the maximum along d, its first position as f32), both keeping d as size 1."""
    shape = tensor_shape(z)
    best = at.reduce_max(z, d)
    hit = at.emit("eq", [z, best], shape, f32)
    cand = at.emit("where", [hit, neg_iota, ninf], shape, f32)
    return best, at.emit("neg", [at.reduce_max(cand, d)], tensor_shape(best), f32)


def nan_first(emit, z: SSAValue, d: int) -> SSAValue:
    """The key argmax / argmin pick by so a NaN comes first, as numpy's argmax and JAX's (its
    comparator lets a NaN win): along d, where any of f32 `z` is NaN, 1 at the NaNs and 0
    elsewhere, else `z` itself. The first maximum of the key is the first NaN, or the first
    maximum. `emit(kind, operands, shape, element, **attrs)` adds a ttir op (this pass's and
    ttir-partition's emitters)."""
    shape = tensor_shape(z)
    one = [1 if i == d else n for i, n in enumerate(shape)]
    nan = emit("ne", [z, z], shape, f32)
    anyn = emit("max", [nan], one, f32, dim_arg=ArrayAttr([IntegerAttr(d, i32)]), keep_dim=BoolAttr.from_bool(True))
    return emit("where", [emit("broadcast", [anyn], shape, f32), nan, z], shape, f32)


def _in_f32(at: _At, x: SSAValue) -> SSAValue:
    t = x.type
    assert isinstance(t, TensorType)
    return x if t.element_type == f32 else at.emit("typecast", [x], tensor_shape(x), f32)


def _cumsum(at: _At, op: Operation) -> SSAValue:
    x = op.operands[0]
    shape = tensor_shape(x)
    rank, d = len(shape), int_value(op.attributes["dim"]) % len(tensor_shape(x))
    elem = x.type.element_type  # type: ignore[attr-defined]
    perm = [i for i in range(rank) if i != d] + [d]
    moved = x if d == rank - 1 else at.emit("permute", [x], [shape[i] for i in perm], elem,
                                           permutation=DenseArrayBase.from_list(i64, perm))
    ones = np.ones((shape[d], shape[d]), dtype=np.float32)  # reversed: element j sums i >= j
    band = at.constant(np.tril(ones) if bool_value(op.attributes.get("reverse")) else np.triu(ones), elem)
    out = at.emit("matmul", [moved, band], tensor_shape(moved), elem)
    if d == rank - 1:
        return out
    back = [perm.index(i) for i in range(rank)]
    return at.emit("permute", [out], shape, elem, permutation=DenseArrayBase.from_list(i64, back))


def _cumprod(at: _At, op: Operation) -> SSAValue:
    """A running product along d in ceil(log2 n) steps (Hillis and Steele's scan): at step s
    each element is multiplied by the one s places before it (after it, reversed), 1 past the
    dim's end, a slice of the last result joined by concat to a constant of ones."""
    x = op.operands[0]
    shape = tensor_shape(x)
    rank, d = len(shape), int_value(op.attributes["dim"]) % len(shape)
    n, elem = shape[d], x.type.element_type  # type: ignore[attr-defined]
    reverse = bool_value(op.attributes.get("reverse"))
    y, s = x, 1
    while s < n:
        pad = at.constant(np.ones([s if i == d else m for i, m in enumerate(shape)], dtype=np.float32), elem)
        lo, hi = (s, n) if reverse else (0, n - s)
        kept = at.emit("slice", [y], [n - s if i == d else m for i, m in enumerate(shape)], elem,
                       begins=ArrayAttr([IntegerAttr(lo if i == d else 0, i32) for i in range(rank)]),
                       ends=ArrayAttr([IntegerAttr(hi if i == d else m, i32) for i, m in enumerate(shape)]),
                       step=ArrayAttr([IntegerAttr(1, i32)] * rank))
        shifted = at.emit("concat", [kept, pad] if reverse else [pad, kept], shape, elem,
                          dim=IntegerAttr(d, _SI32))
        y, s = at.emit("multiply", [y, shifted], shape, elem), 2 * s
    return y


def _selection(at: _At, op: Operation) -> SSAValue:
    x = op.operands[0]
    shape = tensor_shape(x)
    rank, d = len(shape), int_value(op.attributes["dim"]) % len(shape)
    rt = op.results[0].type
    assert isinstance(rt, TensorType)
    z = _in_f32(at, x)
    if op.name.endswith("argmin"):
        z = at.emit("neg", [z], shape, f32)
    iota = np.arange(shape[d], dtype=np.float32)
    neg_iota = at.constant(_along(-iota, rank, d), f32)
    ninf = at.constant(np.full([1] * rank, -np.inf, dtype=np.float32), f32)
    rounds = int_value(op.attributes["k"]) if isinstance(op, TopKBase) else 1
    picked_values, picked_at = [], []
    for j in range(rounds):
        best, where = _first_max(at, nan_first(at.emit, z, d), d, neg_iota, ninf)
        if isinstance(op, TopKBase) and not op.name.endswith("indices"):  # the value: NaN if one is picked
            best = at.reduce_max(z, d)
        picked_values.append(best)
        picked_at.append(where)
        if j + 1 < rounds:  # the taken position out of the next round
            taken = at.emit("eq", [at.constant(_along(iota, rank, d), f32), where], shape, f32)
            z = at.emit("where", [taken, ninf, z], shape, f32)
    wanted = picked_values if isinstance(op, TopKBase) and not op.name.endswith("indices") else picked_at
    joined = wanted[0] if len(wanted) == 1 else at.emit(
        "concat", wanted, [rounds if i == d else n for i, n in enumerate(shape)], f32, dim=IntegerAttr(d, _SI32))
    out_shape = tuple(tensor_shape(joined))
    if rt.element_type != f32:
        joined = at.emit("typecast", [joined], out_shape, rt.element_type)
    if out_shape != tuple(rt.get_shape()):  # an argmax without keep_dim drops d
        joined = at.emit("reshape", [joined], rt.get_shape(), rt.element_type)
    return joined


def lowest(element: Attribute) -> float:
    """The identity of a maximum in `element` (a fill that never wins one): -inf for a float, the
    smallest integer otherwise. ttir-partition's masks of padding use it too."""
    if isinstance(element, IntegerType):
        return 0 if element.signedness.data == Signedness.UNSIGNED else -(2 ** (element.width.data - 1))
    return float("-inf")


def highest(element: Attribute) -> float:
    """The identity of a minimum in `element`: +inf for a float, the largest integer otherwise."""
    if isinstance(element, IntegerType):
        w = element.width.data
        return 2 ** w - 1 if element.signedness.data == Signedness.UNSIGNED else 2 ** (w - 1) - 1
    return float("inf")


def _sort(at: _At, op: SortBase) -> SSAValue:
    """ttir.sort / ttir.sort_indices by ranks (module docstring)."""
    x = op.operands[0]
    shape = tensor_shape(x)
    rank_, d, n = len(shape), op.sort_dim(), tensor_shape(x)[op.sort_dim()]
    elem = x.type.element_type  # type: ignore[attr-defined]
    rt = op.results[0].type
    assert isinstance(rt, TensorType)
    perm = [i for i in range(rank_) if i != d] + [d]
    moved_shape = [shape[i] for i in perm]
    moved = x if d == rank_ - 1 else at.emit("permute", [x], moved_shape, elem,
                                             permutation=DenseArrayBase.from_list(i64, perm))
    rows = int(np.prod(moved_shape[:-1], dtype=np.int64))
    cube = (rows, n, n)
    flat = at.emit("reshape", [moved], (rows, n), elem)
    xi = at.emit("broadcast", [at.emit("reshape", [flat], (rows, n, 1), elem)], cube, elem)  # [r, i, j] = x_i
    xj = at.emit("broadcast", [at.emit("reshape", [flat], (rows, 1, n), elem)], cube, elem)  # [r, i, j] = x_j

    def f(kind: str, a: SSAValue, b: SSAValue) -> SSAValue:  # a comparison as 1 / 0 in f32
        v = at.emit(kind, [a, b], cube, elem)
        return v if elem == f32 else at.emit("typecast", [v], cube, f32)

    descending = bool_value(op.attributes.get("descending"))
    earlier = at.constant(np.broadcast_to(np.tril(np.ones((n, n), np.float32), -1), cube).copy(), f32)  # j < i
    before = at.emit("add", [f("gt" if descending else "lt", xj, xi),
                             at.emit("multiply", [f("eq", xj, xi), earlier], cube, f32)], cube, f32)
    if not isinstance(elem, IntegerType):  # NaNs above every number, in their order among themselves
        nan_i, nan_j = f("ne", xi, xi), f("ne", xj, xj)
        one = at.constant(np.ones((1, 1, 1), np.float32), f32)
        nan, num = (nan_j, nan_i) if descending else (nan_i, nan_j)  # the NaN of the pair, the number
        before = at.emit("add", [before, at.emit("multiply", [nan, at.emit("subtract", [one, num], cube, f32)],
                                                 cube, f32)], cube, f32)
        both = at.emit("multiply", [nan_i, nan_j], cube, f32)
        before = at.emit("add", [before, at.emit("multiply", [both, earlier], cube, f32)], cube, f32)
    ranks = at.emit("sum", [before], (rows, n, 1), f32, dim_arg=ArrayAttr([IntegerAttr(2, i32)]),
                    keep_dim=BoolAttr.from_bool(True))
    places = at.constant(np.broadcast_to(np.arange(n, dtype=np.float32), cube).copy(), f32)  # [r, i, p] = p
    hit = at.emit("eq", [at.emit("broadcast", [ranks], cube, f32), places], cube, f32)  # x_i goes to place p
    if op.name.endswith("indices"):
        source = at.constant(np.broadcast_to(np.arange(n, dtype=np.float32)[:, None], cube).copy(), f32)
        picked, out_elem = at.emit("where", [hit, source, at.constant(np.full((1, 1, 1), -1.0, np.float32), f32)],
                                   cube, f32), f32
    else:
        fill = at.constant(np.full((1, 1, 1), lowest(elem)), elem)
        picked, out_elem = at.emit("where", [hit, xi, fill], cube, elem), elem
    out = at.emit("max", [picked], (rows, 1, n), out_elem, dim_arg=ArrayAttr([IntegerAttr(1, i32)]),
                  keep_dim=BoolAttr.from_bool(True))
    if out_elem != rt.element_type:
        out = at.emit("typecast", [out], (rows, 1, n), rt.element_type)
    out = at.emit("reshape", [out], moved_shape, rt.element_type)
    if d == rank_ - 1:
        return out
    back = [perm.index(i) for i in range(rank_)]
    return at.emit("permute", [out], shape, rt.element_type, permutation=DenseArrayBase.from_list(i64, back))


def decompose(module: ModuleOp) -> None:
    for op in list(module.walk()):
        if isinstance(op, SortBase):
            out = _sort(_At(op), op)
        elif isinstance(op, ScanBase):
            out = (_cumprod if op.name.endswith("cumprod") else _cumsum)(_At(op), op)
        elif isinstance(op, (ArgReduceBase, TopKBase)):
            out = _selection(_At(op), op)
        else:
            continue
        op.results[0].replace_all_uses_with(out)
        Rewriter.erase_op(op)


@dataclass(frozen=True)
class DecomposeSelectionsPass(ModulePass):
    """`ttir-decompose-selections` (module docstring)."""

    name = "ttir-decompose-selections"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        decompose(op)
