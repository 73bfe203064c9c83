"""The StableHLO ops that select and join elements -> ttir (part of the importer's op table,
meshc/importers/stablehlo_ops.py):

| StableHLO | ttir |
|---|---|
| slice | slice (begins = start_indices, ends = limit_indices, step = strides) |
| concatenate | concat along `dimension` |
| dynamic_slice at constant starts | slice, the starts clamped into the operand as StableHLO clamps them |
| dynamic_slice of one position at a run-time start (`cache[:, pos]`) | sum over the dim of x times a one-hot mask (eq of an iota and the clamped start) |
| dynamic_slice of t positions at a run-time start along one dim (`cache[:, pos:pos + t]`) | t such sums, at the start + 0 .. t - 1, joined by concat |
| dynamic_update_slice at constant starts | slices of the operand around the update, joined by concat dim by dim |
| dynamic_update_slice of one position at a run-time start (a KV cache written at `pos`) | where(mask, the update broadcast along the dim, x) |
| dynamic_update_slice of t positions at a run-time start along one dim (a chunk of t tokens' keys written at `pos`) | t such wheres, the update's position j written at the start + j |
| gather of whole rows of a 2-d table (`emb[ids]`) | embedding of the indices clamped into the table |
| gather of one element along a dim a row (`jnp.take_along_axis(x, ids[..., None], axis)`) | sum over the dim of where(eq(iota, the clamped ids broadcast), x, 0): a split dim gives partial sums |
| reduce of (x, iota) by JAX's argmax / argmin comparator (`jnp.argmax`, `jnp.argmin`) | argmax / argmin (the first extreme; the first NaN if any); the values, if used, a max / min |
| reduce_window of an add (multiply) over the whole prefix of one dim (`jnp.cumsum`, `jnp.cumprod`) | cumsum (cumprod) along the dim |
| the same over the whole suffix (`lax.cumsum(x, reverse=True)`, `lax.cumprod(x, reverse=True)`) | cumsum (cumprod) with `reverse` |
| a scan of a tensor reversed along its dim, reversed back (`jnp.cumsum(x[::-1])[::-1]`) | the scan from the other end, of x (`Reversed`: the reverse held until a scan or a second reverse undoes it) |
| reduce_window of another add window over one dim, stride 1, the input's length out (a sliding-window sum) | matmul by a 0/1 band matrix along the dim |
| chlo.top_k (`jax.lax.top_k`) | top_k and top_k_indices along the last dim (each only if used) |
| partition_id in a shard_map body (`jax.lax.axis_index`) | a constant of the device ids over the mesh, all_slice along every axis: each device keeps its own |

An op on constants only is folded at import. The other forms are refused, located, naming what
to write instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    Float32Type,
    IntegerAttr,
    IntegerType,
    Signedness,
    TensorType,
    i32,
    i64,
)
from xdsl.ir import Operation, SSAValue

from meshc.dialects import ttir
from meshc.dialects.ttir import tensor_shape
from meshc.errors import LocatedError
from meshc.importers.context import ImportContext, Reversed
from meshc.importers.source import attr_of, dense_array, op_name, unregistered_body

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

def _known(imp: ImportContext, v: SSAValue) -> bool:
    """Whether `v`'s value is known at import (a constant, whether or not an op uses it yet)."""
    return v in imp.constants


def _constant_starts(imp: ImportContext, op: Operation, starts: list[SSAValue], shape, sizes) -> list[int]:
    """The start indices, known at import, clamped as StableHLO clamps them (into [0, n - size])."""
    got = [int(np.asarray(imp.constants[v]).reshape(())) for v in starts]
    return [min(max(s, 0), n - k) for s, n, k in zip(got, shape, sizes)]


