"""`reshard-to-collectives`: lower `ttir.reshard` into ttir collectives every device runs alike.

A reshard names a source and a target placement (sharding specs over the module's mesh, or over
another view of the same devices, like `[EP=8]` over a 2x2x2 mesh). The pass asks the layout
model for the cheapest walk of SPMD collectives between them
(`meshc.layout.reshard.collective_walk`: all_gather, all_to_all, collective_permute,
reduce_scatter, all_reduce, and `ttir.all_slice` for R -> S, which moves nothing) and replaces
the reshard by those ops, each with the local shape of the placement it produces.

The walk moves the same bytes as the fewest-bytes plan (`plan_reshard`) whenever one axis
changes; for a change that needs point-to-point moves of different sizes on different devices
(the seed's attention -> expert transition), uniform collectives forward some bytes through
devices that do not keep them, and the walk moves more than the plan (docs/reshard.md has the
figures). Option `max-ratio` (default: no limit) turns that into a located error: the pass
refuses a walk that delivers more than `max-ratio` times the lower bound.

Errors (located at the reshard): specs that do not parse or do not fit the mesh, uneven
splits, element types without a per-element byte size, partial sums the target invents.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
    i64,
)
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import VerifyException

from meshc.diagnostics import LocatedError
from meshc.layout.errors import LayoutError

_SI32 = IntegerType(32, Signedness.SIGNED)
_UI32 = IntegerType(32, Signedness.UNSIGNED)


def _dtype_name(t: TensorType) -> str:
    from meshc.layout.dtypes import get_dtype

    text = str(t.element_type)
    try:
        return get_dtype(text).name
    except LayoutError:
        if isinstance(t.element_type, IntegerType):
            return get_dtype(f"i{t.element_type.width.data}").name
        raise


def _i(value: int, kind=_SI32) -> IntegerAttr:
    return IntegerAttr(value, kind)


def lower_reshard(op, max_ratio: float | None = None) -> list:
    """The ops replacing one `ttir.reshard` (not yet inserted)."""
    from meshc.dialects import ttir
    from meshc.layout.reshard import collective_walk, lower_bound_bytes

    try:
        src, tgt = op.specs()
        shape = op.global_shape()
    except VerifyException as e:
        raise LocatedError(str(e), op) from None
    t = op.input.type
    assert isinstance(t, TensorType)
    try:
        dtype = _dtype_name(t)
        bound = lower_bound_bytes(shape, dtype, src, tgt)  # checks the pair first: clearer messages
        walk = collective_walk(shape, dtype, src, tgt)
    except LayoutError as e:
        raise LocatedError(f"cannot lower the reshard {src} -> {tgt}: {e}", op) from None
    moved = sum(s.bytes for s in walk)
    if max_ratio is not None and bound and moved > max_ratio * bound:
        raise LocatedError(f"the collectives for {src} -> {tgt} deliver {moved} B, {moved / bound:.2f}x the lower "
                           f"bound of {bound} B (max-ratio = {max_ratio})", op)
    new_ops = []
    value = op.input
    for step in walk:
        local = step.after.local_shape(shape, step.after.mesh.coords()[0])
        rt = TensorType(t.element_type, local, t.encoding)
        if step.kind == "all_gather":
            attrs = {"all_gather_dim": _i(step.dim), "cluster_axis": _i(step.axis, _UI32)}
            new = ttir.AllGatherOp.create(operands=[value], result_types=[rt], attributes=attrs)
        elif step.kind == "all_slice":
            attrs = {"slice_dim": _i(step.dim), "cluster_axis": _i(step.axis, _UI32)}
            new = ttir.AllSliceOp.create(operands=[value], result_types=[rt], attributes=attrs)
        elif step.kind == "all_to_all":
            attrs = {"split_dim": _i(step.dim), "concat_dim": _i(step.dim2), "cluster_axis": _i(step.axis, _UI32)}
            new = ttir.AllToAllOp.create(operands=[value], result_types=[rt], attributes=attrs)
        elif step.kind == "reduce_scatter":
            attrs = {"scatter_dim": _i(step.dim), "cluster_axis": _i(step.axis, _UI32),
                     "reduce_type": ttir.ReduceTypeAttr("sum")}
            new = ttir.ReduceScatterOp.create(operands=[value], result_types=[rt], attributes=attrs)
        elif step.kind == "all_reduce":
            attrs = {"cluster_axis": _i(step.axis, _UI32), "reduce_type": ttir.ReduceTypeAttr("sum")}
            new = ttir.AllReduceOp.create(operands=[value], result_types=[rt], attributes=attrs)
        else:  # collective_permute
            pairs = [x for p in step.pairs for x in p]
            attr = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(step.pairs), 2]), pairs)
            new = ttir.CollectivePermuteOp.create(operands=[value], result_types=[rt],
                                                  attributes={"source_target_pairs": attr})
        new.location = op.location
        new_ops.append(new)
        value = new.results[0]
    return new_ops


@dataclass(frozen=True)
class ReshardToCollectivesPass(ModulePass):
    name = "reshard-to-collectives"

    max_ratio: float | None = None
    """Refuse (located error) a lowering that delivers more than this times the lower bound."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from meshc.dialects import ttir

        for r in [o for o in op.walk() if isinstance(o, ttir.ReshardOp)]:
            new_ops = lower_reshard(r, self.max_ratio)
            if not new_ops:  # source and target are the same placement
                r.result.replace_all_uses_with(r.input)
                Rewriter.erase_op(r)
                continue
            Rewriter.insert_op(new_ops, InsertPoint.before(r))
            r.result.replace_all_uses_with(new_ops[-1].results[0])
            Rewriter.erase_op(r)
