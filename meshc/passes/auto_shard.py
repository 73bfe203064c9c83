"""`ttir-auto-shard{mesh-shape=A,B system=NAME}`: choose the shardings of a global-view program.

For every unannotated function argument the pass tries each placement a `ttir.mesh_shard` can
state (each mesh axis splitting one dim or none, evenly), lets `ttir-propagate-sharding`'s
planner choose the rest, and keeps the choice with the smallest predicted time. The search is
coordinate descent: from all-replicated, one argument at a time takes its best placement with
the others fixed, sweeping until nothing improves. Results then take the sharding their values
have (the host assembles any placement), partial sums reduced. The chosen specs are written as
the arguments' and results' `tt.sharding` (so the pipelines partition the program as if the
user had written them), and the function gets `tt.auto_shard = {time_us, link_bytes,
replicated_time_us}`: the estimate of the choice and of all-replicated.

The estimate (`Estimate`) follows the simulator's time model (docs/simulator.md) op by op, with
the machine's rates from meshc.layout.system: every chip receives its pieces of the arguments
over the host link; every op moves its operands and result through each chip's NOC (local
shapes); every reshard delivers the planner's bytes (`plan_reshard(...).delivered_bytes`),
spread over the devices' links. Annotated arguments stay as written.

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
from meshc.dialects.tt import module_device
from meshc.layout.mesh import Mesh, ShardingSpec, spec_from_shard_dims
from meshc.layout.shapes import fmt_shape
from meshc.layout.sharding_rules import canonical, replicated
from meshc.layout.hardware import ARCH_FACTS, DEFAULT_ARCH, SYSTEM_FACTS
from meshc.layout.system import SYSTEMS
from meshc.layout.timemodel import host_s, link_s, noc_s
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
    shape,
)
from meshc.layout.dtypes import get_dtype


def _itemsize(value: SSAValue) -> int:
    return int(get_dtype(dtype_name(value)).itemsize)


def _local_bytes(value: SSAValue, spec: ShardingSpec) -> int:
    return math.prod(n // spec.num_pieces(d) for d, n in enumerate(shape(value))) * _itemsize(value)


@dataclass(frozen=True)
class Estimate:
    time_s: float
    link_bytes: float


def estimate(f: func.FuncOp, mesh: Mesh, ins: list[ShardingSpec], outs: list[ShardingSpec],
             chosen: dict[SSAValue, ShardingSpec]) -> Estimate:
    """The predicted time of `f` partitioned with these shardings (module docstring)."""
    ops = body_ops(f)
    n = mesh.size
    arch = ARCH_FACTS[DEFAULT_ARCH]
    cores = arch.grid[0] * arch.grid[1]
    links = max(1, min((s.links_per_pair for s in SYSTEM_FACTS.values() if math.prod(s.mesh_shape) >= n),
                       default=1))
    args = f.body.blocks.first.args
    time = host_s(arch, sum(_local_bytes(a, s) * n for a, s in zip(args, ins)), min(n, 4))
    moved = 0.0
    for op in ops[:-1]:
        if op.name == "ttir.sharding_constraint":
            pairs = [(op.operands[0], chosen[op.results[0]])]
        else:
            required = op_rule(op).require(tuple(chosen[r] for r in op.results))
            assert required is not None
            pairs = list(zip(op.operands, required))
        for v, spec in pairs:
            b = reshard_bytes(v, chosen[v], spec)
            moved += b
            time += link_s(arch, b / n, links)[1]
        local = sum(_local_bytes(v, s) for v, s in pairs) + sum(_local_bytes(r, chosen[r]) for r in op.results)
        time += noc_s(arch, local, cores) + arch.op_launch_s
    for v, spec in zip(ops[-1].operands, outs):
        b = reshard_bytes(v, chosen[v], spec)
        moved += b
        time += link_s(arch, b / n, links)[1] + host_s(arch, math.prod(shape(v)) * _itemsize(v), min(n, 4))
    return Estimate(time, moved)


def placements(value: SSAValue, mesh: Mesh) -> list[ShardingSpec]:
    """Every even placement `ttir.mesh_shard` states: each mesh axis (of more than one device)
    splits one dim or none, the axes of a dim in ascending order."""
    full = shape(value)
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
    outs = []
    for v in body_ops(f)[-1].operands:
        s = canonical(ShardingSpec(mesh, chosen[v].dims))
        outs.append(s if all(list(d) == sorted(d) for d in s.dims) else replicated(mesh, len(s.dims)))
    return outs


def search(f: func.FuncOp, mesh: Mesh, max_sweeps: int = 4) -> tuple[list[ShardingSpec], list[ShardingSpec], Estimate,
                                                                   Estimate]:
    """(argument specs, result specs, estimate of the choice, estimate of all-replicated)."""
    ins, outs = function_specs(f, mesh)
    fixed = [f.arg_attrs is not None and i < len(f.arg_attrs.data) and "tt.sharding" in f.arg_attrs.data[i].data
             for i in range(len(ins))]
    res_fixed = [f.res_attrs is not None and i < len(f.res_attrs.data) and "tt.sharding" in f.res_attrs.data[i].data
                 for i in range(len(outs))]
    args = list(f.body.blocks.first.args)

    def evaluate(cand_ins: list[ShardingSpec]) -> tuple[Estimate, list[ShardingSpec]]:
        chosen = plan_function(f, mesh, cand_ins, outs, res_fixed)
        cand_outs = [o if fx else fo for o, fx, fo in zip(outs, res_fixed, _results_follow(f, mesh, chosen))]
        return estimate(f, mesh, cand_ins, cand_outs, chosen), cand_outs

    base, base_outs = evaluate(ins)
    best, best_outs = base, base_outs  # results follow their values whether or not an argument moves
    for _ in range(max_sweeps):
        improved = False
        for i, arg in enumerate(args):
            if fixed[i] or not arg.uses:
                continue
            for spec in placements(arg, mesh):
                if spec == ins[i]:
                    continue
                trial = ins[:i] + [spec] + ins[i + 1:]
                est, trial_outs = evaluate(trial)
                if est.time_s < best.time_s * (1 - 1e-9):
                    ins, best, best_outs, improved = trial, est, trial_outs, True
        if not improved:
            break
    return ins, best_outs, best, base


def written_estimate(f: func.FuncOp, mesh: Mesh, ins: list[ShardingSpec], outs: list[ShardingSpec]) -> Estimate:
    """The estimate of `f` with exactly these argument and result specs, planned as the pipelines
    will plan it once they are written (every argument and result annotated): what `tt.auto_shard`
    reports is what the program it leaves does."""
    chosen = plan_function(f, mesh, ins, outs, [True] * len(outs))
    return estimate(f, mesh, ins, outs, chosen)


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