def _run_time_dims(imp: ImportContext, op: Operation, starts: list[SSAValue], shape, sizes) -> list[int]:
    """The dims whose start is known only at run time; at most one of them may take more than one
    position (every other one position), else a located error saying what to write."""
    dims = [d for d, v in enumerate(starts) if not _known(imp, v)]
    long = [d for d in dims if sizes[d] != 1]
    if len(long) > 1:
        what = op_name(op).split(".")[1]
        raise LocatedError(
            f"takes {[sizes[d] for d in long]} positions of dims {long} from start indices known only when the "
            f"program runs; meshc imports {what} at constant starts, or at run-time starts that take several "
            "positions of one dim and one position of the others (cache[:, pos:pos + t]; for more, select with a "
            "mask: jnp.where(jnp.arange(n)[:, None] >= pos, ...))", op)
    return dims


def _one_hots(imp: ImportContext, start: SSAValue, shape, d: int, like: TensorType, size: int = 1) -> list[SSAValue]:
    """For j < `size`: 1 where the index along dim d is the run-time `start` plus j, else 0, as a
    tensor of `shape` in `like`'s element type; the start clamped first into [0, n - size], as
    StableHLO clamps the start of a slice or an update of `size` positions."""
    s = imp.value(start)
    st = s.type  # a 0-d integer tensor
    idx = TensorType(st.element_type, list(shape))  # type: ignore[attr-defined]
    scalar = TensorType(st.element_type, [])  # type: ignore[attr-defined]
    s = imp.emit(OPS["maximum"], [s, imp.materialize(np.zeros(()), scalar)], scalar)
    s = imp.emit(OPS["minimum"], [s, imp.materialize(np.full((), shape[d] - size), scalar)], scalar)
    ones = [1] * len(shape)
    s = imp.emit(OPS["reshape"], [s], TensorType(st.element_type, ones))  # type: ignore[attr-defined]
    s = imp.emit(OPS["broadcast"], [s], idx)
    hots = []
    for j in range(size):  # position i is start + j where i - j == start
        iota = (np.arange(shape[d]) - j).reshape([shape[d] if i == d else 1 for i in range(len(shape))])
        hot = imp.emit(OPS["eq"], [imp.materialize(np.broadcast_to(iota, shape), idx), s], idx)
        hots.append(imp.emit(OPS["typecast"], [hot], TensorType(like.element_type, list(shape))))
    return hots


def dynamic_slice(imp: ImportContext, op: Operation) -> None:
    src, *starts = op.operands
    shape = tensor_shape(src)
    sizes = _ints(op, "slice_sizes")
    if len(sizes) != len(shape) or len(starts) != len(shape) or any(not 0 <= k <= n for k, n in zip(sizes, shape)):
        raise LocatedError(f"takes sizes {sizes} with {len(starts)} starts from {list(shape)}; expected one start and "
                           "one size (at most the dim's) a dim", op)
    dims = _run_time_dims(imp, op, starts, shape, sizes)
    known = [0 if d in dims else min(max(int(np.asarray(imp.constants[v]).reshape(())), 0), n - k)
             for d, (v, n, k) in enumerate(zip(starts, shape, sizes))]
    x = imp.value(src)
    _result(imp, op, x)
    ends = [n if d in dims else b + k for d, (b, k, n) in enumerate(zip(known, sizes, shape))]
    x = emit_slice(imp, x, known, ends, [1] * len(shape))
    for d in dims:  # position j of dim d: the sum over it of x times the one-hot of the start + j
        xt = x.type
        out = [1 if i == d else n for i, n in enumerate(tensor_shape(x))]
        pieces = []
        for hot in _one_hots(imp, starts[d], tensor_shape(x), d, xt, sizes[d]):
            picked = imp.emit(OPS["multiply"], [x, hot], xt)
            pieces.append(imp.emit(OPS["sum"], [picked], TensorType(xt.element_type, out),  # type: ignore[attr-defined]
                                   {"dim_arg": ArrayAttr([IntegerAttr(d, i32)]), "keep_dim": BoolAttr.from_bool(True)}))
        x = pieces[0] if len(pieces) == 1 else imp.emit(
            OPS["concat"], pieces, TensorType(xt.element_type, [sizes[d] if i == d else n  # type: ignore[attr-defined]
                                                                 for i, n in enumerate(out)]),
            {"dim": IntegerAttr(d, i32)})
    imp.values[op.results[0]] = x


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
    dims = _run_time_dims(imp, op, starts, shape, ushape)
    x = imp.value(src)
    _result(imp, op, x)
    if not dims:
        imp.values[op.results[0]] = _update(imp, x, imp.value(upd), _constant_starts(imp, op, starts, shape, ushape), 0)
        return
    partial = [d for d in range(len(shape)) if d not in dims and ushape[d] != shape[d]]
    if partial:
        raise LocatedError(f"writes a run-time position of dims {dims} and part of dims {partial}; meshc imports such "
                           "an update when every other dim is written whole (split it into one update a dim)", op)
    xt = x.type
    assert isinstance(xt, TensorType)
    long = [d for d in dims if ushape[d] != 1]  # at most one (_run_time_dims)
    hots = {d: _one_hots(imp, starts[d], shape, d, xt, ushape[d]) for d in dims}
    one = None  # the one position of every other run-time dim
    for d in dims:
        if d not in long:
            one = hots[d][0] if one is None else imp.emit(OPS["multiply"], [one, hots[d][0]], xt)
    u_all = imp.value(upd)
    for j in range(ushape[long[0]] if long else 1):  # the update's position j along it, at start + j
        hot = one if not long else hots[long[0]][j] if one is None else imp.emit(
            OPS["multiply"], [hots[long[0]][j], one], xt)
        u = u_all if not long else emit_slice(imp, u_all, [j if i == long[0] else 0 for i in range(len(shape))],
                                               [j + 1 if i == long[0] else n for i, n in enumerate(ushape)],
                                               [1] * len(shape))
        u = imp.emit(OPS["broadcast"], [u], xt)
        x = imp.emit(OPS["where"], [hot, u, x], xt)
    imp.values[op.results[0]] = x


