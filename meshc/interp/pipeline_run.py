"""Running a pipelined module (docs/pipeline.md): the host function calls each stage on its own
virtual device and hands values from one device to the next.

Every stage runs in its own interpreter over its own simulated `Machine` (its device's chips:
disjoint from the others', so each has its own memories), all machines sharing one traffic count
and one list of ops (the time model). `run_host(f, args, ...)` walks the host function: a
`func.call` of stage i runs the stage in interpreter i (its seconds are the ops it adds); a
`ttnn.pipeline_transfer` / `ttmetal.enqueue_transfer` sends the value (`transfer`); a device value
of the host function is freed on its machine after its last use. The golden run walks the same
host function with one numpy interpreter a stage (each on its own mesh) and no transfers.

`transfer` executes the fewest-bytes plan of meshc.layout.stage_transfer: each part goes from its
source chip to its target chip over the routed ethernet hops (`Machine.send`, counted per link),
is read out of the source chip's memory (NOC bytes) and written into the target buffer (NOC and
DRAM bytes of its placement); every target device receives exactly its piece.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects import func
from xdsl.interpreter import Interpreter
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, Operation, Region

from meshc.dialects import ttmetal, ttnn
from meshc.dialects.shape_rules import ints_of
from meshc.dialects.tt import STAGE_ATTR, batch_args, called_stage, microbatches_of, module_devices, stage_functions, \
    stage_index
from meshc.errors import LocatedError
from meshc.interp.common import element_dtype_name
from meshc.interp.func import FuncFunctions
from meshc.interp.runtime import DEFAULT_WHERE, SimRuntime, SimTensor, placement_of
from meshc.interp.ttir import golden_functions
from meshc.interp.ttmetal import metal_functions
from meshc.interp.ttnn import BufferLifetimes, sim_functions
from meshc.layout.dtypes import get_dtype
from meshc.layout.errors import LayoutError
from meshc.layout.pipeline_schedule import Call, Schedule, gpipe
from meshc.layout.stage_transfer import StagePlacement, plan_stage_transfer
from meshc.layout.system import SystemDesc
from meshc.sim.machine import Machine
from meshc.sim.memory import MeshBuffer

TRANSFER_OPS = (ttnn.PipelineTransferOp, ttmetal.EnqueueTransferOp)


@dataclass
class StageEvent:
    """One stage call or one transfer of a run: which, for which microbatch, and its seconds."""

    kind: str
    """"stage", "transfer" or "load" (a weight written to a stage's devices once, before its calls)."""
    stage: int
    """The stage called, or a transfer's target stage."""
    microbatch: int
    seconds: float
    source: int = -1
    """A transfer's source stage."""
    link_bytes: int = 0


@dataclass
class PipelineTrace:
    """What a pipelined run did, in program order."""

    events: list[StageEvent] = field(default_factory=list)
    microbatch: int = 0
    """The microbatch running now."""


def run_host(f: func.FuncOp, args: tuple, call_stage: Callable[[int, func.FuncOp, tuple], tuple],
             transfer: Callable[[Operation, object], object], release: Callable[[object], None],
             on_stage: Callable[[int, Operation, tuple], tuple] | None = None,
             once: dict | None = None) -> tuple:
    """Walk the host function `f` of a pipelined module (see the module docstring). An op marked
    `tt.stage = i` (a weight written to stage i's devices) runs through `on_stage`; one that reads
    only arguments that are not batched (`tt.batch`) is the same for every microbatch: with a
    `once` dict shared by the microbatches it runs for the first and its values are kept (and
    not released: the caller releases `once`'s values after the last microbatch)."""
    block = f.body.blocks.first
    env = dict(zip(block.args, args))
    batched = set(batch_args(f))
    invariant = {a for a in block.args if a.index not in batched}
    ops = list(block.ops)
    last_use = {}
    for op in ops:
        for v in op.operands:
            last_use[v] = op
    returned = set(ops[-1].operands)
    kept = set()
    for op in ops:
        if isinstance(op, func.ReturnOp):
            return tuple(env[v] for v in op.operands)
        vals = tuple(env[v] for v in op.operands)
        staged = STAGE_ATTR in op.attributes and not isinstance(op, func.CallOp)
        if staged and once is not None and all(v in invariant for v in op.operands):
            invariant.update(op.results)
            kept.update(op.results)
            if op not in once:
                once[op] = tuple(on_stage(stage_index(op), op, vals))
            outs = once[op]
        elif staged:
            outs = tuple(on_stage(stage_index(op), op, vals))
        elif isinstance(op, func.CallOp):
            stage, i = called_stage(op)
            outs = call_stage(i, stage, vals)
        elif isinstance(op, TRANSFER_OPS):
            outs = (transfer(op, vals[0]),)
        else:
            raise LocatedError(f"the host function of a pipelined module runs '{op.name}', which is neither a "
                               "stage call, a transfer nor an op of a stage", op)
        env.update(zip(op.results, outs))
        for v in set(op.operands):
            if last_use.get(v) is op and v not in returned and v not in kept:
                release(env[v])
        for r in op.results:
            if r not in last_use and r not in returned and r not in kept:
                release(env[r])
    raise LocatedError("the host function does not end with func.return", f)


class StageMachines:
    """One simulated machine a virtual device, sharing one traffic count and one op list."""

    def __init__(self, system: SystemDesc, devices, abstract: bool):
        self.system = system
        self.machines = [Machine(system, tuple(d.mesh_shape), tuple(d.chip_ids), abstract=abstract) for d in devices]
        first = self.machines[0]
        for m in self.machines[1:]:
            m.traffic = first.traffic
            m.ops = first.ops
        self.stage_of_chip = {c: i for i, m in enumerate(self.machines) for c in m.devices}
        self.runtimes: list[SimRuntime | None] = [None] * len(self.machines)

    @property
    def traffic(self):
        return self.machines[0].traffic

    @property
    def ops(self):
        return self.machines[0].ops

    def machine_of(self, buf: MeshBuffer) -> Machine:
        return self.machines[self.stage_of_chip[buf.devices[0]]]

    def release(self, value) -> None:
        buf = value.buffer if isinstance(value, SimTensor) else value
        if isinstance(buf, MeshBuffer):
            self.machine_of(buf).free(buf)

    def memory_use(self) -> dict:
        out: dict = {}
        for m in self.machines:
            out.update(m.memory_use())
        return out

    def transfer(self, op: Operation, value) -> object:
        """Run a transfer op: the value's pieces sent from the source stage's chips to a new
        tensor (TTNN) or buffer (TTMetal) on the target stage's chips."""
        try:
            return self._transfer(op, value)
        except LayoutError as e:
            raise LocatedError(str(e), op) from None

    def _transfer(self, op: Operation, value) -> object:
        j, i = int(op.source_stage.value.data), int(op.target_stage.value.data)
        ms, md = self.machines[j], self.machines[i]
        src = value.buffer if isinstance(value, SimTensor) else value
        metal = isinstance(op, ttmetal.EnqueueTransferOp)
        rt = op.results[0].type
        dtype = src.layout.dtype.name
        shape = tuple(ints_of(op.shape))
        d = get_dtype(dtype)
        itemsize = d.bytes_for(32, 32) / 1024 if d.is_block_float else d.bits / 8
        plan = plan_stage_transfer(
            shape, itemsize,
            StagePlacement(ms.mesh_shape, tuple(ms.devices), tuple(ints_of(op.source_shard_dims))),
            StagePlacement(md.mesh_shape, tuple(md.devices), tuple(ints_of(op.target_shard_dims))), self.system)
        with md.op(op.name):
            if metal:
                tile = ints_of(op.tile) if op.tile is not None else None
                out = md.allocate(rt.get_shape(), dtype, op.memory_config.model(), name=f"%{op.results[0].name_hint or 'transfer'}",
                                  tile=tile)
                dst = out
            else:
                runtime = self.runtimes[i] or SimRuntime(md)
                out = runtime.new_tensor(op, tuple(rt.get_shape()), element_dtype_name(rt),
                                         placement_of(op, DEFAULT_WHERE))
                dst = out.buffer
            noc = md.traffic.counter("noc")
            for s_chip, d_chip, nbytes in plan.chip_pairs():
                ms.send(s_chip, d_chip, nbytes)
                noc[s_chip] += nbytes  # read out of the source chip's memory
            for k in range(len(dst.devices)):
                md.count_write(dst, k)  # every target device writes its whole piece
            if not md.abstract:
                self._move_data(plan, ms, md, src, dst)
        return out

    @staticmethod
    def _move_data(plan, ms: Machine, md: Machine, src: MeshBuffer, dst: MeshBuffer) -> None:
        """Each target device's piece, assembled from the parts the plan sends it."""
        held = {s: ms.peek(src, s) for s in sorted({t.src for t in plan.transfers})}
        dtype = next(iter(held.values())).dtype if held else np.float32
        parts: dict[int, list] = {}
        for t in plan.transfers:
            parts.setdefault(t.dst, []).append(t)
        for k in range(len(dst.devices)):
            local = np.zeros(dst.layout.shape, dtype=dtype)
            for t in parts.get(k, []):
                s0, d0 = plan.source_bounds[t.src, :, 0], plan.target_bounds[k, :, 0]
                s_idx = tuple(slice(a - o, b - o) for (a, b), o in zip(t.box, s0))
                d_idx = tuple(slice(a - o, b - o) for (a, b), o in zip(t.box, d0))
                local[d_idx] = held[t.src][s_idx]
            md.poke(dst, k, local)


def _stage_interpreter(module, functions, listeners) -> Interpreter:
    interp = Interpreter(module, listeners=tuple(listeners))
    interp.register_implementations(FuncFunctions())
    interp.register_implementations(functions)
    return interp


def simulate(module, f: func.FuncOp, batches: list[list], system: SystemDesc, abstract: bool, metal: bool,
             call: Callable[[Interpreter, func.FuncOp, tuple], tuple], listeners=()) -> tuple:
    """Run the host function `f` of a lowered pipelined module on one machine a stage, once a
    microbatch (`batches`: its arguments for each): (its values for each microbatch, the
    StageMachines, the PipelineTrace). `call(interp, g, args)` runs a stage."""
    devices = module_devices(module)
    stages = StageMachines(system, devices, abstract)
    interps = []
    for i, m in enumerate(stages.machines):
        functions, rt = (metal_functions if metal else sim_functions)(m)
        functions.stages = stages  # a transfer op needs both stages' machines
        stages.runtimes[i] = rt
        interps.append((functions, rt))
    trace = PipelineTrace()
    stage_of = {stage_index(g): g for g in stage_functions(module).values()}
    built: dict[int, Interpreter] = {}
    for i, (functions, rt) in enumerate(interps):
        own = [] if metal or i not in stage_of else [BufferLifetimes.of_program(rt, module, stage_of[i])]
        built[i] = _stage_interpreter(module, functions, [*listeners, *own])

    def call_stage(i: int, g: func.FuncOp, vals: tuple) -> tuple:
        before = len(stages.ops)
        out = call(built[i], g, vals)
        trace.events.append(StageEvent("stage", i, trace.microbatch, sum(o.seconds for o in stages.ops[before:])))
        return out

    def on_stage(i: int, op: Operation, vals: tuple) -> tuple:
        """An op of the host function run on stage i's devices (a weight written once): its time is
        the stage's, before its first call."""
        before = len(stages.ops)
        out = built[i].run_op(op, vals)
        trace.events.append(StageEvent("load", i, trace.microbatch, sum(o.seconds for o in stages.ops[before:])))
        return out

    def transfer(op: Operation, value) -> object:
        before = len(stages.ops)
        (out,) = built[int(op.target_stage.value.data)].run_op(op, (value,))
        rec = stages.ops[before:]
        trace.events.append(StageEvent("transfer", int(op.target_stage.value.data), trace.microbatch,
                                       sum(o.seconds for o in rec), int(op.source_stage.value.data),
                                       sum(o.traffic.link_bytes for o in rec)))
        return out

    values = []
    once: dict = {}  # the ops every microbatch shares (weights written once), run for the first
    for m, args in enumerate(batches):
        trace.microbatch = m
        values.append(run_host(f, tuple(args), call_stage, transfer, stages.release, on_stage, once))
    for outs in once.values():
        for v in outs:
            stages.release(v)
    return values, stages, trace


def golden(module, f: func.FuncOp, batches: list[list], call: Callable[[Interpreter, func.FuncOp, tuple], tuple],
           listeners=()) -> list[tuple]:
    """The numpy reference run of a pipelined ttir module, each stage on its own mesh, once a
    microbatch (`batches`): its values for each."""
    devices = module_devices(module)
    interps = [_stage_interpreter(module, golden_functions(tuple(d.mesh_shape)), listeners) for d in devices]

    def call_stage(i: int, g: func.FuncOp, vals: tuple) -> tuple:
        return call(interps[i], g, vals)

    def no_transfer(op: Operation, value) -> object:
        raise LocatedError("a transfer between stages belongs to a lowered program; the golden run reads ttir", op)

    return [run_host(f, tuple(args), call_stage, no_transfer, lambda v: None) for args in batches]


# ----------------------------------------------------------------------------- microbatches


def batch_signature(f: func.FuncOp) -> func.FuncOp:
    """`f` as the run sees it: a batched argument (`tt.batch`) holds all the microbatches, its dim 0
    `tt.microbatches` times the one `f` takes (a detached copy of the signature; `f` itself when
    there is one microbatch)."""
    m = microbatches_of(f)
    if m == 1:
        return f
    batched = set(batch_args(f))
    types = []
    for i, a in enumerate(f.body.blocks.first.args):
        t = a.type
        if i in batched:
            shape = list(t.get_shape())
            t = TensorType(t.element_type, [shape[0] * m, *shape[1:]], t.encoding)
        types.append(t)
    block = Block(arg_types=types)
    for a, b in zip(f.body.blocks.first.args, block.args):
        b.name_hint = a.name_hint
    copy = func.FuncOp(f.sym_name.data, func.FunctionType.from_lists(types, list(f.function_type.outputs.data)),
                       Region(block))
    copy.location = f.location  # an error about the run's inputs points at the function as written
    return copy


def split_batch(f: func.FuncOp, args: list) -> list[list]:
    """The arguments of each microbatch: batched ones cut along dim 0 into equal parts."""
    m = microbatches_of(f)
    batched = set(batch_args(f))
    return [[np.array_split(np.asarray(a), m, axis=0)[k] if i in batched else a for i, a in enumerate(args)]
            for k in range(m)]


def join_batch(values: list[tuple], abstract: bool) -> list:
    """Each result of the microbatches joined along dim 0 (shape-only for an abstract run)."""
    if len(values) == 1:
        return list(values[0])
    out = []
    for parts in zip(*values):
        if any(isinstance(p, (list, tuple)) for p in parts):
            raise LayoutError("a result left distributed over the devices cannot be joined over microbatches; "
                              "read it back in the last stage")
        arrs = [np.asarray(p) for p in parts]
        if abstract:
            shape = (sum(a.shape[0] for a in arrs), *arrs[0].shape[1:])
            out.append(np.broadcast_to(np.zeros((), arrs[0].dtype), shape))
        else:
            out.append(np.concatenate(arrs, axis=0))
    return out


def schedule_of(trace: PipelineTrace, stages: int) -> Schedule:
    """The GPipe timeline of a run's stage calls and transfers (meshc.layout.pipeline_schedule)."""
    return gpipe([Call(e.stage, e.microbatch, e.seconds, e.source if e.kind == "transfer" else -1, e.kind)
                  for e in trace.events], stages)


def pipeline_report(trace: PipelineTrace, f: func.FuncOp, devices, samples: int) -> dict:
    """The pipelined run as plain data: per stage its chips and busy seconds, the makespan, the
    bubble fraction, the throughput and the timeline (for --report, --report-json and --trace)."""
    sched = schedule_of(trace, len(devices))
    return {
        "schedule": "gpipe",
        "schedule_note": "GPipe forward schedule; 1F1B needs a backward part, which the program has not: not built",
        "stages": [{"stage": i, "chips": list(d.chip_ids), "mesh_shape": list(d.mesh_shape),
                    "busy_s": sched.busy(i)} for i, d in enumerate(devices)],
        "microbatches": sched.microbatches,
        "samples": samples,
        "makespan_s": sched.makespan,
        "serial_s": sched.serial,
        "bubble_fraction": sched.bubble,
        "throughput_samples_per_s": sched.throughput(samples),
        "timeline": [{"kind": s.call.kind or ("transfer" if s.call.is_transfer else "stage"), "stage": s.call.stage,
                      "source": s.call.source, "microbatch": s.call.microbatch, "start_s": s.start,
                      "seconds": s.call.seconds} for s in sched.slots],
    }
