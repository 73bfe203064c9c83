"""`reshard-to-collectives`: lower `ttir.reshard` into moves whose bytes meet the lower bound.

A reshard names a source and a target placement (sharding specs over the module's mesh, or over
another view of the same devices, like `[EP=8]` over a 2x2x2 mesh). The pass emits one of:

* **uniform collectives** -- the cheapest walk of SPMD collectives between the two placements
  (`meshc.layout.reshard.collective_walk`: all_gather, all_to_all, collective_permute,
  reduce_scatter, all_reduce, and `ttir.all_slice` for R -> S, which moves nothing), each op
  with the local shape of the placement it produces -- when that walk delivers at most
  `max-ratio` times the lower bound (default 1.0: exactly the bound);
* otherwise **`ttir.point_to_point`** carrying the transfers of the fewest-bytes plan
  (`plan_reshard`): per move the step, the source device, the destination device and the
  global index box. Its delivered bytes equal the lower bound (every byte moved is needed by
  its receiver and was missing there). Among such plans the one with the fewest link-hop bytes
  is taken, on the links between the chips of the module's `#tt.device` in its
  `#tt.system_desc`, or in the system the simulator runs it on (meshc.layout.system.default_system).

Reshards that reduce partial sums take the walk (a point-to-point move never adds), however
much it moves, unless `max-ratio` is given: then a walk beyond it is a located error. Option
`point-to-point=false` never emits `ttir.point_to_point`; with `max-ratio` given, a walk beyond
it is then a located error (without, the walk is emitted whatever it costs).

A reshard with an uneven split (its `full_shape` stated; each device holds a buffer of
ceil(n / k), its piece padded) becomes `ttir.point_to_point`: the moves send real pieces only,
never padding, so it delivers exactly the lower bound.

Errors (located at the reshard): specs that do not parse or do not fit the mesh, element types
without a per-element byte size, partial sums the target invents, partial sums reduced by a
reshard that splits unevenly.
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
from xdsl.ir import Attribute
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern, op_type_rewrite_pattern
from xdsl.utils.exceptions import VerifyException

from meshc.errors import LocatedError
from meshc.dialects.element_types import data_type_of
from meshc.dialects.tt import enclosing_module, module_device, system_or_default
from meshc.layout.collectives import COLLECTIVES
from meshc.layout.errors import LayoutError
from meshc.layout.system import chips_system
from meshc.dialects import ttir
from meshc.layout.reshard import collective_walk, lower_bound_bytes, plan_reshard

_SI32 = IntegerType(32, Signedness.SIGNED)
_UI32 = IntegerType(32, Signedness.UNSIGNED)


def _i(value: int, kind=_SI32) -> IntegerAttr:
    return IntegerAttr(value, kind)


def _system_of(op):
    """The topology between the module's devices (device i = the i-th chip of its `#tt.device`):
    its system (tt.system_or_default) restricted to those chips; None when the module has no
    device."""
    module = enclosing_module(op)
    device = None if module is None else module_device(module)
    if device is None:
        return None
    try:
        return chips_system(system_or_default(module), device.chip_ids)
    except (LayoutError, IndexError):
        return None


def point_to_point(op, plan) -> list:
    """One `ttir.point_to_point` carrying the transfers of `plan` (a plan without reductions)."""
    moving = [step for step in plan.steps if step.transfers]  # all_slice steps move nothing
    rows = [[k, tr.src, tr.dst, *[x for lo_hi in tr.box for x in lo_hi]]
            for k, step in enumerate(moving) for tr in step.transfers]
    attr = ttir.transfers_attr(rows)
    attrs = {"source": op.source, "target": op.target, "transfers": attr}
    if op.full_shape is not None:
        attrs["full_shape"] = op.full_shape
    new = ttir.PointToPointOp.create(operands=[op.input], result_types=[op.result.type], attributes=attrs)
    new.location = op.location
    return [new]


def lower_reshard(op, max_ratio: float | None = None, allow_point_to_point: bool = True) -> list:
    """The ops replacing one `ttir.reshard` (not yet inserted): uniform collectives when their walk
    delivers at most `max_ratio` (None: 1.0) times the lower bound, else a `ttir.point_to_point`."""
    try:
        src, tgt = op.specs()
        shape = op.global_shape()
    except VerifyException as e:
        raise LocatedError(str(e), op) from None
    t = op.input.type
    assert isinstance(t, TensorType)
    try:
        dtype = data_type_of(t.element_type).name
        bound = lower_bound_bytes(shape, dtype, src, tgt)  # checks the pair first: clearer messages
    except LayoutError as e:
        raise LocatedError(f"cannot lower the reshard {src} -> {tgt}: {e}", op) from None
    if not (src.is_even(shape) and tgt.is_even(shape)):
        return _uneven(op, shape, dtype, src, tgt, allow_point_to_point)
    limit = 1.0 if max_ratio is None else max_ratio
    walk, why, within = None, "", False
    try:
        walk = collective_walk(shape, dtype, src, tgt)
        moved = sum(s.bytes for s in walk)
        within = not bound or moved <= limit * bound
        if not within:
            why = (f"the collectives for {src} -> {tgt} deliver {moved} B, {moved / bound:.2f}x the lower "
                   f"bound of {bound} B (max-ratio = {limit:g})")
    except LayoutError as e:
        why = f"cannot lower the reshard {src} -> {tgt}: {e}"
    if not within:
        if allow_point_to_point:
            try:  # a plan too large to list as a transfer table is refused here, located
                plan = plan_reshard(shape, dtype, src, tgt, system=_system_of(op))
                if plan.intermediate is None and not any(tr.reduce for tr in plan.transfers):
                    return point_to_point(op, plan)
            except LayoutError as e:
                raise LocatedError(f"cannot lower the reshard {src} -> {tgt}: {e}", op) from None
            why += "; point-to-point moves cannot reduce partial sums"
        if walk is None or max_ratio is not None:
            raise LocatedError(why, op)
        # partial sums without a max-ratio: the walk is the only lowering there is
    new_ops = []
    value = op.input
    for step in walk:
        local = step.after.local_shape(shape, step.after.mesh.coords()[0])
        rt = TensorType(t.element_type, local, t.encoding)
        kind = COLLECTIVES[step.kind]
        dims = tuple(d for d in (step.dim, step.dim2) if d is not None)[: len(kind.dim_attrs)]
        attrs: dict[str, Attribute] = {name: _i(d) for name, d in zip(kind.dim_attrs, dims)}
        if kind.cluster_axis:
            attrs["cluster_axis"] = _i(step.axis, _UI32)
        if kind.reduces:
            attrs["reduce_type"] = ttir.ReduceTypeAttr("sum")
        if kind.pairs:
            pairs = [x for p in step.pairs for x in p]
            attrs["source_target_pairs"] = DenseIntOrFPElementsAttr.from_list(
                TensorType(i64, [len(step.pairs), 2]), pairs)
        new = ttir.COLLECTIVE_OPS[step.kind].create(operands=[value], result_types=[rt], attributes=attrs)
        new.location = op.location
        new_ops.append(new)
        value = new.results[0]
    return new_ops


def _uneven(op, shape, dtype: str, src, tgt, allow_point_to_point: bool) -> list:
    """A reshard with an uneven split: the point-to-point moves of the fewest-bytes plan, which
    send each device's real piece only (its buffer's padding stays put), so it delivers the lower
    bound. Partial sums on one placement are all-reduced over their axes, buffer by buffer (an
    elementwise sum across devices: a real piece stays exact, padding stays padding); other
    changes of partial sums are refused (ttir-partition reduces them on the source placement first)."""
    if src.dims == tgt.dims and src.partial != tgt.partial and set(tgt.partial) <= set(src.partial):
        new_ops, value = [], op.input
        for axis in (a for a in src.partial if a not in tgt.partial):
            attrs = {"cluster_axis": _i(axis, _UI32), "reduce_type": ttir.ReduceTypeAttr("sum")}
            new = ttir.COLLECTIVE_OPS["all_reduce"].create(operands=[value], result_types=[value.type],
                                                           attributes=attrs)
            new.location = op.location
            new_ops.append(new)
            value = new.results[0]
        return new_ops
    if src.partial != tgt.partial:
        raise LocatedError(f"cannot lower the reshard {src} -> {tgt} of the {tuple(shape)} tensor: it reduces "
                           f"partial sums and splits a dim unevenly; reduce on an even placement first", op)
    if not allow_point_to_point:
        raise LocatedError(f"cannot lower the reshard {src} -> {tgt} of the {tuple(shape)} tensor with "
                           f"point-to-point=false: an uneven split moves by point-to-point moves only "
                           f"(the collectives move even pieces)", op)
    try:
        plan = plan_reshard(shape, dtype, src, tgt, system=_system_of(op))
    except LayoutError as e:
        raise LocatedError(f"cannot lower the reshard {src} -> {tgt}: {e}", op) from None
    return point_to_point(op, plan)


class LowerReshard(RewritePattern):
    """One `ttir.reshard` -> the ops `lower_reshard` chooses (none: the reshard moves nothing and
    its uses read its input)."""

    def __init__(self, max_ratio: float | None, allow_point_to_point: bool):
        self.max_ratio = max_ratio
        self.allow_point_to_point = allow_point_to_point

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ttir.ReshardOp, rewriter: PatternRewriter) -> None:
        new_ops = lower_reshard(op, self.max_ratio, self.allow_point_to_point)
        rewriter.insert(new_ops, InsertPoint.before(op))
        # the last op's result takes the reshard's uses and its name (the moves before it stay unnamed)
        rewriter.replace_all_uses_with(op.result, new_ops[-1].results[0] if new_ops else op.input)
        rewriter.erase(op)


@dataclass(frozen=True)
class ReshardToCollectivesPass(ModulePass):
    name = "reshard-to-collectives"

    max_ratio: float | int | None = None
    """Use uniform collectives when they deliver at most this times the lower bound (default 1.0);
    given, it also caps the walk of a partial-sum reshard (beyond it: a located error)."""

    point_to_point: bool = True
    """Otherwise emit ttir.point_to_point (false: the walk, or a located error beyond a given max-ratio)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(LowerReshard(self.max_ratio, self.point_to_point), apply_recursively=False,
                             walk_reverse=False).rewrite_module(op)