# ---- gather: rows of a table -----------------------------------------------------------------

_GATHER = re.compile(r"(\w+)\s*=\s*(\[[\d,\s]*\]|\d+)")


def _take_along_dim(nums: dict, op: Operation, ts, ishape) -> int | None:
    """The dim `a` when the gather is `jnp.take_along_axis(x, ids, axis=a)` with one index a row
    (ids of size 1 along a): every other dim of x a batching dim matched to the same dim of the
    indices, one start index (the index vector the indices' last dim, of size 1), slice sizes 1."""
    r = len(ts)
    a = nums.get("collapsed_slice_dims") or []
    others = [d for d in range(r) if a != [d]]
    if not (len(a) == 1 and nums.get("start_index_map") == a and not nums.get("offset_dims")
            and nums.get("operand_batching_dims", []) == others
            and nums.get("start_indices_batching_dims", []) == others
            and nums.get("index_vector_dim", [r]) == [r] and len(ishape) == r + 1 and ishape[r] == 1
            and ishape[a[0]] == 1 and all(ishape[d] == ts[d] for d in others)
            and _ints(op, "slice_sizes") == [1] * r):
        return None
    return a[0]


def _take_along(imp: ImportContext, op: Operation, table: SSAValue, idx: SSAValue, a: int) -> None:
    """x's element at ids along dim a, a row: sum over a of where(eq(iota along a, ids clamped
    into the dim and broadcast along it), x, 0), keeping the dim (StableHLO clamps the index)."""
    x = imp.value(table)
    xt = x.type
    assert isinstance(xt, TensorType)
    shape = tensor_shape(x)
    t = _result(imp, op, None)
    ids = imp.value(idx)
    et = ids.type.element_type  # type: ignore[attr-defined]
    kept = [1 if d == a else n for d, n in enumerate(shape)]
    it = TensorType(et, kept)
    ids = imp.emit(OPS["reshape"], [ids], it)
    ids = imp.emit(OPS["maximum"], [ids, imp.materialize(np.zeros(kept), it)], it)
    ids = imp.emit(OPS["minimum"], [ids, imp.materialize(np.full(kept, shape[a] - 1), it)], it)
    full = TensorType(et, list(shape))
    ids = imp.emit(OPS["broadcast"], [ids], full)
    iota = np.broadcast_to(np.arange(shape[a]).reshape([shape[a] if d == a else 1 for d in range(len(shape))]), shape)
    hot = imp.emit(OPS["typecast"], [imp.emit(OPS["eq"], [imp.materialize(iota, full), ids], full)], xt)
    picked = imp.emit(OPS["where"], [hot, x, imp.materialize(np.zeros(shape), xt)], xt)
    imp.values[op.results[0]] = imp.emit(OPS["sum"], [picked], t, {"dim_arg": ArrayAttr([IntegerAttr(a, i32)]),
                                                                   "keep_dim": BoolAttr.from_bool(True)})


