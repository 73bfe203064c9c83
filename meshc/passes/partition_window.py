"""`ttir-partition`'s slices and concatenations along split dims: each device takes its piece of
the result from the pieces that overlap it, never gathering the dim.

A `window` factor (meshc/layout/sharding_factors.py) is a dim split alike in the operand and
the result whose result piece is not the operand piece at the same place. Where one is split,
the op becomes windowed `ttir.point_to_point`s (meshc/layout/reshard/window.py):

* `slice` (step 1 on the split dims): the result is the window `x[begins:ends]` of the operand,
  split as the result's spec says (torch.chunk pieces of the result, padded when uneven). Each
  device keeps its overlap with its result piece and receives the rest from the device that
  holds it (a halo exchange; nothing moves when the pieces line up);
* `concat` along dim d: operand i is the window `[-o_i, N - o_i)` of itself along d (o_i the
  length of the operands before it, N the result's): zeros outside, its elements where the
  result's pieces hold them. The windows add up to the result (each position has one nonzero
  term, so the sum is exact; a -0.0 element comes out +0.0).

Link bytes: the elements a device's result piece needs and its operand pieces lack, each sent
once (`window_needed_bytes`), which the tests derive by hand.
"""

from __future__ import annotations


from xdsl.dialects.builtin import DenseArrayBase, TensorType, i64
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

from meshc.dialects import ttir
from meshc.dialects.tt import ShardingAttr
from meshc.dialects.ttir.base import int_value
from meshc.layout.mesh import ShardingSpec
from meshc.layout.reshard.window import window_moves, window_shape
from meshc.passes.partition_protocol import Partitioner

OPS = ttir.COMPUTE_OPS


def windowed(op: Operation, required: tuple[ShardingSpec, ...], shape_of) -> bool:
    """Whether `op` (its operands to be placed as `required`) splits a window dim: a slice's dim
    sliced at step 1, a concat's dim."""
    if isinstance(op, ttir.SliceBase):
        src, dst = shape_of(op.operands[0]), shape_of(op.results[0])
        steps = op.bounds()[2]
        return any(required[0].dims[d] and src[d] != dst[d] and steps[d] == 1 for d in range(len(dst)))
    if isinstance(op, ttir.ConcatBase):
        d = int_value(op.dim) % len(shape_of(op.results[0]))
        return bool(required[0].dims[d])
    return False


def op_windows(op: Operation, shape_of) -> list[tuple[SSAValue, tuple[tuple[int, int], ...]]]:
    """Each operand of the slice or concat `op` with its window (a box of the operand, in its
    coordinates, whose pieces make the result's): a slice's bounds; a concat operand's place
    in the result, `[-o, N - o)` along the joined dim."""
    if isinstance(op, ttir.SliceBase):
        begins, ends, _ = op.bounds()
        return [(op.operands[0], tuple(zip(begins, ends)))]
    full = shape_of(op.results[0])
    d = int_value(op.attributes["dim"]) % len(full)
    out, offset = [], 0
    for v in op.operands:
        shape = shape_of(v)
        out.append((v, tuple((-offset, full[d] - offset) if e == d else (0, m) for e, m in enumerate(shape))))
        offset += shape[d]
    return out


def _move(p: Partitioner, v: SSAValue, window, target: ShardingSpec, result: TensorType, before: Operation) -> SSAValue:
    """A windowed point_to_point of `v` (placed `p.spec[v]`) to `target`'s pieces of `v[window]`."""
    src = p.spec[v]
    shape = p.global_shape(v)
    rows = window_moves(shape, src, target, window)
    attrs = {"source": ShardingAttr(src), "target": ShardingAttr(target),
             "transfers": ttir.transfers_attr(rows),
             "window": DenseArrayBase.from_list(i64, [int(x) for box in window for x in box])}
    if not src.is_even(shape):
        attrs["full_shape"] = DenseArrayBase.from_list(i64, list(shape))
    local = TensorType(result.element_type, target.buffer_shape(window_shape(window)), result.encoding)
    new = p.insert(ttir.PointToPointOp.create(operands=[v], result_types=[local], attributes=attrs), before)
    out = new.results[0]
    p.spec[out], p.globals[out] = target, window_shape(window)
    return out


def partition_windowed(p: Partitioner, op: Operation, target: ShardingSpec) -> None:
    """Replace the slice or concat `op` (operands placed already) by its windowed moves; its
    result takes `target`."""
    result = op.results[0]
    rt = result.type
    assert isinstance(rt, TensorType)
    full = tuple(rt.get_shape())
    out = None
    for v, window in op_windows(op, lambda w: full if w is result else p.global_shape(w)):
        piece = _move(p, v, window, target, rt, op)
        if out is None:
            out = piece
        else:  # a concat: the operands' windows added
            add = p.insert(OPS["add"].create(operands=[out, piece], result_types=[piece.type]), op)
            out = add.results[0]
            p.spec[out], p.globals[out] = target, full
    assert out is not None
    result.replace_all_uses_with(out)
    Rewriter.erase_op(op)
