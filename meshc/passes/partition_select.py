"""`ttir-partition`'s scans and index selections over a split dim, done as distributed systems do
them: each device works on its own piece and only a few numbers a row cross the links.

* `cumsum` along a dim split over mesh axes A (k pieces): each device scans its piece, sums it
  (its total), the totals are gathered over A (k numbers a row), and each device adds the sum of
  the totals before its own (a masked sum: a constant k x k mask split over A gives device j
  the row `i < j`), the exclusive prefix of the totals. In exact arithmetic this is the scan; in
  floating point the additions associate differently from a sequential scan (integer-valued
  data come out exact). A `reverse` cumsum adds the totals after its own (the row `i > j`), the
  suffix. `cumprod` the same with products: a piece's total is its scan's last element (first,
  reversed), and the earlier (later) totals are multiplied in order (a cumprod of the k
  totals, masked to 1 elsewhere, its last element).
* `argmax` / `argmin` along a dim split over A: each device takes its extreme and that
  element's index, made global by adding the device's offset (from a constant split over A);
  the k candidates (value and index) are gathered over A, and among the candidates equal to
  their maximum the smallest index wins: the first index of the extreme, as numpy's. argmin is
  argmax of the negation.
* `max` / `min` (reductions) over dims split over axes A: each device takes the maximum
  (minimum) of its piece, then one `ttir.all_reduce` with `reduce_type = max` (`min`) over each
  axis of A completes it (exact: a maximum of maxima is the maximum; a NaN anywhere reaches the
  result, as JAX's). TTNN runs it as ttir-decompose-ccl-reductions makes it (an all_gather of
  the per-device extremes and a max of them, of the order-reversed values for a min), TTMetal
  by its CCL kernels.
* `top_k` / `top_k_indices` (k largest) along a dim split over A: each device's top k of its
  piece (values, and indices made global) are gathered over A (k x pieces candidates; once
  for a top_k and a top_k_indices of one operand); the top k of the candidates are the values,
  and k rounds of the argmax pick (each picked candidate then set to -inf) the indices, ties
  to the smallest index, as JAX's top_k.

Indices are picked as f32 (exact below 2**24) with the ops both backends have (max, eq,
where, neg, typecast), so TTMetal runs the result too (its local cumsum / argmax / top_k
through ttir-decompose-selections).

An uneven split (torch.chunk pieces, padded buffers) masks each buffer's padding first (0 for a
sum, -inf for a maximum, +inf for a minimum; the extreme integer for an integer operand), from a
constant of the global positions split over A. The gathers are
`ttir.reshard`s, lowered to all_gathers over A by reshard-to-collectives; the constants are
split where they lie (no link bytes).
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    TensorType,
    f32,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import Rewriter

from meshc.dialects import ttir
from meshc.dialects.ttir.base import ReductionBase, bool_value, int_value, tensor_shape
from meshc.dialects.ttir.scan import ArgReduceBase, ScanBase, TopKBase
from meshc.errors import LocatedError
from meshc.layout.mesh import ShardingSpec
from meshc.layout.sharding_rules import replicated
from meshc.passes.decompose_ccl_reductions import order_reversing
from meshc.passes.decompose_selections import highest, lowest, nan_first
from meshc.passes.partition_protocol import Partitioner
from meshc.passes.sharding_ir import dtype_name

OPS = ttir.COMPUTE_OPS
_SI32 = IntegerType(32, Signedness.SIGNED)
_UI32 = IntegerType(32, Signedness.UNSIGNED)


def _dim(op: Operation) -> int:
    return int_value(op.attributes["dim"]) % len(tensor_shape(op.operands[0]))


_EXTREMES = ("ttir.max", "ttir.min")
"""The reductions a split reduced dim partitions as local extremes and an all_reduce of them."""


def _is_extreme(op: Operation) -> bool:
    """A max or min reduction (partitioned as each device's extreme and an all_reduce by it)."""
    return isinstance(op, ReductionBase) and op.name in _EXTREMES


def keep_selected_axes(op: Operation, required: tuple[ShardingSpec, ...], current: ShardingSpec
                       ) -> tuple[ShardingSpec, ...]:
    """An argmax / argmin / top_k's or a max / min reduction's operand keeps the axes splitting its
    reduced dims (the rule's `select` / `keep` factor asks nothing of them: the partition picks
    among the pieces where they lie)."""
    if isinstance(op, (ArgReduceBase, TopKBase)):
        reduced: tuple[int, ...] = (_dim(op),)
    elif _is_extreme(op):
        reduced = op.reduced_dims()  # type: ignore[attr-defined]
    else:
        return required
    want = required[0]
    dims = list(want.dims)
    used = {a for e, ax in enumerate(want.dims) if e not in reduced for a in ax} | set(want.partial)
    for d in reduced:
        axes = current.dims[d]
        if not axes or used & set(axes) or want.dims[d]:
            continue
        dims[d] = axes
        used |= set(axes)
    if tuple(dims) == want.dims:
        return required
    return (ShardingSpec(want.mesh, tuple(dims), want.partial),) + tuple(required[1:])


def split_selection(op: Operation, required: tuple[ShardingSpec, ...]) -> bool:
    """Whether `op` is a scan or an index selection whose dim is split by its operand's spec, or
    a max / min reduction one of whose reduced dims is."""
    if _is_extreme(op):
        return any(required[0].dims[d] for d in op.reduced_dims())  # type: ignore[attr-defined]
    return isinstance(op, (ScanBase, ArgReduceBase, TopKBase)) and bool(required[0].dims[_dim(op)])


def selection_gathers(op: Operation, src: ShardingSpec, shape_of) -> list[tuple[tuple[int, ...], str, ShardingSpec,
                                                                            ShardingSpec]]:
    """The gathers `partition_selection` makes for `op` (its operand placed `src`, its dim
    split), as (global shape, data type, from, to), for ttir-auto-shard to price: a cumsum's
    totals, an argmax's values and indices, a top_k's candidates (a top_k beside a
    top_k_indices of the same operand shares the latter's); a max / min reduction's extremes,
    one a device along each split reduced dim (TTNN's form of its all_reduce: gathered and
    maxed)."""
    x = op.operands[0]
    if _is_extreme(op):
        return _extreme_gathers(op, src, shape_of(x), dtype_name(x))
    d = _dim(op)
    full = shape_of(x)
    k = math.prod(src.mesh.shape[a] for a in src.dims[d])
    gathered = ShardingSpec(src.mesh, tuple(() if i == d else ax for i, ax in enumerate(src.dims)), src.partial)
    per = 1
    if isinstance(op, TopKBase):
        per = min(int_value(op.attributes["k"]), -(-full[d] // k))
    shape = tuple(k * per if i == d else n for i, n in enumerate(full))
    values = (shape, dtype_name(x), src, gathered)
    indices = (shape, "f32", src, gathered)  # global indices travel as f32 (exact below 2**24)
    if isinstance(op, ScanBase):
        return [values]
    if isinstance(op, TopKBase) and not op.name.endswith("indices"):
        shared = any(u.operation is not op and u.operation.name == "ttir.top_k_indices"
                     and u.operation.attributes.get("k") == op.attributes["k"]
                     and _dim(u.operation) == d for u in x.uses)
        return [] if shared else [values]
    return [values, indices]


class _Emitter:
    """Local ops inserted before `op`, on the device's pieces."""

    def __init__(self, p: Partitioner, op: Operation):
        self.p, self.op = p, op

    def emit(self, kind: str, operands: list[SSAValue], shape, element: Attribute, **attrs) -> SSAValue:
        t = TensorType(element, list(shape))
        new = OPS[kind].create(operands=operands, result_types=[t], attributes=attrs)
        return self.p.insert(new, self.op).results[0]

    def constant(self, values: np.ndarray, element: Attribute) -> SSAValue:
        t = TensorType(element, list(values.shape))
        if isinstance(element, IntegerType):  # an integer operand's masks and offsets as integers
            values = values.astype(np.int64)
        attr = DenseIntOrFPElementsAttr.from_list(t, values.reshape(-1).tolist())
        return self.p.insert(ttir.ConstantOp.create(result_types=[t], attributes={"value": attr}), self.op).results[0]

    def split_constant(self, values: np.ndarray, element: Attribute, axes: tuple[int, ...], rank: int, d: int
                       ) -> SSAValue:
        """A 1-d constant split over `axes` (each device keeps its own run of it), reshaped to
        rank `rank` with its elements along dim `d`."""
        c = self.constant(values, element)
        p = self.p
        p.spec[c], p.globals[c] = replicated(p.mesh, 1), values.shape
        mine = p.reshard(c, ShardingSpec(p.mesh, (axes,)), self.op)
        n = tensor_shape(mine)[0]
        return self.emit("reshape", [mine], [n if e == d else 1 for e in range(rank)], element)

    def splat(self, value, shape, element: Attribute) -> SSAValue:
        t = TensorType(element, list(shape))
        attr = DenseIntOrFPElementsAttr.from_list(t, [value])
        return self.p.insert(ttir.ConstantOp.create(result_types=[t], attributes={"value": attr}), self.op).results[0]


def _reduce_attrs(d: int, keep: bool) -> dict:
    return {"dim_arg": ArrayAttr([IntegerAttr(d, i32)]), "keep_dim": BoolAttr.from_bool(keep)}


def _cache(p: Partitioner) -> dict:
    """What the selections of one function share (`selection_cache` on its partitioner): the
    masked operand and a top_k's gathered candidates, so a top_k and a top_k_indices of one
    operand gather them once."""
    cache = getattr(p, "selection_cache", None)
    if cache is None:
        cache = {}
        setattr(p, "selection_cache", cache)
    return cache


def _top_k(p: Partitioner, e: _Emitter, op: Operation, x: SSAValue, src: ShardingSpec, gather) -> SSAValue:
    """top_k / top_k_indices along a split dim: each device's k candidates (values, and their
    indices made global), gathered over the axes (once for a top_k and a top_k_indices of the
    same operand: `_cache`), picked again."""
    d = _dim(op)
    k = int_value(op.attributes["k"])
    local = tuple(tensor_shape(x))
    rank, c = len(local), local[d]
    axes = src.dims[d]
    pieces = math.prod(p.mesh.shape[a] for a in axes)
    kl = min(k, c)
    elem = x.type.element_type  # type: ignore[attr-defined]
    rt = op.results[0].type
    assert isinstance(rt, TensorType)
    cand = tuple(kl if i == d else s for i, s in enumerate(local))
    cache = _cache(p)
    attrs = {"k": IntegerAttr(kl, 64), "dim": IntegerAttr(d, 64)}
    key = (x, d, kl)
    if (key, "values") not in cache:
        cache[(key, "values")] = gather(e.emit("top_k", [x], cand, elem, **attrs))
    values = cache[(key, "values")]
    final = {"k": IntegerAttr(k, 64), "dim": IntegerAttr(d, 64)}
    out_shape = tuple(k if i == d else s for i, s in enumerate(local))  # the other dims stay split
    if not op.name.endswith("indices"):
        return e.emit("top_k", [values], out_shape, elem, **final)
    if (key, "indices") not in cache:
        mine = e.emit("top_k_indices", [x], cand, rt.element_type, **attrs)
        cache[(key, "indices")] = gather(_global_labels(e, mine, axes, pieces, c, rank, d))
    picks = _pick(e, _in_f32(e, values), cache[(key, "indices")], k, d)
    joined = picks[0] if k == 1 else e.emit("concat", picks, out_shape, f32, dim=IntegerAttr(d, _SI32))
    return e.emit("typecast", [joined], out_shape, rt.element_type)


def _global_labels(e: _Emitter, mine: SSAValue, axes: tuple[int, ...], pieces: int, c: int, rank: int, d: int
                   ) -> SSAValue:
    """Local indices along d made global (plus the device's piece offset, i x c, from a constant
    split over `axes`), as f32 (exact below 2**24) for the picking rounds."""
    shape = tensor_shape(mine)
    t = mine.type
    assert isinstance(t, TensorType)
    offsets = e.split_constant(np.arange(pieces, dtype=np.int32) * c, t.element_type, axes, rank, d)
    return e.emit("typecast", [e.emit("add", [mine, offsets], shape, t.element_type)], shape, f32)


def _in_f32(e: _Emitter, v: SSAValue) -> SSAValue:
    t = v.type
    assert isinstance(t, TensorType)
    return v if t.element_type == f32 else e.emit("typecast", [v], tensor_shape(v), f32)


def _pick(e: _Emitter, values: SSAValue, labels: SSAValue, rounds: int, d: int) -> list[SSAValue]:
    """The labels of the `rounds` largest values along d (f32, d kept as size 1 each), largest
    first; among equal values the smallest label (the first global index, as numpy and JAX):
    each round the maximum, where values equal it the negated label (-inf elsewhere), the
    maximum of that negated; the picked label's value is then set to -inf. A NaN comes first
    (`nan_first`), as JAX orders them."""
    shape = tensor_shape(values)
    rank = len(shape)
    one = tuple(1 if i == d else n for i, n in enumerate(shape))
    ninf = e.splat(float("-inf"), [1] * rank, f32)
    negated = e.emit("neg", [labels], shape, f32)
    picks = []
    for j in range(rounds):
        key = nan_first(e.emit, values, d)  # a NaN candidate first, as JAX's argmax and top_k
        best = e.emit("max", [key], one, f32, **_reduce_attrs(d, True))
        cand = e.emit("where", [e.emit("eq", [key, best], shape, f32), negated, ninf], shape, f32)
        picks.append(e.emit("neg", [e.emit("max", [cand], one, f32, **_reduce_attrs(d, True))], one, f32))
        if j + 1 < rounds:
            values = e.emit("where", [e.emit("eq", [labels, picks[-1]], shape, f32), ninf, values], shape, f32)
    return picks


def partition_selection(p: Partitioner, op: Operation, src: ShardingSpec, target: ShardingSpec) -> None:
    """Replace the cumsum / argmax / argmin / top_k / max / min `op` (its operand placed as `src`,
    its dim split) by the local work and gathers of the module docstring; its result takes `target`."""
    if _is_extreme(op):
        return _partition_extreme(p, op, src, target)
    e = _Emitter(p, op)
    x = op.operands[0]
    xt = x.type
    assert isinstance(xt, TensorType)
    d = _dim(op)
    axes = src.dims[d]
    k = math.prod(p.mesh.shape[a] for a in axes)
    full = p.global_shape(x)
    local = tuple(tensor_shape(x))
    rank, n, c = len(local), full[d], local[d]
    elem = xt.element_type
    largest = not (isinstance(op, ArgReduceBase) and op.name.endswith("argmin"))
    fill = (1.0 if op.name.endswith("cumprod") else 0.0) if isinstance(op, ScanBase) else lowest(elem)
    if isinstance(elem, IntegerType):  # an integer operand's padding as an integer
        fill = int(fill)
    cache = _cache(p)
    key = ("masked", x, d, fill, largest)
    if key not in cache:
        if not largest:  # an argmin is the argmax of an order-reversed x
            x = e.emit(order_reversing(elem), [x], local, elem)
        if n % k:  # the padding of each buffer: 0 for a sum, the lowest value for a maximum
            x = _mask_padding(e, x, axes, k, n, d, fill)
        cache[key] = x
    x = cache[key]
    one = tuple(1 if i == d else s for i, s in enumerate(local))
    many = tuple(k if i == d else s for i, s in enumerate(local))
    gathered = ShardingSpec(p.mesh, tuple(() if i == d else ax for i, ax in enumerate(src.dims)), src.partial)

    def gather(v: SSAValue) -> SSAValue:
        """`v`, a few values a device along d, gathered over the axes splitting d."""
        p.spec[v] = src
        p.globals[v] = tuple(k * tensor_shape(v)[d] if i == d else s for i, s in enumerate(full))
        return p.reshard(v, gathered, op)

    if isinstance(op, TopKBase):
        out = _top_k(p, e, op, x, src, gather)
    elif isinstance(op, ScanBase):
        out = _scan(e, op, x, axes, k, gather)
    else:
        rt = op.results[0].type
        assert isinstance(rt, TensorType)
        best = gather(e.emit("max", [x], one, elem, **_reduce_attrs(d, True)))
        mine = e.emit("argmax", [x], one, rt.element_type, dim=IntegerAttr(d, 64), keep_dim=BoolAttr.from_bool(True))
        picked = _pick(e, _in_f32(e, best), gather(_global_labels(e, mine, axes, k, c, rank, d)), 1, d)[0]
        out = e.emit("typecast", [picked], one, rt.element_type)
        if not bool_value(op.attributes.get("keep_dim")):  # d dropped
            out = e.emit("reshape", [out], tuple(s for i, s in enumerate(one) if i != d), rt.element_type)
    p.spec[out], p.globals[out] = target, tuple(tensor_shape(op.results[0]))
    op.results[0].replace_all_uses_with(out)
    Rewriter.erase_op(op)


MAX_SCAN_PIECES = 1024
"""Pieces a cumsum / cumprod's scanned dim may be split into: the combining mask is pieces x pieces
(2**20 elements at the limit, a constant in the IR)."""


def _scan(e: _Emitter, op: Operation, x: SSAValue, axes: tuple[int, ...], k: int, gather) -> SSAValue:
    """A cumsum / cumprod along a dim split over `axes` (k pieces; `x` a device's piece, its
    padding already the identity): each device scans its piece; its total (the sum of the piece;
    for a product, the scan's last element, its first when reversed) is gathered over the axes,
    and each device combines the totals of the pieces before it (after it, reversed): a k x k
    0/1 mask split over the axes gives device j its row, `i < j` (`i > j`). A sum adds the
    masked totals; a product scans where(mask, totals, 1) and takes the last element: the
    product of those totals, each multiplied in order."""
    if k > MAX_SCAN_PIECES:
        raise LocatedError(
            f"ttir-partition scans a split dim through a {k} x {k} mask of its pieces; {k} pieces (the mesh axes "
            f"splitting dim {_dim(op)}) is over the {MAX_SCAN_PIECES} it allows (a mask of {MAX_SCAN_PIECES ** 2:,} "
            "elements); split the scanned dim over fewer devices, or another dim", op)
    d = _dim(op)
    local = tuple(tensor_shape(x))
    rank, c, elem = len(local), local[d], x.type.element_type  # type: ignore[attr-defined]
    reverse = bool_value(op.attributes.get("reverse"))
    product = op.name.endswith("cumprod")
    one = tuple(1 if i == d else s for i, s in enumerate(local))
    many = tuple(k if i == d else s for i, s in enumerate(local))
    attrs = {"dim": op.attributes["dim"], **({"reverse": BoolAttr.from_bool(True)} if reverse else {})}
    scanned = e.emit(op.name.split(".", 1)[1], [x], local, elem, **attrs)
    at = 0 if reverse else c - 1  # a product's whole piece: its scan's last element (first, reversed)
    totals = gather(e.emit("slice", [scanned], one, elem, **_slice_attrs(local, d, at, at + 1)) if product
                    else e.emit("sum", [x], one, elem, **_reduce_attrs(d, True)))
    mask = np.triu(np.ones((k, k), dtype=np.float32), 1) if reverse else np.tril(np.ones((k, k), dtype=np.float32), -1)
    row = e.split_constant(mask.reshape(-1), elem, axes, rank, d)  # row j: 1 where i < j (i > j reversed)
    if not product:
        before = e.emit("multiply", [totals, row], many, elem)
        return e.emit("add", [scanned, e.emit("sum", [before], one, elem, **_reduce_attrs(d, True))], local, elem)
    unit = 1 if isinstance(elem, IntegerType) else 1.0
    masked = e.emit("where", [row, totals, e.splat(unit, [1] * rank, elem)], many, elem)
    combined = e.emit("slice", [e.emit("cumprod", [masked], many, elem, dim=op.attributes["dim"])], one, elem,
                      **_slice_attrs(many, d, k - 1, k))
    return e.emit("multiply", [scanned, combined], local, elem)


def _slice_attrs(shape, d: int, lo: int, hi: int) -> dict:
    """A ttir.slice's attributes taking [lo, hi) of dim d and every other dim whole."""
    return {"begins": ArrayAttr([IntegerAttr(lo if i == d else 0, i32) for i in range(len(shape))]),
            "ends": ArrayAttr([IntegerAttr(hi if i == d else n, i32) for i, n in enumerate(shape)]),
            "step": ArrayAttr([IntegerAttr(1, i32) for _ in shape])}


def _extreme_gathers(op: Operation, src: ShardingSpec, full: tuple[int, ...], dtype: str) -> list:
    """A max / min reduction's all_reduces as TTNN runs them, one an axis splitting a reduced
    dim, in `_partition_extreme`'s order: the extremes (one a device along that axis) gathered
    over it."""
    reduced = op.reduced_dims()  # type: ignore[attr-defined]
    out = []
    for d in reduced:
        for a in src.dims[d]:
            shape = tuple(src.mesh.shape[a] if i == d else 1 if i in reduced else n for i, n in enumerate(full))
            dims = tuple(() if i in reduced else ax for i, ax in enumerate(src.dims))
            mine = ShardingSpec(src.mesh, tuple((a,) if i == d else ax for i, ax in enumerate(dims)), src.partial)
            out.append((shape, dtype, mine, ShardingSpec(src.mesh, dims, src.partial)))
    return out


def _mask_padding(e: _Emitter, x: SSAValue, axes: tuple[int, ...], k: int, n: int, d: int, fill) -> SSAValue:
    """`x`, a device's buffer of a dim d of n elements split over `axes` (k devices) into padded
    buffers, with the positions past n set to `fill` (from a split constant of the positions)."""
    local = tuple(tensor_shape(x))
    rank, elem = len(local), x.type.element_type
    pos = e.split_constant(np.arange(k * local[d], dtype=np.float32), f32, axes, rank, d)
    valid = e.emit("lt", [pos, e.splat(float(n), [1] * rank, f32)], tensor_shape(pos), f32)
    return e.emit("where", [valid, x, e.splat(fill, [1] * rank, elem)], local, elem)


def _partition_extreme(p: Partitioner, op: Operation, src: ShardingSpec, target: ShardingSpec) -> None:
    """A max / min reduction (its operand placed `src`, some reduced dims split): each device's
    extreme of its piece (an uneven split's padding masked to the reduction's identity first),
    then an all_reduce by the same extreme over each axis splitting a reduced dim; the result
    takes `target`."""
    kind = op.name.split(".", 1)[1]
    identity = lowest if kind == "max" else highest
    e = _Emitter(p, op)
    x = op.operands[0]
    xt = x.type
    assert isinstance(xt, TensorType)
    elem = xt.element_type
    full, local = p.global_shape(x), tuple(tensor_shape(x))
    reduced = op.reduced_dims()  # type: ignore[attr-defined]
    split = [d for d in reduced if src.dims[d]]
    for d in split:
        k = math.prod(p.mesh.shape[a] for a in src.dims[d])
        if k * local[d] != full[d]:  # padded buffers: the padding can never be the extreme
            x = _mask_padding(e, x, src.dims[d], k, full[d], d, identity(elem))
    keep = bool_value(op.attributes.get("keep_dim"))
    shape = tuple(1 if i in reduced else n for i, n in enumerate(local) if keep or i not in reduced)
    attrs = {k: v for k, v in op.attributes.items() if k in ("dim_arg", "keep_dim")}
    out = e.emit(kind, [x], shape, elem, **attrs)
    for axis in dict.fromkeys(a for d in split for a in src.dims[d]):
        ar = ttir.COLLECTIVE_OPS["all_reduce"].create(
            operands=[out], result_types=[out.type],
            attributes={"cluster_axis": IntegerAttr(axis, _UI32), "reduce_type": ttir.ReduceTypeAttr(kind)})
        out = p.insert(ar, op).results[0]
    p.spec[out], p.globals[out] = target, tuple(tensor_shape(op.results[0]))
    op.results[0].replace_all_uses_with(out)
    Rewriter.erase_op(op)