def gather(imp: ImportContext, op: Operation) -> None:
    """`emb[ids]` / `jnp.take(emb, ids, axis=0)` on a 2-d table: whole rows (slice_sizes [1, D])
    picked by one index each, the index vector the indices' last dim (of size 1) or implicit;
    `jnp.take_along_axis` of one index a row (`_take_along`). StableHLO clamps a start index
    into the table; the indices are clamped so before the lookup."""
    table, idx = op.operands
    body = unregistered_body(attr_of(op, "dimension_numbers"), "stablehlo.gather") or ""
    nums = {k: [int(x) for x in re.findall(r"\d+", v)] for k, v in _GATHER.findall(body)}
    ts, ishape = tensor_shape(table), tensor_shape(idx)
    along = _take_along_dim(nums, op, ts, ishape)
    if along is not None:
        _take_along(imp, op, table, idx, along)
        return
    ivd = (nums.get("index_vector_dim") or [len(ishape)])[0]
    lead = list(ishape[:ivd]) + list(ishape[ivd + 1:])
    if not (len(ts) == 2 and nums.get("collapsed_slice_dims") == [0] and nums.get("start_index_map") == [0]
            and nums.get("offset_dims") == [len(lead)] and _ints(op, "slice_sizes") == [1, ts[1]]
            and not nums.get("operand_batching_dims") and (ivd == len(ishape) or (ivd == len(ishape) - 1
                                                                                  and ishape[-1] == 1))):
        raise LocatedError("gathers in a form other than whole rows of a 2-d table or one element a row; meshc "
                           "imports emb[ids] and jnp.take(emb, ids, axis=0) on a 2-d emb (reshape the table to "
                           "2-d, or move the axis taken from to the front) and jnp.take_along_axis(x, "
                           "ids[..., None], axis)", op)
    t = _result(imp, op, None)
    ids = imp.value(idx)
    it = TensorType(ids.type.element_type, lead)  # type: ignore[attr-defined]
    if tensor_shape(ids) != tuple(lead):
        ids = imp.emit(OPS["reshape"], [ids], it)
    low = imp.emit(OPS["maximum"], [ids, imp.materialize(np.zeros(lead), it)], it)
    ids = imp.emit(OPS["minimum"], [low, imp.materialize(np.full(lead, ts[0] - 1), it)], it)
    imp.values[op.results[0]] = imp.emit(OPS["embedding"], [ids, imp.value(table)], t)


# ---- argmax / argmin: a reduce over (values, indices) ------------------------------------------

_ARG_BODY = ["stablehlo.compare", "stablehlo.compare", "stablehlo.or", "stablehlo.compare", "stablehlo.compare",
             "stablehlo.and", "stablehlo.or", "stablehlo.select", "stablehlo.select"]
"""The reducer JAX writes for argmax / argmin: x wins if x > y (x < y) or x is NaN; on equal values
the lower index wins; the value and index selected by those (jax/_src/lax/lax.py's argminmax)."""


def _direction(op: Operation) -> str:
    text = unregistered_body(attr_of(op, "comparison_direction"), "stablehlo.comparison_direction") or ""
    return text.strip()


