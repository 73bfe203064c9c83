"""`ttir-propagate-sharding`: give every value of a global-view program a sharding.

Inputs: the user's annotations (`tt.sharding` on function arguments and results,
`ttir.sharding_constraint` on any value; unannotated arguments and results are replicated).
Output: every op carries `tt.shardings = [#tt.sharding<...>, ...]` (one a result), every
argument and result its `tt.sharding`; `ttir-partition` then makes the SPMD program.

The per-op rules are `meshc.layout.sharding_rules`. The priorities (docs/propagation.md):

1. User annotations win: an annotated argument, result or constrained value has that sharding.
   An unannotated argument is replicated; an unannotated result is replicated when it is
   returned (resharded there if need be) but asks nothing of the ops computing it. A result
   marked `tt.unconstrained` (JAX's result without out_shardings) asks nothing either and
   leaves in its value's sharding (`follow`), which is written as its `tt.sharding`. A
   constraint's `open_dims` (Shardy's `{?}`) are free: such a dim takes its operand's split or
   its users' wish, whichever moves fewer bytes (`constraint_choice`); its other dims bind.
2. Backward hints: walking from the end, an op whose result has a wanted sharding (a user
   annotation first, then what its users want) asks its operands for what `Rule.require` says;
   the first wish a value receives is kept (annotations before derived wishes, later users
   before earlier ones). An argument that splits a summed factor of the op (a row-parallel
   weight, `[S1, R]` as matmul's K) makes the wish the one that keeps that split: the other
   operands are asked for K split alike and the result is the wanted one's partial sums over
   those axes (reduced where they are wanted whole), as Shardy propagates a weight's split to
   the activation it multiplies. (Without it a Megatron block whose attention output is not
   constrained asked for that output whole and gathered the heads before it.)
3. Forward choice: in program order, each op picks among the wanted sharding of its results,
   the merge of its operands' shardings (`Rule.merge`: per factor the first operand sharding
   it), the sharding each operand proposes alone (`Rule.propose`, operands in order), and replication,
   the one that moves the fewest bytes: the bytes of resharding its operands to what that
   choice requires, plus the bytes of taking its result to the wanted sharding (or, for a
   partial sum nobody wants as such, of reducing it). Bytes are the reshard planner's
   (`plan_reshard(...).delivered_bytes`). Ties go to the smaller per-device result, then to the
   earlier candidate in the order above.

Programs with SPMD ops (hand-written `ttir.mesh_shard`, collectives) are left alone; so is a
module on one device (nothing to shard). Errors (located): an op with no sharding rule, an
annotation whose rank or mesh does not fit, annotations in an SPMD program.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from meshc.dialects.tt import module_mesh_shape
from meshc.layout.shapes import fmt_shape
from meshc.passes.stated_mesh import annotations, first_unbound_split, no_mesh_error, stated_mesh

from meshc.errors import LocatedError
from meshc.dialects.ttir.base import tensor_shape
from meshc.dialects.ttir.sharding_constraint import ShardingConstraintOp
from meshc.layout.mesh import Mesh, ShardingSpec, states_shard_dims
from meshc.layout.shapes import ceil_div
from meshc.layout.sharding_rules import canonical, replicated
from meshc.passes.sharding_ir import (
    body_ops,
    unconstrained_results,
    function_specs,
    has_annotations,
    is_global_view,
    mesh_of,
    op_rule,
    reshard_bytes,
    set_chosen,
    set_function_specs,
)


def _local_elems(value: SSAValue, spec: ShardingSpec) -> int:
    return math.prod(ceil_div(n, spec.num_pieces(d)) for d, n in enumerate(tensor_shape(value)))


def constraint_spec(op: ShardingConstraintOp, mesh: Mesh) -> ShardingSpec:
    return canonical(op.sharding.on_mesh(mesh.shape))


def open_fill(op: ShardingConstraintOp, written: ShardingSpec, other: ShardingSpec) -> ShardingSpec:
    """The constraint's spec `written` with each open dim taking `other`'s split of it where that
    split starts with the axes written there and uses no axis a closed dim names; closed dims as
    written, no partial sums (a constraint places a value)."""
    dims = list(written.dims)
    for d in op.open():
        rest = {a for e, ax in enumerate(dims) if e != d for a in ax}
        cand = other.dims[d]
        if cand[:len(written.dims[d])] == written.dims[d] and not rest.intersection(cand):
            dims[d] = cand
    return canonical(ShardingSpec(written.mesh, tuple(dims)))


def constraint_choice(op: ShardingConstraintOp, chosen: dict[SSAValue, ShardingSpec],
                      wanted: dict[SSAValue, ShardingSpec], mesh: Mesh) -> ShardingSpec:
    """The constraint result's sharding: as written when no dim is open; else, among its operand's
    sharding, its result's wish (each with the closed dims as written, `open_fill`) and the
    written spec, the one moving the fewest bytes (operand to it, then it to the wish, when it can
    reach it); ties to the smaller per-device piece, then to that order."""
    written = constraint_spec(op, mesh)
    if not op.open():
        return written
    x, w = chosen[op.input], wanted.get(op.result)
    cands = [open_fill(op, written, x)] + ([open_fill(op, written, w)] if w is not None else []) + [written]
    best, best_key = written, None
    for idx, c in enumerate(cands):
        extra = reshard_bytes(op.result, c, w) if w is not None else 0.0
        cost = reshard_bytes(op.input, x, c) + (0.0 if math.isinf(extra) else extra)  # as `choose` does
        key = (cost, _local_elems(op.result, c), idx)
        if best_key is None or key < best_key:
            best, best_key = c, key
    return best


def _annotated(attrs, n: int) -> list[bool]:
    return [attrs is not None and i < len(attrs.data) and "tt.sharding" in attrs.data[i].data for i in range(n)]


def follow(mesh: Mesh, spec: ShardingSpec) -> ShardingSpec:
    """The sharding a result takes from its value: the value's (partial sums reduced), or
    replicated when its axes are not in ascending order (a host transfer states no other)."""
    s = canonical(ShardingSpec(mesh, spec.dims))
    return s if states_shard_dims(s) else replicated(mesh, len(s.dims))


def propagate_function(f: func.FuncOp, mesh: Mesh) -> dict[SSAValue, ShardingSpec]:
    """Choose the sharding of every value of `f`; writes them on the ops and the signature (an
    unconstrained result's: its value's, `follow`)."""
    ins, outs = function_specs(f, mesh)
    chosen = plan_function(f, mesh, ins, outs, _annotated(f.res_attrs, len(outs)))
    ret = body_ops(f)[-1]
    for op in body_ops(f)[:-1]:
        set_chosen(op, tuple(chosen[r] for r in op.results))
    outs = [follow(mesh, chosen[v]) if free else o
            for v, o, free in zip(ret.operands, outs, unconstrained_results(f))]
    set_function_specs(f, ins, outs)
    return chosen


def plan_function(f: func.FuncOp, mesh: Mesh, ins: list[ShardingSpec], outs: list[ShardingSpec],
                  wish_results: list[bool]) -> dict[SSAValue, ShardingSpec]:
    """The sharding of every value of `f` for argument specs `ins` and result specs `outs`
    (`wish_results[i]`: result i's spec is a wish upstream, as an annotation is); the IR is
    not changed."""
    ops = body_ops(f)
    chosen: dict[SSAValue, ShardingSpec] = dict(zip(f.body.blocks.first.args, ins))
    wanted = wishes(f, mesh, outs, wish_results, chosen)
    for op in ops[:-1]:
        if isinstance(op, ShardingConstraintOp):
            chosen[op.result] = constraint_choice(op, chosen, wanted, mesh)
            continue
        if not op.results:
            raise LocatedError("an op without results has no place in a global-view program", op)
        for r, s in zip(op.results, choose(op, chosen, wanted, mesh)):
            chosen[r] = s
    return chosen


def wishes(f: func.FuncOp, mesh: Mesh, outs: list[ShardingSpec], wish_results: list[bool],
           args: dict[SSAValue, ShardingSpec] | None = None) -> dict[SSAValue, ShardingSpec]:
    """The backward hints (priority 2 of the module docstring): the sharding each value is
    wished, from the wished results and the constraints, and from `args` (the argument specs)
    only where an argument splits a summed factor of the op that uses it."""
    ops = body_ops(f)
    wanted: dict[SSAValue, ShardingSpec] = {}
    for v, spec, wish in zip(ops[-1].operands, outs, wish_results):
        if wish:  # an unannotated result is replicated at the return, but wants nothing earlier
            wanted.setdefault(v, spec)
    for op in ops:
        if isinstance(op, ShardingConstraintOp) and not op.open():
            wanted.setdefault(op.input, constraint_spec(op, mesh))
    for op in reversed(ops[:-1]):
        if isinstance(op, ShardingConstraintOp):
            if op.open():  # its closed dims as written, its open ones as its users wish
                w = wanted.get(op.result)
                spec = constraint_spec(op, mesh)
                wanted.setdefault(op.input, spec if w is None else open_fill(op, spec, w))
            continue
        want = [wanted.get(r) for r in op.results]
        if not op.results or any(w is None for w in want):
            continue
        req = _keeping_summed_splits(op, want, args or {})  # type: ignore[arg-type]
        if req is not None:
            for v, spec in zip(op.operands, req):
                wanted.setdefault(v, spec)
    return wanted


def _keeping_summed_splits(op: Operation, want: list[ShardingSpec],
                           args: dict[SSAValue, ShardingSpec]) -> tuple[ShardingSpec, ...] | None:
    """What `op` asks of its operands for results `want` (no partial sums): `Rule.require`'s
    answer, or, when an argument operand alone makes the result partial over some axes (it
    splits a summed factor), the operands that compute `want` partial over those axes, if they
    leave that argument as it is."""
    rule = op_rule(op)
    for i, v in enumerate(op.operands):
        spec = args.get(v)
        if spec is None or len(want) != 1 or want[0].partial:
            continue
        alone = rule.propose(i, spec)
        axes = alone[0].partial if alone is not None else ()
        if not axes or any(a in ax for ax in want[0].dims for a in axes):
            continue
        req = rule.require([ShardingSpec(want[0].mesh, want[0].dims, partial=axes)])
        if req is not None and canonical(req[i]) == canonical(spec):
            return req
    return rule.require(want)


def choose(op: Operation, chosen: dict[SSAValue, ShardingSpec], wanted: dict[SSAValue, ShardingSpec],
           mesh: Mesh) -> tuple[ShardingSpec, ...]:
    """The results' sharding with the fewest bytes moved (priorities in the module docstring)."""
    rule = op_rule(op)
    cands: list[tuple[ShardingSpec, ...]] = []
    want = tuple(wanted.get(r) for r in op.results)
    if all(w is not None for w in want):
        cands.append(want)  # type: ignore[arg-type]
    if len(op.operands) > 1:
        merged = rule.merge({i: chosen[v] for i, v in enumerate(op.operands)})
        if merged is not None:
            cands.append(merged)
    for i, v in enumerate(op.operands):
        p = rule.propose(i, chosen[v])
        if p is not None:
            cands.append(p)
    cands.append(tuple(replicated(mesh, len(tensor_shape(r))) for r in op.results))

    best, best_key = None, None
    for idx, cand in enumerate(dict.fromkeys(cands)):
        req = rule.require(cand)
        if req is None:
            continue
        cost = sum(reshard_bytes(v, chosen[v], s) for v, s in zip(op.operands, req))
        for r, c, w in zip(op.results, cand, want):
            if w is not None:
                extra = reshard_bytes(r, c, w)
                cost += 0.0 if math.isinf(extra) else extra
            elif c.partial:
                cost += reshard_bytes(r, c, ShardingSpec(mesh, c.dims))
        if math.isinf(cost):
            continue
        key = (cost, sum(_local_elems(r, c) for r, c in zip(op.results, cand)), idx)
        if best_key is None or key < best_key:
            best, best_key = cand, key
    assert best is not None  # replication is always possible
    return best


@dataclass(frozen=True)
class PropagateShardingPass(ModulePass):
    name = "ttir-propagate-sharding"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        propagate_module(op)


def propagate_module(module: ModuleOp) -> bool:
    """Propagate in every function of a global-view module on more than one device; False
    (nothing done) otherwise. Annotations in an SPMD program are a located error."""
    if not is_global_view(module):
        if has_annotations(module):
            bad = next(o for o in module.walk() if isinstance(o, ShardingConstraintOp) or (
                isinstance(o, func.FuncOp) and (o.arg_attrs is not None or o.res_attrs is not None)))
            raise LocatedError("sharding annotations belong to global-view programs; this one already has SPMD ops "
                               "(ttir.mesh_shard, collectives): drop the annotations or the SPMD ops", bad)
        return False
    if module_mesh_shape(module) is None:  # no #tt.device, no tt.meshes: shardings name their mesh or fail
        unbound = first_unbound_split(module)
        if unbound is not None:
            raise no_mesh_error(*unbound)
        stated = stated_mesh(module)
        if stated is not None and math.prod(stated) > 1:
            op, a = next((o, a) for o, a in annotations(module) if a.bound)
            raise LocatedError(f"the shardings are over the mesh {fmt_shape(stated)}, but the module has no "
                               f"#tt.device: run tt-register-device first (the pipelines do; it takes that mesh)", op)
    mesh = mesh_of(module)
    if mesh.size == 1:
        return False
    for f in list(module.walk()):
        if isinstance(f, func.FuncOp) and f.body.blocks:
            propagate_function(f, mesh)
    return True
