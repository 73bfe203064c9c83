"""`stablehlo.scatter` -> ttir (part of the importer's op table, meshc/importers/stablehlo_ops.py).

StableHLO's scatter writes each update window at the operand position its scatter index gives
(the StableHLO spec, "scatter"); tt-mlir's Shardy tests write it as `x.at[ids].set(u)` (index_put:
rows or single elements) and as a KV cache filled at run-time positions. meshc imports the form
whose scattered operand dims are exactly the inserted window dims (each index names one position
of those dims; every other operand dim is a window starting at 0) with a `replace` update
(the body returns the update) or an `add` one:

* the index vectors become flat positions p over the scattered dims (f32: exact below 2**24, and
  an index beyond that is far out of range either way), each valid when every component lies in
  its dim: the StableHLO spec leaves an out-of-range update implementation-defined, and XLA (like
  meshc) skips it;
* a one-hot H[s, q] = (p[s] == q) * valid[s] (`eq` with an iota); for `replace`, an update whose
  position a later one writes again is dropped (H times 1 - max over later s' of eq(p[s], p[s'])):
  the spec leaves the order of duplicates implementation-defined, meshc keeps the last;
* the values V = H^T @ U (a `matmul`; U the updates as [S, window], zero-padded to the operand's
  extent along each window dim) and the written mask: the sum of H over the updates (1 at a
  written position) times 1 over the window, 0 over the padding; both reshaped and permuted to
  the operand's dims; the result is where(mask, V, x) for
  `replace` and x + V for `add`. One term reaches each written element, so the values are exact.

Refused, located: batching dims, a scattered dim that is also a window dim, several operands,
integer updates, another update computation, windows larger than the operand.
"""

from __future__ import annotations

import math
import re

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, Float32Type, IntegerAttr, IntegerType, TensorType, i32, i64
from xdsl.ir import Operation, SSAValue

from meshc.dialects import ttir
from meshc.dialects.ttir import tensor_shape
from meshc.errors import LocatedError
from meshc.importers.context import ImportContext
from meshc.importers.source import attr_of, op_name, unregistered_body

OPS = ttir.COMPUTE_OPS
_NUMS = re.compile(r"(\w+)\s*=\s*(\[[\d,\s]*\]|\d+)")
_F32 = Float32Type()


def _update_kind(op: Operation) -> str:
    """'replace' (the body returns its update argument) or 'add'; else a located error."""
    block = op.regions[0].blocks.first
    ops = list(block.ops) if block is not None else []
    ret = ops[-1] if ops else None
    if block is not None and len(block.args) == 2 and ret is not None and op_name(ret) == "stablehlo.return":
        if len(ops) == 1 and ret.operands[0] is block.args[1]:
            return "replace"
        if (len(ops) == 2 and op_name(ops[0]) == "stablehlo.add" and ret.operands[0] is ops[0].results[0]
                and set(ops[0].operands) == set(block.args)):
            return "add"
    raise LocatedError("updates with a computation other than replace (return the update) or add; meshc imports "
                       "those two", op)


def _t(shape, like: TensorType | SSAValue) -> TensorType:
    t = like.type if isinstance(like, SSAValue) else like
    return TensorType(t.element_type, [int(n) for n in shape])


def _reduce(imp: ImportContext, kind: str, x: SSAValue, dim: int) -> SSAValue:
    shape = [n for i, n in enumerate(tensor_shape(x)) if i != dim]
    return imp.emit(OPS[kind], [x], _t(shape, x), {"dim_arg": ArrayAttr([IntegerAttr(dim, i32)])})


def _bcast(imp: ImportContext, x: SSAValue, shape) -> SSAValue:
    return imp.emit(OPS["broadcast"], [x], _t(shape, x))


def _const(imp: ImportContext, values, like: TensorType | SSAValue) -> SSAValue:
    values = np.asarray(values)
    return imp.materialize(values, _t(values.shape, like))