def _arg_kind(op: Operation) -> str | None:
    """'max' / 'min' when the reducer is exactly JAX's argmax / argmin comparator: GT / LT of the
    values, NE of the value with itself (a NaN wins, so the first NaN is the answer), EQ of the
    values and LT of the indices (the first of equals wins)."""
    body = op.regions[0].blocks.first
    ops = [o for o in (body.ops if body is not None else ()) if op_name(o) != "stablehlo.return"]
    if [op_name(o) for o in ops] != _ARG_BODY:
        return None
    dirs = [_direction(o) for o in ops if op_name(o) == "stablehlo.compare"]
    if dirs[1:] != ["NE", "EQ", "LT"]:
        return None
    return {"GT": "max", "LT": "min"}.get(dirs[0])


def arg_reduce(imp: ImportContext, op: Operation) -> None:
    """`jnp.argmax` / `jnp.argmin` along one dim: a reduce of (x, an iota along the dim) by JAX's
    comparator -> ttir.argmax / ttir.argmin (the first extreme's index; the first NaN where there is
    one, as numpy's argmax and JAX's). A dim split over devices is then partitioned as local work
    and a gather of the candidates (ttir-partition). The reduced values, when used, are the max
    (min for argmin) over the dim."""
    x_src, idx_src, _, _ = op.operands
    shape = tensor_shape(x_src)
    (d,) = _ints(op, "dimensions") if len(_ints(op, "dimensions")) == 1 else (None,)
    kind = _arg_kind(op)
    iota = imp.constants.get(idx_src)
    want = None if d is None else np.broadcast_to(
        np.arange(shape[d]).reshape([shape[d] if i == d else 1 for i in range(len(shape))]), shape)
    if kind is None or d is None or iota is None or not np.array_equal(np.asarray(iota), want):
        raise LocatedError("reduces two tensors in a form other than argmax / argmin along one dim (values and an "
                           "iota of the positions, by JAX's comparator); meshc imports jnp.argmax and jnp.argmin", op)
    x = imp.value(x_src)
    xt = x.type
    assert isinstance(xt, TensorType)
    vt, it = (imp.check_type(r.type, op, f"result {r.index}") for r in op.results)
    imp.values[op.results[1]] = imp.emit(OPS[f"arg{kind}"], [x], it, {"dim": IntegerAttr(d, i64)})
    if op.results[0].uses:
        keep = {"dim_arg": ArrayAttr([IntegerAttr(d, i32)]), "keep_dim": BoolAttr.from_bool(False)}
        imp.values[op.results[0]] = imp.emit(OPS[kind], [x], TensorType(xt.element_type, list(vt.get_shape())), keep)


def top_k(imp: ImportContext, op: Operation) -> None:
    """`jax.lax.top_k(x, k)` (chlo.top_k) along the last dim -> ttir.top_k (the values, larger first)
    and ttir.top_k_indices (their positions), among equals the lower position first, as JAX orders
    them. A last dim split over devices is partitioned as each device's top k, the candidates
    gathered, a final top k (ttir-partition)."""
    (k,) = _ints(op, "k")
    x = imp.value(op.operands[0])
    shape = tensor_shape(x)
    if not shape or not 1 <= k <= shape[-1]:
        raise LocatedError(f"takes the top {k} of {list(shape)}; expected 1 <= k <= the last dim's size", op)
    vt, it = (imp.check_type(r.type, op, f"result {r.index}") for r in op.results)
    attrs = {"k": IntegerAttr(k, i64), "dim": IntegerAttr(len(shape) - 1, i64)}
    for r, kind, t in ((op.results[0], "top_k", vt), (op.results[1], "top_k_indices", it)):
        if r.uses:  # an unused half is not computed (nor gathered over a split dim)
            imp.values[r] = imp.emit(OPS[kind], [x], t, attrs)


# ---- reduce_window: cumsum, cumprod and sliding-window sums -----------------------------------

_SCANS = {"stablehlo.add": ("cumsum", 0), "stablehlo.multiply": ("cumprod", 1)}
"""A reduce_window's body op -> the scan it makes over a whole prefix / suffix, and its init."""

