"""`ttnn-optimize-memory`: choose where every device tensor of a ttnn program lives.

Per tensor (the buffers `ttnn-check-l1` sees: results of distribute_tensor, compute ops,
collectives, layout changes; each live from its op to its last use), one of L1 height-, width- or
block-sharded, L1 interleaved, DRAM interleaved or DRAM sharded, chosen by `meshc.layout.memory_plan` to minimise
the modelled time (meshc.layout.timemodel, as the simulator times each op) within every core's L1
over the tensors' live ranges, moving what does not fit (docs/passes.md); a collective is timed
as ttmetal-optimize-memory times one (`ccl_time`: the simulator's `collective_op_time` or
`traffic_op_time`), its ethernet time included. The choice is written
as the op's result type (`#ttnn.ttnn_layout` with the memory config) and its `memory_config`
attribute when it has one. `meshc-run --report` explains where each tensor of a ttnn program sits
and why (`program_of` here, `meshc.layout.memory_plan.explain`).

Then (unless `reshard=false`) the copies `meshc.layout.memory_reshard` finds worth making: each a
`ttnn.to_memory_config` into an L1 place just before the one op that reads it instead of the
tensor (`_insert_reshards`); the report lists them with the time each saves (`reshard_lines`).

Tensors keep the placement they have when something reads them as that very buffer: a
to_memory_config / to_layout that changes nothing (an alias), a grid reinterpreted as transposed
(`ttir-reinterpret-grid`: the transpose's result and its operand), or the second result of an op
of several. A ttmetal program (buffers it allocates itself) is left alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from meshc.dialects import ttnn
from meshc.dialects.tt.module import enclosing_module
from meshc.errors import LocatedError, location_of
from meshc.layout.errors import LayoutError
from meshc.dialects.ttnn.memory import MemoryConfigAttr, TTNNLayoutAttr
from meshc.layout.memory_plan import PlanError, Unplaceable, PlanOp, PlanTensor, plan_memory
from meshc.layout.memory_reshard import Reshard, plan_reshards
from meshc.passes.auto_shard_cost import kernel_flags
from meshc.passes.lowering_utils import fix_function_types
from meshc.passes.ttmetal_optimize_memory import ccl_time, chip_cores
from meshc.passes.ttnn_check_l1 import (
    DeviceTensor,
    creates_buffers,
    device_tensors,
    functions,
    module_l1,
    place_tensor,
    tensor_dtype,
    tensor_name,
    tensor_names,
    type_facts,
)

_KIND = {cls: kind for kind, cls in ttnn.COMPUTE_OPS.items()}
_COLLECTIVE = {**{cls: kind for kind, cls in ttnn.COLLECTIVE_OPS.items()}, ttnn.PointToPointOp: "point_to_point"}


def _fixed(t: DeviceTensor, reinterpreted: set[Operation]) -> str | None:
    cfg = t.where[0]
    if t.aliases:
        return "kept: a later to_memory_config / to_layout reads it as this same buffer"
    if cfg.layout != "interleaved" and cfg.orientation == "col_major":
        return "kept: on a core grid reinterpreted as transposed (ttir-reinterpret-grid)"
    if reinterpreted and any(u.operation in reinterpreted for u in t.value.uses):
        return "kept: a transpose on the reinterpreted grid reads it where it is"
    if t.value.index > 0:
        return "kept: a second result of its op"
    return None


def program_of(tensors: list[DeviceTensor], block) -> tuple[list[PlanTensor], list[PlanOp]]:
    """The tensors and ops of one ttnn function body for the memory plan (`device_tensors`' buffers,
    each value and its aliases one tensor; only ops that touch a device tensor)."""
    plan_tensors, ops, _ = program_ops(tensors, block)
    return plan_tensors, ops


def program_ops(tensors: list[DeviceTensor], block, touching: list | None = None) \
        -> tuple[list[PlanTensor], list[PlanOp], list[Operation]]:
    """`program_of`, with the operation of each plan op (its index in the block is its step, as the
    tensors' live ranges count). `touching`: the ops `device_tensors` listed deriving `tensors`
    (else they are found again)."""
    reinterpreted = {t.op for t in tensors
                     if t.where[0].layout != "interleaved" and t.where[0].orientation == "col_major"}
    plan_tensors = []
    facts = type_facts()
    for t, name in zip(tensors, tensor_names(tensors)):
        shape, dtype = facts(t)[:2]
        plan_tensors.append(PlanTensor(name, shape, dtype, t.where[1], t.start, t.end, t.where[0],
                                       _fixed(t, reinterpreted)))
    ops, where = [], []
    timers: dict = {}
    for _, o, ins, outs in _touching(tensors, block) if touching is None else touching:
        kind = _KIND.get(type(o))
        host = {k: tuple(v.type.get_shape()) for k, (i, v) in enumerate(zip(ins, o.operands))
                if i < 0 and isinstance(v.type, TensorType)} if -1 in ins else {}
        timer = _collective_time(o, ins, plan_tensors, block, timers) if type(o) in _COLLECTIVE else None
        # a host operand the simulator's as_device uploads: in the operand's data type, a collective's in its result's
        uploads = {k: tensor_dtype(o.operands[k]) for k in host} if kind else \
            {k: tensor_dtype(o.results[0]) for k in host} if type(o) in _COLLECTIVE else {}
        ops.append(PlanOp(kind, ins, outs, kernel_flags(o) if kind and o.attributes else {}, host, time=timer,
                          host_dtypes=uploads))
        where.append(o)
    return plan_tensors, ops, where


def _collective_time(op: Operation, ins: tuple, plan_tensors: list[PlanTensor], block, timers: dict):
    """The simulator's time of a ttnn collective given its tensors' options, as
    ttmetal-optimize-memory times a `ttmetal.enqueue_ccl` (`ccl_time`: the CCL fit's
    `collective_op_time` for all_gather, reduce_scatter, all_reduce and all_to_all, else
    `traffic_op_time` of its sends); None (the plan's own model) when its input is a host value.
    Collectives of one kind, attributes and input shape share one timer in `timers` (made once;
    so the plan's memo is shared too)."""
    if not ins or ins[0] < 0:
        return None
    t = plan_tensors[ins[0]]
    key = (type(op), t.shape, t.dtype, *op.attributes.items(), *op.properties.items())
    if key not in timers:
        if "module" not in timers:
            module = enclosing_module(block.parent_op())
            timers["module"] = (module_l1(module)[0], chip_cores(module))
        arch, cores = timers["module"]
        hit = ccl_time(op, t, arch, cores, _COLLECTIVE[type(op)])
        timers[key] = timers.setdefault(hit.key, hit) if hit is not None else None
    return timers[key]


def _touching(tensors: list[DeviceTensor], block) -> list[tuple]:
    """(step, op, operand tensors, result tensors) of each op of the block reading or making one
    of `tensors` (-1: another value), as `device_tensors` lists them."""
    index = {v: i for i, t in enumerate(tensors) for v in (t.value, *t.aliases)}
    out = []
    for step, o in enumerate(block.ops):
        ins = tuple([index.get(v, -1) for v in o.operands])
        outs = tuple([index.get(v, -1) for v in o.results])
        if max(ins + outs, default=-1) >= 0:
            out.append((step, o, ins, outs))
    return out


def _insert_reshards(reshards: list[Reshard], tensors: list[DeviceTensor], where: list[Operation],
                     types: dict) -> None:
    """Each copy as a `ttnn.to_memory_config` into its option just before its first consumer (at
    that op's location), which reads it instead of the tensor, as do its later consumers; the
    consumers' results keep their places (a memory_config pins them when their type does not say
    where they are)."""
    index = {v: i for i, t in enumerate(tensors) for v in (t.value, *t.aliases)}
    for r in reshards:
        consumers = [where[j] for j in r.consumers]
        for consumer in consumers:
            if "memory_config" not in consumer.attributes:
                for res in consumer.results:
                    if res in index and not isinstance(res.type.encoding, TTNNLayoutAttr):
                        consumer.attributes["memory_config"] = MemoryConfigAttr.from_model(tensors[index[res]].where[0])
        first = consumers[0]
        read = next(v for v in first.operands if index.get(v) == r.tensor)
        enc = read.type.encoding
        key = (read.type, r.option.config)
        ty = types.get(key) if isinstance(enc, TTNNLayoutAttr) else read.type  # else the memory_config says
        if ty is None:
            ty = types[key] = TensorType(read.type.element_type, read.type.get_shape(),
                                         TTNNLayoutAttr.from_model(enc.tile_shape, enc.data_type.data, r.option.config))
        attr = types.get(r.option.config)
        if attr is None:
            attr = types[r.option.config] = MemoryConfigAttr.from_model(r.option.config)
        copy = ttnn.ToMemoryConfigOp.create(operands=[read], result_types=[ty], attributes={"memory_config": attr})
        copy.location = first.location
        copy.results[0].name_hint = f"{tensors[r.tensor].value.name_hint or 'v'}_{r.option.kind}"
        first.parent_block().insert_op_before(copy, first)
        for consumer in consumers:
            consumer.operands = [copy.results[0] if index.get(v) == r.tensor else v for v in consumer.operands]


@dataclass(frozen=True)
class TTNNOptimizeMemoryPass(ModulePass):
    name = "ttnn-optimize-memory"
    reshard: bool = True
    """Copy a tensor into the place one consumer reads it fastest from where that pays
    (`meshc.layout.memory_reshard`)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        arch, capacity = module_l1(op)
        changed = False
        for f in functions(op):
            block = f.body.blocks[0]
            if creates_buffers(block):
                continue
            touching: list = []
            tensors = device_tensors(block, touching)
            if not tensors:
                continue
            plan_tensors, ops, where = program_ops(tensors, block, touching)
            try:
                plan = plan_memory(plan_tensors, ops, arch, capacity, explained=False)
            except Unplaceable:
                continue  # a tensor fits nowhere: ttnn-check-l1 names it, located, with what the chip has
            except PlanError as e:
                at = e.point
                here = [i for i in at.live if tensors[i].start == at.step] or at.live
                raise LocatedError(f"ttnn-optimize-memory: {tensor_name(tensors[here[-1]])} does not fit in L1: "
                                   f"{e}; put one of the tensors live there in DRAM "
                                   "(#ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>)",
                                   tensors[here[-1]].op) from None
            except LayoutError as e:
                raise LocatedError(f"ttnn-optimize-memory: {e}", f) from None
            types: dict = {}
            for t, pt, o in zip(tensors, plan_tensors, plan.choice):
                if o.config is not pt.current and o.config != pt.current:
                    place_tensor(t, o.config, types)
                    changed = True
            if self.reshard:
                try:
                    reshards = plan_reshards(plan_tensors, ops, plan, arch, capacity, [t[0] for t in touching])
                except LayoutError as e:
                    raise LocatedError(f"ttnn-optimize-memory: {e}", f) from None
                _insert_reshards(reshards.reshards, tensors, where, types)
        if changed:
            fix_function_types(op)


def reshard_lines(module: ModuleOp, entry: func.FuncOp) -> list[str]:
    """`meshc-run --report`'s lines on the copies of the entry function (each `ttnn.to_memory_config`
    moving a device tensor to another place, as ttnn-optimize-memory inserts them): which tensor,
    from where to where, before which op, and the modelled time it saves there (the ops reading
    the copy read the tensor where it is instead, less the copy's own time); [] without copies."""
    block = entry.body.blocks.first if entry.body.blocks else None
    if block is None or creates_buffers(block):
        return []
    tensors = device_tensors(block)
    plan_tensors, ops, where = program_ops(tensors, block)
    copies = [j for j, (o, op) in enumerate(zip(ops, where)) if isinstance(op, ttnn.ToMemoryConfigOp)
              and len(o.operands) == 1 and len(o.results) == 1 and -1 < o.operands[0] != o.results[0] > -1]
    if not copies:
        return []
    arch, _ = module_l1(module)
    for t in plan_tensors:
        t.fixed = "as lowered"  # time the program as it stands
    try:
        plan = plan_memory(plan_tensors, ops, arch, capacity=2 ** 62, explained=False)
    except LayoutError:  # a tensor placed where it cannot be: the run itself says so
        return []
    choice, model = plan.choice, plan.model
    out = ["Reshards (a to_memory_config copying a tensor into the place its readers read it fastest from; "
           "modelled time saved = readers reading the tensor where it is - the copy - readers reading the copy):"]
    for jc in copies:
        i, c = ops[jc].operands[0], ops[jc].results[0]
        readers = [j for j, o in enumerate(ops) if c in o.operands]
        view = list(choice)
        view[c] = choice[i]
        before = sum(model.op_time(j, view) for j in readers)
        after = sum(model.op_time(j, choice) for j in readers)
        copy_s = plan.op_seconds[jc]
        names = ", ".join(_op_name(where[j]) for j in readers) or "no op"
        out.append(f"  {plan_tensors[i].name}: {choice[i].kind} -> {choice[c].kind} before {names}: saves "
                   f"{(before - copy_s - after) * 1e6:,.3f} us (copy {copy_s * 1e6:,.3f} us, "
                   f"{before * 1e6:,.3f} -> {after * 1e6:,.3f} us)")
    return out


def _op_name(op: Operation) -> str:
    res = next((r for r in op.results if r.name_hint), None)
    where = location_of(op)
    return f"'{op.name}'" + (f" %{res.name_hint}" if res is not None else "") + \
        (f" (line {where[1]})" if where is not None else "")