def scatter(imp: ImportContext, op: Operation) -> None:
    if len(op.operands) != 3 or len(op.results) != 1:
        raise LocatedError(f"scatters into {len(op.operands) // 2} tensors at once; meshc imports a scatter of one", op)
    kind = _update_kind(op)
    src, indices, updates = op.operands
    body = unregistered_body(attr_of(op, "scatter_dimension_numbers"), "stablehlo.scatter") or ""
    nums = {k: [int(x) for x in re.findall(r"\d+", v)] for k, v in _NUMS.findall(body)}
    os_, is_, us = tensor_shape(src), tensor_shape(indices), tensor_shape(updates)
    r = len(os_)
    window_dims = nums.get("update_window_dims", [])
    inserted = nums.get("inserted_window_dims", [])
    to_operand = nums.get("scatter_dims_to_operand_dims", [])
    ivd = (nums.get("index_vector_dim") or [0])[0]
    if nums.get("input_batching_dims") or nums.get("scatter_indices_batching_dims"):
        raise LocatedError("has batching dims; meshc imports scatters without them", op)
    if sorted(to_operand) != sorted(inserted) or len(set(to_operand)) != len(to_operand):
        raise LocatedError(f"scatters into operand dims {to_operand} with inserted window dims {inserted}; meshc "
                           "imports a scatter whose index names one position of exactly its inserted dims", op)
    windows = [d for d in range(r) if d not in inserted]  # the operand dims the update windows span, in order
    scatter_dims = [d for d in range(len(us)) if d not in window_dims]
    batch = [n for i, n in enumerate(is_) if i != ivd]
    k = is_[ivd] if ivd < len(is_) else 1
    if (len(windows) != len(window_dims) or k != len(to_operand) or [us[d] for d in scatter_dims] != batch
            or any(us[u] > os_[d] for u, d in zip(window_dims, windows))):
        raise LocatedError(f"writes updates {list(us)} into {list(os_)} at indices {list(is_)} (index_vector_dim "
                           f"{ivd}); the windows must fit the operand and the update's other dims match the indices'",
                           op)
    x = imp.value(src)
    xt = x.type
    assert isinstance(xt, TensorType)
    if isinstance(xt.element_type, IntegerType):
        raise LocatedError(f"scatters into {xt}; meshc imports scatters of floating-point values", op)
    s = math.prod(batch)
    p = math.prod(os_[d] for d in to_operand)
    # the index vectors as [S, K] in f32
    idx = imp.value(indices)
    if ivd < len(is_):
        perm = [i for i in range(len(is_)) if i != ivd] + [ivd]
        if perm != list(range(len(is_))):
            idx = imp.emit(OPS["permute"], [idx], _t([is_[i] for i in perm], idx),
                           {"permutation": ttir_i64(perm)})
    idx = imp.emit(OPS["reshape"], [idx], _t([s, k], idx))
    f = imp.emit(OPS["typecast"], [idx], TensorType(_F32, [s, k]))
    sizes = np.array([[os_[d] for d in to_operand]], np.float32)
    strides = np.array([[math.prod(os_[d] for d in to_operand[j + 1:]) for j in range(k)]], np.float32)
    inside = imp.emit(OPS["multiply"], [imp.emit(OPS["ge"], [f, _const(imp, np.zeros((s, k)), f)], f.type),
                                        imp.emit(OPS["lt"], [f, _const(imp, np.broadcast_to(sizes, (s, k)), f)],
                                                 f.type)], f.type)
    valid = imp.emit(OPS["eq"], [_reduce(imp, "sum", inside, 1), _const(imp, np.full(s, float(k)), f)],
                     TensorType(_F32, [s]))
    pos = _reduce(imp, "sum", imp.emit(OPS["multiply"], [f, _const(imp, np.broadcast_to(strides, (s, k)), f)],
                                       f.type), 1)
    col = imp.emit(OPS["reshape"], [pos], TensorType(_F32, [s, 1]))
    hit = imp.emit(OPS["eq"], [_bcast(imp, col, [s, p]), _const(imp, np.broadcast_to(np.arange(p), (s, p)), f)],
                   TensorType(_F32, [s, p]))
    keep = valid
    if kind == "replace":  # a position written again by a later update keeps the later one
        row = imp.emit(OPS["reshape"], [pos], TensorType(_F32, [1, s]))
        vrow = imp.emit(OPS["reshape"], [valid], TensorType(_F32, [1, s]))
        same = imp.emit(OPS["eq"], [_bcast(imp, col, [s, s]), _bcast(imp, row, [s, s])], TensorType(_F32, [s, s]))
        later = np.triu(np.ones((s, s), np.float32), 1)  # [s, s'] = 1 where s' > s
        ss = TensorType(_F32, [s, s])
        again = imp.emit(OPS["multiply"], [same, imp.emit(OPS["multiply"], [_bcast(imp, vrow, [s, s]),
                                                                           _const(imp, later, ss)], ss)], ss)
        dropped = _reduce(imp, "max", again, 1)
        keep = imp.emit(OPS["multiply"], [valid, imp.emit(OPS["subtract"], [_const(imp, np.ones(s), f), dropped],
                                                          valid.type)], valid.type)
    krow = imp.emit(OPS["reshape"], [keep], TensorType(_F32, [s, 1]))
    hot = imp.emit(OPS["multiply"], [hit, _bcast(imp, krow, [s, p])], hit.type)
    hot_t = imp.emit(OPS["permute"], [hot], TensorType(_F32, [p, s]), {"permutation": ttir_i64([1, 0])})
    hot_t = imp.emit(OPS["typecast"], [hot_t], _t([p, s], xt)) if xt.element_type != _F32 else hot_t
    # the updates as [S, window padded to the operand's extent]
    u = imp.value(updates)
    perm = scatter_dims + window_dims
    if perm != list(range(len(us))):
        u = imp.emit(OPS["permute"], [u], _t([us[i] for i in perm], u), {"permutation": ttir_i64(perm)})
    wshape = [us[i] for i in window_dims]
    full = [os_[d] for d in windows]
    u = imp.emit(OPS["reshape"], [u], _t([s] + wshape, u))
    mask = np.ones([1] + wshape, np.float32)
    for j, (w, n) in enumerate(zip(wshape, full)):
        if w < n:
            pad_shape = [s] + full[:j] + [n - w] + wshape[j + 1:]
            u = imp.emit(OPS["concat"], [u, _const(imp, np.zeros(pad_shape), u)],
                         _t([s] + full[:j + 1] + wshape[j + 1:], u), {"dim": IntegerAttr(j + 1, i32)})
            mask = np.concatenate([mask, np.zeros([1] + full[:j] + [n - w] + wshape[j + 1:], np.float32)], axis=j + 1)
    wf = math.prod(full)
    u = imp.emit(OPS["reshape"], [u], _t([s, wf], u))
    v = imp.emit(OPS["matmul"], [hot_t, u], _t([p, wf], xt))
    lay = [os_[d] for d in to_operand] + full
    order = list(to_operand) + windows  # the dims of `lay`, as operand dims
    back = [order.index(d) for d in range(r)]

    def to_operand_layout(y: SSAValue) -> SSAValue:
        y = imp.emit(OPS["reshape"], [y], _t(lay, y))
        if back != list(range(r)):
            y = imp.emit(OPS["permute"], [y], _t(os_, y), {"permutation": ttir_i64(back)})
        return y

    v = to_operand_layout(v)
    if kind == "add":
        imp.values[op.results[0]] = imp.emit(OPS["add"], [x, v], xt)
        return
    count = imp.emit(OPS["reshape"], [_reduce(imp, "sum", hot, 0)], TensorType(_F32, [p, 1]))  # 0 / 1 a position
    m = _const(imp, np.broadcast_to(mask.reshape(1, wf), (p, wf)), TensorType(_F32, [p, wf]))
    written = to_operand_layout(imp.emit(OPS["multiply"], [_bcast(imp, count, [p, wf]), m], m.type))
    imp.values[op.results[0]] = imp.emit(OPS["where"], [written, v, x], xt)


def ttir_i64(values) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, [int(v) for v in values])


HANDLERS = {"stablehlo.scatter": scatter}