def reduce_window(imp: ImportContext, op: Operation) -> None:
    """An add (multiply) over a window along one dim d, stride 1, padded by (lo, hi) with
    lo + hi = w - 1 so the result has the input's length n. The whole prefix (`jnp.cumsum`,
    `jnp.cumprod`: w = n, lo = n - 1) is ttir.cumsum (ttir.cumprod); the whole suffix
    (`lax.cumsum(x, reverse=True)`, `lax.cumprod`'s: w = n, hi = n - 1) the same with `reverse`.
    Any other add window (a sliding-window sum) is y[j] = sum of x[i] for j - lo <= i <= j - lo +
    w - 1, that is x along d times the n x n 0/1 band matrix B with B[i, j] = 1 there: a matmul,
    a dim split over devices contracted as any matmul's K."""
    x_src, init = op.operands[0], op.operands[-1]
    shape = tensor_shape(x_src)
    body = [o for o in op.regions[0].blocks.first.ops if op_name(o) != "stablehlo.return"]  # type: ignore[union-attr]
    window = _ints(op, "window_dimensions")
    strides = _ints(op, "window_strides") if attr_of(op, "window_strides") is not None else [1] * len(shape)
    dil = [_ints(op, k) for k in ("base_dilations", "window_dilations") if attr_of(op, k) is not None]
    pad_attr = attr_of(op, "padding")
    pads = np.asarray(dense_array(pad_attr)).reshape(len(shape), 2).tolist() if pad_attr is not None else \
        [[0, 0]] * len(shape)
    dims = [d for d, w in enumerate(window) if w != 1]
    kind = op_name(body[0]) if len(body) == 1 else ""
    ok = (len(op.operands) == 2 and kind in _SCANS and len(dims) == 1
          and all(s_ == 1 for s_ in strides) and all(x == 1 for ds in dil for x in ds) and _known(imp, init)
          and np.all(np.asarray(imp.constants[init]) == _SCANS.get(kind, ("", 0))[1]))
    d = dims[0] if dims else -1
    if ok:
        w, (lo, hi) = window[d], pads[d]
        ok = lo + hi == w - 1 and lo >= 0 and hi >= 0 and all(p == [0, 0] for i, p in enumerate(pads) if i != d)
        n = shape[d]
        ok = ok and (kind == "stablehlo.add" or (w, lo) in ((n, n - 1), (n, 0)))
    if not ok:
        raise LocatedError("is a reduce_window meshc does not import; it imports sums over a window along one dim, "
                           "stride 1, padded to the input's length (jnp.cumsum, lax.cumsum(reverse=True), a "
                           "sliding-window sum) and products over the whole prefix or suffix of one dim "
                           "(jnp.cumprod, lax.cumprod(reverse=True)); write other windows as slices and adds", op)
    n = shape[d]
    flipped = imp.reversed.get(x_src)
    if flipped is not None and flipped.dims == (d,) and w == n and (lo, hi) in ((n - 1, 0), (0, n - 1)):
        # the scan of x reversed along d (jnp.cumsum(x[::-1])) is x's scan from the other end,
        # reversed: held so, for the reverse after it to undo
        lo, hi = hi, lo
        imp.reversed[op.results[0]] = Reversed(flipped.op, _scan(imp, op, flipped.value, kind, d, lo), (d,))
        return
    x = imp.value(x_src)
    if w == n and (lo, hi) in ((n - 1, 0), (0, n - 1)):  # the whole prefix (suffix): a local scan + the totals
        imp.values[op.results[0]] = _scan(imp, op, x, kind, d, lo)
        return
    i, j = np.arange(n)[:, None], np.arange(n)[None, :]
    band = ((i >= j - lo) & (i <= j - lo + w - 1)).astype(np.float64)
    xt = x.type
    assert isinstance(xt, TensorType)
    _result(imp, op, x)
    perm = [k for k in range(len(shape)) if k != d] + [d]
    moved = [shape[k] for k in perm]
    if perm != list(range(len(shape))):
        x = imp.emit(OPS["permute"], [x], TensorType(xt.element_type, moved), {"permutation": DenseArrayBase.from_list(
            i64, perm)})
    y = imp.emit(OPS["matmul"], [x, imp.materialize(band, TensorType(xt.element_type, [n, n]))],
                 TensorType(xt.element_type, moved))
    if perm != list(range(len(shape))):
        back = [perm.index(k) for k in range(len(shape))]
        y = imp.emit(OPS["permute"], [y], xt, {"permutation": DenseArrayBase.from_list(i64, back)})
    imp.values[op.results[0]] = y


