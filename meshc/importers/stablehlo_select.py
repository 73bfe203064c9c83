"""The StableHLO ops that select and join elements -> ttir (part of the importer's op table,
meshc/importers/stablehlo_ops.py):

| StableHLO | ttir |
|---|---|
| slice | slice (begins = start_indices, ends = limit_indices, step = strides) |
| concatenate | concat along `dimension` |
| dynamic_slice at constant starts | slice, the starts clamped into the operand as StableHLO clamps them |
| dynamic_update_slice at constant starts | slices of the operand around the update, joined by concat dim by dim |
| gather of whole rows of a 2-d table (`emb[ids]`) | embedding of the indices clamped into the table |

An op on constants only is folded at import. The other forms are refused, located, naming what
to write instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntegerAttr, IntegerType, TensorType, i32
from xdsl.ir import Operation, SSAValue

from meshc.dialects import ttir
from meshc.dialects.ttir import tensor_shape
from meshc.errors import LocatedError
from meshc.importers.context import ImportContext
from meshc.importers.source import attr_of, op_name, unregistered_body

OPS = ttir.COMPUTE_OPS


def _ints(op: Operation, key: str) -> list[int]:
    attr = attr_of(op, key)
    if isinstance(attr, DenseArrayBase):
        return [int(x) for x in attr.get_values()]
    if isinstance(attr, IntegerAttr):
        return [int(attr.value.data)]
    raise LocatedError(f"expected {key} as an array of integers", op)


def _i32s(values) -> ArrayAttr:
    return ArrayAttr([IntegerAttr(int(v), i32) for v in values])


def _result(imp: ImportContext, op: Operation, like: SSAValue | None) -> TensorType:
    """Result 0's type; a boolean (i1) result takes the element type its operand `like` is held in."""
    t = op.results[0].type
    if like is not None and isinstance(t, TensorType) and t.element_type == IntegerType(1):
        t = TensorType(like.type.element_type, t.get_shape())  # type: ignore[attr-defined]
    return imp.check_type(t, op, "result 0")


def _folded(imp: ImportContext, op: Operation, fn: Callable[..., np.ndarray]) -> bool:
    """Fold an op whose operands are all constants known at import; whether it did."""
    if all(v in imp.constants and v not in imp.values for v in op.operands):
        imp.constants[op.results[0]] = fn(*(np.asarray(imp.constants[v]) for v in op.operands))
        return True
    return False


