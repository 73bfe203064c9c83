"""`ttir-auto-shard{mesh-shape=A,B system=NAME}`: choose the shardings of a global-view program.

For every unannotated function argument the pass considers each placement a `ttir.mesh_shard`
can state (each mesh axis splitting one dim or none, evenly), lets `ttir-propagate-sharding`'s
planner choose the rest, and keeps the choice with the smallest predicted time. The search is a
dynamic program along the program order (meshc.passes.auto_shard_search): its state is the
shardings of the values live between two ops, so it is exact (up to its beam of 512 states) and
its work grows with the program's length, not with the number of placements' combinations.
Results then take the sharding their values have (the host assembles any placement), partial
sums reduced. The chosen specs are written as the arguments' and results' `tt.sharding` (so the
pipelines partition the program as if the user had written them), and the function gets
`tt.auto_shard = {time_us, link_bytes, replicated_time_us}`: the estimate of the program the pass
writes and of the program as it was (all-replicated when nothing was annotated); a choice the
estimate does not find faster than that is not written.

The estimate (`estimate`) is the simulator's time model (meshc.layout.timemodel, docs/simulator.md)
applied to the ops the TTNN pipeline lowers the program to, as the simulator charges them
(meshc.passes.auto_shard_cost): arguments' distributes and results' aggregates over the system's
host links, each reshard's collective walk as the CCL alpha-beta on its mesh axis, each op's
compute on its local shapes and its launch. Annotated arguments stay as written.

Without a `#tt.device` the module gets one for `mesh-shape` (on `system`, default: the smallest
named system with enough chips); with one, `mesh-shape` must be its mesh. Errors are located.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import DictionaryAttr, FloatAttr, IntegerAttr, ModuleOp, f64, i64
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass

from meshc.errors import LocatedError
from meshc.dialects.ttir.base import tensor_shape
from meshc.dialects.tt import module_device
from meshc.layout.mesh import Mesh, ShardingSpec, spec_from_shard_dims
from meshc.layout.shapes import fmt_shape
from meshc.layout.sharding_rules import canonical, replicated
from meshc.dialects.tt import system_or_default
from meshc.layout.hardware import ARCH_FACTS
from meshc.layout.system import SYSTEMS, default_system
from meshc.passes.auto_shard_cost import Costing, arg_time, op_time, result_time
from meshc.passes.auto_shard_search import dp_search, follow
from meshc.passes.lowering_utils import module_mesh
from meshc.passes.propagate_sharding import plan_function
from meshc.passes.register_device import RegisterDevicePass
from meshc.passes.sharding_ir import (
    body_ops,
    dtype_name,
    function_specs,
    is_global_view,
    op_rule,
    reshard_bytes,
    set_function_specs,
)


@dataclass(frozen=True)
class Estimate:
    time_s: float
    link_bytes: float


def costing_of(f: func.FuncOp, mesh: Mesh) -> Costing:
    """The machine `f` is timed on: its module's system (`system_or_default`)."""
    module = f.parent_op()
    while module is not None and not isinstance(module, ModuleOp):
        module = module.parent_op()
    system = system_or_default(module) if module is not None else default_system(mesh.shape)
    return Costing.of(ARCH_FACTS[system.chips[0].arch], mesh, system)


def estimate(f: func.FuncOp, mesh: Mesh, ins: list[ShardingSpec], outs: list[ShardingSpec],
             chosen: dict[SSAValue, ShardingSpec], costing: Costing | None = None) -> Estimate:
    """The predicted time of `f` partitioned with these shardings and lowered by the TTNN
    pipeline, as the simulator times it (meshc.passes.auto_shard_cost), and the bytes its
    reshards deliver."""
    c = costing or costing_of(f, mesh)
    ops = body_ops(f)
    time = sum(arg_time(c, a, s) for a, s in zip(f.body.blocks.first.args, ins))
    moved = 0.0
    for op in ops[:-1]:
        t, b = op_time(c, op, chosen)
        time, moved = time + t, moved + b
    for v, spec in zip(ops[-1].operands, outs):
        t, b = result_time(c, v, chosen[v], spec)
        time, moved = time + t, moved + b
    return Estimate(time, moved)


