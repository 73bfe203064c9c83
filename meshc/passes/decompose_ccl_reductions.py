"""`ttir-decompose-ccl-reductions`: ttir's max / min collectives as ops TTNN has.

tt-mlir's TTNN verifiers take `ttnn.all_reduce` and `ttnn.reduce_scatter` with `reduce_type` sum
only ("Invalid reduction type for all reduce op." / "... reduce scatter op."); its TTIR verifier
refuses a max or min all_reduce outright and passes a max or min reduce_scatter on to that TTNN
refusal. meshc's ttir keeps them (a JAX `pmax` in a shard_map imports as a max all_reduce), so the
TTNN pipeline rewrites each one, on the ops TTNN has, before it lowers:

    all_reduce max over n devices of x: S     reshape x to 1xS, all_gather on dim 0 (nxS),
                                              max over dim 0 (S): every device holds the max
    all_reduce min                            the same on neg(x), negated back (exact: negation
                                              only flips the sign bit of a float); on integers
                                              bitwise_not (~x = -x - 1 reverses the order of
                                              signed and unsigned values alike, with no overflow)
    reduce_scatter max / min (scatter_dim d)  the all_reduce above, then all_slice of dim d: device
                                              k of cluster_axis keeps piece k, as reduce_scatter's

Over one device (n = 1) the op is the identity and is removed, as tt-mlir folds a one-device
collective. The gather moves (n - 1) whole tensors into every device where a sum all_reduce moves
about 2 (n - 1) / n of one: the time model sees the traffic TTNN would have. The ttmetal pipeline
keeps them (its CCL kernels reduce by max and min).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, BoolAttr, IntegerAttr, IntegerType, ModuleOp, Signedness, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from meshc.dialects import ttir
from meshc.dialects.ttir.base import int_value, tensor_shape

_SI32 = IntegerType(32, Signedness.SIGNED)
_UI32 = IntegerType(32, Signedness.UNSIGNED)
_I32 = IntegerType(32)


def _emit(cls, operands: list[SSAValue], shape: tuple[int, ...], like: TensorType, at: Operation,
          attrs: dict | None = None) -> SSAValue:
    """A new op of `cls` before `at`, at its location, of result `shape` (element type of `like`)."""
    op = cls.create(operands=operands, result_types=[TensorType(like.element_type, shape)], attributes=attrs or {})
    op.location = at.location
    Rewriter.insert_op(op, InsertPoint.before(at))
    return op.results[0]


def order_reversing(element) -> str:
    """The compute-op kind that reverses the order of `element`'s values exactly and is its own
    inverse: bitwise_not on integers (~x = -x - 1, no overflow, signed or unsigned; -x wraps the
    smallest signed value onto itself), neg on floats (it flips the sign bit)."""
    return "bitwise_not" if isinstance(element, IntegerType) else "neg"


def _all_reduce_by_gather(x: SSAValue, kind: str, axis: int, n: int, at: Operation) -> SSAValue:
    """max / min of `x` over the n devices of `axis`, on every device (see the module docstring)."""
    t = x.type
    shape = tensor_shape(x)
    flip = ttir.COMPUTE_OPS[order_reversing(t.element_type)]
    if kind == "min":
        x = _emit(flip, [x], shape, t, at)
    one = _emit(ttir.COMPUTE_OPS["reshape"], [x], (1, *shape), t, at,
                {"shape": ArrayAttr([IntegerAttr(k, _I32) for k in (1, *shape)])})
    gathered = _emit(ttir.AllGatherOp, [one], (n, *shape), t, at,
                     {"all_gather_dim": IntegerAttr(0, _SI32), "cluster_axis": IntegerAttr(axis, _UI32)})
    y = _emit(ttir.COMPUTE_OPS["max"], [gathered], shape, t, at,
              {"dim_arg": ArrayAttr([IntegerAttr(0, _I32)]), "keep_dim": BoolAttr.from_bool(False)})
    if kind == "min":
        y = _emit(flip, [y], shape, t, at)
    return y


def decompose(module: ModuleOp) -> int:
    """Rewrite the module's max / min all_reduce and reduce_scatter ops; return how many."""
    count = 0
    for op in list(module.walk()):
        if not isinstance(op, (ttir.AllReduceOp, ttir.ReduceScatterOp)):
            continue
        kind = op.reduce_type.data
        if kind == "sum":
            continue
        n = op.axis_size() or 1
        axis = int_value(op.cluster_axis)
        if n == 1:
            new = op.input
        else:
            new = _all_reduce_by_gather(op.input, kind, axis, n, op)
            if isinstance(op, ttir.ReduceScatterOp):
                new = _emit(ttir.AllSliceOp, [new], tensor_shape(op.result), op.result.type, op,
                            {"slice_dim": op.scatter_dim, "cluster_axis": op.cluster_axis})
        op.result.replace_all_uses_with(new)
        Rewriter.erase_op(op)
        count += 1
    return count


@dataclass(frozen=True)
class DecomposeCCLReductionsPass(ModulePass):
    name = "ttir-decompose-ccl-reductions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        decompose(op)