def _scan(imp: ImportContext, op: Operation, x: SSAValue, kind: str, d: int, lo: int) -> SSAValue:
    """ttir.cumsum / ttir.cumprod of `x` along d; `reverse` when the window is padded after (lo = 0)."""
    attrs = {"dim": IntegerAttr(d, i64)}
    if lo == 0 and tensor_shape(x)[d] > 1:
        attrs["reverse"] = BoolAttr.from_bool(True)
    return imp.emit(OPS[_SCANS[kind][0]], [x], _result(imp, op, x), attrs)


def unread_reverse(r: Reversed) -> str:
    """Why a reverse of a computed tensor is refused where something reads it."""
    return (f"reverses dims {list(r.dims)} of a tensor computed when the program runs; meshc imports "
            "stablehlo.reverse of constants and around a sort along the same dim (JAX's descending jnp.sort / "
            "jnp.argsort), and around a cumsum or cumprod along the same dim (jnp.cumsum(x[::-1])[::-1]: a "
            "reverse scan)")


# ---- partition_id --------------------------------------------------------------------------

def partition_id(imp: ImportContext, op: Operation) -> None:
    """The device's id (row-major over the mesh), in a shard_map body manual over every mesh axis:
    a constant of all the ids in the mesh's shape, cut by an all_slice along each axis (each
    device keeps its own; nothing moves), reshaped to a scalar."""
    parent = op.parent_op()
    mesh = imp.mesh_shape
    if parent is None or op_name(parent) != "sdy.manual_computation" or mesh is None:
        raise LocatedError("names the device running it, which a global-view program does not have; use "
                           "jax.lax.axis_index inside a jax.shard_map body", op)
    manual = set(re.findall(r'"([^"]+)"', str(attr_of(parent, "manual_axes") or "")))
    if len(manual) != len(mesh):
        raise LocatedError(f"is in a shard_map manual over {len(manual)} of the mesh's {len(mesh)} axes; meshc holds the "
                           "body replicated over the free axes, so it imports partition_id (jax.lax.axis_index) in "
                           "a shard_map manual over every axis", op)
    t = imp.check_type(op.results[0].type, op, "result 0")
    ids = imp.materialize(np.arange(int(np.prod(mesh))).reshape(mesh), TensorType(t.element_type, list(mesh)))
    shape = list(mesh)
    for a in range(len(mesh)):
        shape[a] = 1
        ids = imp.emit(ttir.AllSliceOp, [ids], TensorType(t.element_type, list(shape)),
                       {"slice_dim": IntegerAttr(a, IntegerType(32, Signedness.SIGNED)),
                        "cluster_axis": IntegerAttr(a, IntegerType(32, Signedness.UNSIGNED))})
    imp.values[op.results[0]] = imp.emit(OPS["reshape"], [ids], t)


HANDLERS: dict[str, Callable[[ImportContext, Operation], None]] = {
    "stablehlo.slice": slice_op,
    "stablehlo.concatenate": concatenate,
    "stablehlo.dynamic_slice": dynamic_slice,
    "stablehlo.dynamic_update_slice": dynamic_update_slice,
    "stablehlo.gather": gather,
    "stablehlo.partition_id": partition_id,
    "stablehlo.reduce_window": reduce_window,
    "chlo.top_k": top_k,
}
"""The select / join ops of the importer's table, by StableHLO name."""