def placements(value: SSAValue, mesh: Mesh) -> list[ShardingSpec]:
    """Every even placement `ttir.mesh_shard` states: each mesh axis (of more than one device)
    splits one dim or none, the axes of a dim in ascending order."""
    full = tensor_shape(value)
    axes = [a for a in range(mesh.rank) if mesh.shape[a] > 1]
    out = []
    for choice in itertools.product(range(-1, len(full)), repeat=len(axes)):
        shard_dims = [-1] * mesh.rank
        for a, d in zip(axes, choice):
            shard_dims[a] = d
        spec = spec_from_shard_dims(shard_dims, len(full), mesh)
        if spec.is_even(full):
            out.append(spec)
    return out


def _results_follow(f: func.FuncOp, mesh: Mesh, chosen) -> list[ShardingSpec]:
    return [follow(mesh, chosen[v]) for v in body_ops(f)[-1].operands]


def search(f: func.FuncOp, mesh: Mesh) -> tuple[list[ShardingSpec], list[ShardingSpec], Estimate, Estimate]:
    """(argument specs, result specs, estimate of the choice, estimate of all-replicated): the
    dynamic program of meshc.passes.auto_shard_search over every free argument's placements, kept
    only when the program it writes is predicted faster than the one written as it is."""
    ins, outs = function_specs(f, mesh)
    fixed = [f.arg_attrs is not None and i < len(f.arg_attrs.data) and "tt.sharding" in f.arg_attrs.data[i].data
             for i in range(len(ins))]
    res_fixed = [f.res_attrs is not None and i < len(f.res_attrs.data) and "tt.sharding" in f.res_attrs.data[i].data
                 for i in range(len(outs))]
    args = list(f.body.blocks.first.args)
    c = costing_of(f, mesh)

    def evaluate(cand_ins: list[ShardingSpec]) -> tuple[Estimate, list[ShardingSpec]]:
        chosen = plan_function(f, mesh, cand_ins, outs, res_fixed)
        cand_outs = [o if fx else fo for o, fx, fo in zip(outs, res_fixed, _results_follow(f, mesh, chosen))]
        return written_estimate(f, mesh, cand_ins, cand_outs, c), cand_outs

    base, base_outs = evaluate(ins)  # results follow their values whether or not an argument moves
    choices = [[s] if fx or not a.uses else placements(a, mesh) for a, s, fx in zip(args, ins, fixed)]
    found, _ = dp_search(f, mesh, c, ins, outs, choices, res_fixed)
    est, found_outs = evaluate(found)
    if est.time_s < base.time_s:
        return found, found_outs, est, base
    return ins, base_outs, base, base


def written_estimate(f: func.FuncOp, mesh: Mesh, ins: list[ShardingSpec], outs: list[ShardingSpec],
                     costing: Costing | None = None) -> Estimate:
    """The estimate of `f` with exactly these argument and result specs, planned as the pipelines
    will plan it once they are written (every argument and result annotated): what `tt.auto_shard`
    reports is what the program it leaves does."""
    chosen = plan_function(f, mesh, ins, outs, [True] * len(outs))
    return estimate(f, mesh, ins, outs, chosen, costing)


@dataclass(frozen=True)
class AutoShardPass(ModulePass):
    name = "ttir-auto-shard"

    mesh_shape: tuple[int, ...] | None = None
    system: str | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if module_device(op) is None:
            if self.mesh_shape is None:
                raise LocatedError("ttir-auto-shard needs a mesh: give mesh-shape=A,B or a module with a #tt.device", op)
            n = math.prod(self.mesh_shape)
            name = self.system or next((s for s, m in SYSTEMS.items() if math.prod(m) >= n), "galaxy")
            RegisterDevicePass(name, tuple(self.mesh_shape)).apply(ctx, op)
        elif self.mesh_shape is not None and tuple(self.mesh_shape) != module_mesh(op):
            raise LocatedError(f"mesh-shape {fmt_shape(self.mesh_shape)} differs from the module's device "
                               f"mesh {fmt_shape(module_mesh(op))}", op)
        if not is_global_view(op):
            raise LocatedError("ttir-auto-shard takes a global-view program; this one already has SPMD ops "
                               "(ttir.mesh_shard, collectives)", op)
        mesh = Mesh(module_mesh(op))
        for f in list(op.walk()):
            if isinstance(f, func.FuncOp) and f.body.blocks:
                ins, outs, _, base = search(f, mesh)
                set_function_specs(f, ins, outs)
                est = written_estimate(f, mesh, ins, outs)
                f.attributes["tt.auto_shard"] = DictionaryAttr({
                    "time_us": FloatAttr(round(est.time_s * 1e6, 3), f64),
                    "link_bytes": IntegerAttr(int(est.link_bytes), i64),
                    "replicated_time_us": FloatAttr(round(base.time_s * 1e6, 3), f64),
                })