def emit_slice(imp: ImportContext, x: SSAValue, begins, ends, steps) -> SSAValue:
    """`x[begins:ends:steps]` as a ttir.slice (x itself when it takes everything)."""
    shape = tensor_shape(x)
    if list(begins) == [0] * len(shape) and list(ends) == list(shape) and all(s == 1 for s in steps):
        return x
    out = [-(-(e - b) // s) for b, e, s in zip(begins, ends, steps)]
    return imp.emit(OPS["slice"], [x], TensorType(x.type.element_type, out),  # type: ignore[attr-defined]
                    {"begins": _i32s(begins), "ends": _i32s(ends), "step": _i32s(steps)})


def _check_bounds(op: Operation, shape, begins, ends, steps) -> None:
    if not len(begins) == len(ends) == len(steps) == len(shape) or any(s < 1 for s in steps) or any(
            not 0 <= b <= e <= n for b, e, n in zip(begins, ends, shape)):
        raise LocatedError(f"slices {list(shape)} from {begins} to {ends} by {steps}; expected one start, limit and "
                           "stride a dim, 0 <= start <= limit <= the dim's size, strides 1 or more", op)


# ---- slice, concatenate ----------------------------------------------------------------------

def slice_op(imp: ImportContext, op: Operation) -> None:
    src = op.operands[0]
    shape = tensor_shape(src)
    begins, ends, steps = (_ints(op, k) for k in ("start_indices", "limit_indices", "strides"))
    _check_bounds(op, shape, begins, ends, steps)
    cut = tuple(slice(b, e, s) for b, e, s in zip(begins, ends, steps))
    if _folded(imp, op, lambda x: x[cut]):
        return
    x = imp.value(src)
    _result(imp, op, x)
    imp.values[op.results[0]] = emit_slice(imp, x, begins, ends, steps)


def concatenate(imp: ImportContext, op: Operation) -> None:
    (d,) = _ints(op, "dimension")
    rank = len(tensor_shape(op.operands[0]))
    if not 0 <= d < rank:
        raise LocatedError(f"joins along dimension {d}; expected a dim of its rank-{rank} operands", op)
    if _folded(imp, op, lambda *xs: np.concatenate(xs, axis=d)):
        return
    xs = [imp.value(v) for v in op.operands]
    t = _result(imp, op, xs[0])
    imp.values[op.results[0]] = xs[0] if len(xs) == 1 else imp.emit(OPS["concat"], xs, t, {"dim": IntegerAttr(d, i32)})


# ---- dynamic_slice, dynamic_update_slice at constant starts ----------------------------------

def _constant_starts(imp: ImportContext, op: Operation, starts: list[SSAValue], shape, sizes) -> list[int]:
    """The start indices, known at import, clamped as StableHLO clamps them (into [0, n - size])."""
    if not all(v in imp.constants and v not in imp.values for v in starts):
        raise LocatedError(
            f"takes its start indices from values known only when the program runs; meshc imports "
            f"{op_name(op).split('.')[1]} at constant starts (write the position as a Python int, or select with a "
            "mask: jnp.where(jnp.arange(n) == pos, ...))", op)
    got = [int(np.asarray(imp.constants[v]).reshape(())) for v in starts]
    return [min(max(s, 0), n - k) for s, n, k in zip(got, shape, sizes)]


def dynamic_slice(imp: ImportContext, op: Operation) -> None:
    src, *starts = op.operands
    shape = tensor_shape(src)
    sizes = _ints(op, "slice_sizes")
    if len(sizes) != len(shape) or len(starts) != len(shape) or any(not 0 <= k <= n for k, n in zip(sizes, shape)):
        raise LocatedError(f"takes sizes {sizes} with {len(starts)} starts from {list(shape)}; expected one start and "
                           "one size (at most the dim's) a dim", op)
    begins = _constant_starts(imp, op, starts, shape, sizes)
    ends = [b + k for b, k in zip(begins, sizes)]
    x = imp.value(src)
    _result(imp, op, x)
    imp.values[op.results[0]] = emit_slice(imp, x, begins, ends, [1] * len(shape))


def _update(imp: ImportContext, x: SSAValue, u: SSAValue, begins: list[int], d: int) -> SSAValue:
    """x with u written at `begins` in dims d.. (the dims before d are u's whole): x's slices
    before and after u along dim d around the update of the band u covers, joined by concat."""
    shape, ushape = tensor_shape(x), tensor_shape(u)
    while d < len(shape) and ushape[d] == shape[d]:
        d += 1
    if d == len(shape):
        return u
    full = list(shape)
    b, e = begins[d], begins[d] + ushape[d]

    def band(lo: int, hi: int) -> SSAValue:
        return emit_slice(imp, x, [lo if i == d else 0 for i in range(len(shape))],
                          [hi if i == d else n for i, n in enumerate(full)], [1] * len(shape))

    parts = ([band(0, b)] if b > 0 else []) + [_update(imp, band(b, e), u, begins, d + 1)] + (
        [band(e, shape[d])] if e < shape[d] else [])
    if len(parts) == 1:
        return parts[0]
    return imp.emit(OPS["concat"], parts, x.type, {"dim": IntegerAttr(d, i32)})


def dynamic_update_slice(imp: ImportContext, op: Operation) -> None:
    src, upd, *starts = op.operands
    shape, ushape = tensor_shape(src), tensor_shape(upd)
    if len(ushape) != len(shape) or len(starts) != len(shape) or any(k > n for k, n in zip(ushape, shape)):
        raise LocatedError(f"writes {list(ushape)} into {list(shape)} with {len(starts)} starts; expected an update "
                           "of the operand's rank, no larger, and one start a dim", op)
    begins = _constant_starts(imp, op, starts, shape, ushape)
    x = imp.value(src)
    _result(imp, op, x)
    imp.values[op.results[0]] = _update(imp, x, imp.value(upd), begins, 0)


# ---- gather: rows of a table -----------------------------------------------------------------

_GATHER = re.compile(r"(\w+)\s*=\s*(\[[\d,\s]*\]|\d+)")


def gather(imp: ImportContext, op: Operation) -> None:
    """`emb[ids]` / `jnp.take(emb, ids, axis=0)` on a 2-d table: whole rows (slice_sizes [1, D])
    picked by one index each, the index vector the indices' last dim (of size 1) or implicit.
    StableHLO clamps a start index into the table; the indices are clamped so before the lookup."""
    table, idx = op.operands
    body = unregistered_body(attr_of(op, "dimension_numbers"), "stablehlo.gather") or ""
    nums = {k: [int(x) for x in re.findall(r"\d+", v)] for k, v in _GATHER.findall(body)}
    ts, ishape = tensor_shape(table), tensor_shape(idx)
    ivd = (nums.get("index_vector_dim") or [len(ishape)])[0]
    lead = list(ishape[:ivd]) + list(ishape[ivd + 1:])
    if not (len(ts) == 2 and nums.get("collapsed_slice_dims") == [0] and nums.get("start_index_map") == [0]
            and nums.get("offset_dims") == [len(lead)] and _ints(op, "slice_sizes") == [1, ts[1]]
            and not nums.get("operand_batching_dims") and (ivd == len(ishape) or (ivd == len(ishape) - 1
                                                                                  and ishape[-1] == 1))):
        raise LocatedError("gathers in a form other than whole rows of a 2-d table; meshc imports emb[ids] and "
                           "jnp.take(emb, ids, axis=0) on a 2-d emb (reshape the table to 2-d, or move the axis "
                           "taken from to the front)", op)
    t = _result(imp, op, None)
    ids = imp.value(idx)
    it = TensorType(ids.type.element_type, lead)  # type: ignore[attr-defined]
    if tensor_shape(ids) != tuple(lead):
        ids = imp.emit(OPS["reshape"], [ids], it)
    low = imp.emit(OPS["maximum"], [ids, imp.materialize(np.zeros(lead), it)], it)
    ids = imp.emit(OPS["minimum"], [low, imp.materialize(np.full(lead, ts[0] - 1), it)], it)
    imp.values[op.results[0]] = imp.emit(OPS["embedding"], [ids, imp.value(table)], t)


HANDLERS: dict[str, Callable[[ImportContext, Operation], None]] = {
    "stablehlo.slice": slice_op,
    "stablehlo.concatenate": concatenate,
    "stablehlo.dynamic_slice": dynamic_slice,
    "stablehlo.dynamic_update_slice": dynamic_update_slice,
    "stablehlo.gather": gather,
}
"""The select / join ops of the importer's table, by StableHLO name."""
