"""`run(module, inputs, **kw) -> RunResult`: run a module on the simulator; `run_golden` on numpy.

- ttnn modules run on the simulator (meshc/interp/ttnn.py), ttmetal modules too
  (meshc/interp/ttmetal.py); a ttir module is lowered first by the caller (meshc.run and
  meshc-run lower it: lowering is the compiler's, not the interpreter's);
- `run_golden` runs a ttir or ttnn module on numpy (meshc/interp/ttir.py).
Inputs are matched to the entry function's arguments by name (`arg0`, `arg1`, ... or the
`--input NAME=` names) or by position; with a `seed`, missing inputs are seeded random.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

import ml_dtypes
import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.interpreter import Interpreter

from meshc.dialects.ttir.base import tensor_shape
from meshc.errors import LocatedError
from meshc.dialects.tt import DEVICES_ATTR, batch_args, module_device, module_devices, module_mesh_shape, \
    pipeline_system, system_or_default
from meshc.dialects.tt.enums import presharded
from meshc.interp import pipeline_run
from meshc.interp.common import Distributed, element_dtype_name, find_entry, random_input
from meshc.interp.func import FuncFunctions
from meshc.interp.result_export import report, summary
from meshc.interp.runtime import SimTensor
from meshc.interp.shards import Shard, output_shards
from meshc.interp.storage import round_stored
from meshc.interp.ttir import golden_functions
from meshc.interp.ttmetal import metal_functions
from meshc.interp.ttnn import BufferLifetimes, sim_functions
from meshc.layout.dtypes import get_dtype
from meshc.layout.errors import LayoutError
from meshc.layout.limits import host_tensor_limit
from meshc.layout.shapes import ceil_div, fmt_shape
from meshc.layout.system import SystemDesc, system as named_system
from meshc.sim.encoding import quantize
from meshc.sim.machine import Machine
from meshc.sim.memory import MeshBuffer
from meshc.sim.traffic import Traffic
from meshc.viz import show
from meshc.viz.chip_picture import render_chip_png
from meshc.viz.chip_text import render_chip_text
from meshc.viz.values import describe_value


class RunError(ValueError):
    """Bad input to a run (missing input, wrong shape, out of memory...); `op` is where, if known."""

    def __init__(self, message: str, op=None):
        super().__init__(message)
        self.message = message
        self.op = op


@dataclass
class RunResult:
    outputs: list = field(default_factory=list)
    """One entry a result of the entry function: an np.ndarray, or a list of arrays (one a
    device) for a result that stays distributed."""
    names: list[str] = field(default_factory=list)
    inputs: dict[str, np.ndarray] = field(default_factory=dict)
    traffic: Traffic = field(default_factory=Traffic)
    memory: dict = field(default_factory=dict)
    """Per chip: peak_l1_core (bytes, busiest core), l1_in_use, peak_dram_bank,
    peak_l1_fragmentation, and `cores`: per core (y, x) its peak L1 bytes and worst external
    fragmentation (1 - largest free block / free bytes); the chips of a mesh are alike."""
    peak_l1_core: int = 0
    time_estimate: float = 0.0
    """Seconds, from the bottleneck model of meshc/sim/traffic.py."""
    ops: list = field(default_factory=list)
    """Per op: name, traffic, seconds."""
    mode: str = "sim"
    checks: list = field(default_factory=list)
    """After a check (`meshc-run --check`, `meshc.interp.check`): one OutputCheck an output, with
    the differing elements, max abs / rel error and PCC against the reference run."""
    mesh_shape: tuple[int, ...] = (1,)
    system: object = None
    module: ModuleOp | None = None
    """The module that ran (a ttir module's lowered form)."""
    pipeline: dict | None = None
    """A pipelined module's run (meshc.interp.pipeline_run.pipeline_report): per stage its chips and
    busy seconds, the GPipe makespan over the microbatches, the bubble fraction, the throughput and
    the timeline."""
    entry: str | None = None
    """The function that ran (its symbol name)."""

    @property
    def output_dict(self) -> dict[str, object]:
        return dict(zip(self.names, self.outputs))

    def summary(self) -> str:
        """A few lines: outputs, traffic totals, peak memory, time estimate."""
        return summary(self)

    def to_json(self, path: str | None = None) -> str:
        """The run's report (traffic per link / NOC / bank / host, memory, the time model, every
        op) as JSON text; also written to `path` when given."""
        text = json.dumps(report(self), indent=1)
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text + "\n")
        return text

    def addressable_shards(self, output: int | str = 0, spec=None) -> list[Shard]:
        """One `Shard` a device (`.device` with its mesh coords, id and chip; `.index`, the slices
        of the global tensor it holds; `.replica_id`; `.data`), as `jax.Array.addressable_shards`;
        `spec` says how the pieces of an output left on the devices make one tensor
        (meshc.interp.shards)."""
        return output_shards(self, output, spec)

    def visualize_sharding(self, value: str | None = None, output: str | None = None, text: bool | None = None):
        """Show where a value of the program that ran lives (`"%1"`, `"%x"`; default: the first
        value with a placement): tables in the terminal, or a PNG / SVG picture with `output=`.
        Returns the MeshView (or the one-chip Placement) drawn."""
        if self.module is None:
            raise RunError("this RunResult keeps no module to look the value up in")
        view = describe_value(self.module, value)
        if isinstance(view, tuple):
            _, placement, label = view
            if text or (text is None and output is None):
                render_chip_text(placement, label)
            if output:
                render_chip_png(placement, label, output)
            return placement
        return show(view, output, text if text is not None else output is None)


def dialect_of(module: ModuleOp) -> str:
    names = {op.name.split(".")[0] for op in module.walk()}
    for d in ("ttmetal", "ttnn", "ttir"):
        if d in names:
            return d
    return "ttir"


def arg_names(f: func.FuncOp) -> list[str]:
    names = []
    for i, a in enumerate(f.body.blocks.first.args):
        names.append(a.name_hint or f"arg{i}")
    return names


def blank_inputs(f: func.FuncOp, mesh: tuple[int, ...] = (1,)) -> dict[str, np.ndarray]:
    """Shape-only inputs (zero-stride arrays, no bytes) for an abstract run (a presharded
    argument's stacked pieces, as prepare_inputs)."""
    pieces = piece_args(f, mesh)
    return {name: np.broadcast_to(np.zeros((), get_dtype(element_dtype_name(a.type)).host_dtype),
                                  (math.prod(mesh),) * (i in pieces) + tensor_shape(a))
            for i, (name, a) in enumerate(zip(arg_names(f), f.body.blocks.first.args))}


def prepare_inputs(f: func.FuncOp, inputs, seed: int | None, mesh: tuple[int, ...] = (1,)) -> dict[str, np.ndarray]:
    """The entry's inputs by argument name; a bad input raises RunError at the function. On a mesh
    of several devices a presharded argument's input is one piece a device, stacked:
    `[devices, *its type's shape]` (device order, row-major over the mesh)."""
    try:
        return _prepare_inputs(f, inputs, seed, mesh)
    except (LayoutError, RunError) as e:
        raise RunError(getattr(e, "message", None) or str(e), getattr(e, "op", None) or f) from None


def tensor_bytes_error(t, what: str, limit: int | None = None) -> str | None:
    """Why a tensor of type `t` cannot be materialised on the host (dynamic or negative dims, or
    more bytes than `limit`, by default `host_tensor_limit()`: MAX_TENSOR_BYTES, or the memory
    available over RUN_COPIES), or None."""
    if not isinstance(t, TensorType):
        return None
    shape = tuple(int(n) for n in t.get_shape())
    if any(n < 0 for n in shape):
        return f"{what} {t} has a dynamic or negative dimension; the simulator runs static shapes only"
    width = getattr(t.element_type, "bitwidth", 32)
    nbytes = math.prod(shape) * max(1, ceil_div(int(width), 8))
    limit = host_tensor_limit() if limit is None else limit
    if nbytes > limit:
        return (f"{what} {t} holds {nbytes} bytes, more than the simulator materialises on this host "
                f"({limit} bytes: meshc.layout.limits.host_tensor_limit, the larger of MAX_TENSOR_BYTES and the "
                "memory available over RUN_COPIES; run with --abstract for shapes, traffic and time without data)")
    return None


class SizeGuard:
    """An interpreter listener that refuses an op whose results could not be held on the host,
    before it runs, and remembers the op running (to place an out-of-memory error)."""

    def __init__(self):
        self.current = None
        self.limit = host_tensor_limit()  # once, before the run takes memory

    def will_interpret_op(self, op, args) -> None:
        self.current = op
        for i, r in enumerate(op.results):
            why = tensor_bytes_error(r.type, f"result #{i}", self.limit)
            if why:
                raise RunError(why, op)

    def did_interpret_op(self, op, results) -> None:
        pass


def piece_args(f: func.FuncOp, mesh: tuple[int, ...]) -> set[int]:
    """The arguments that come one piece a device: presharded ones, on a mesh of several devices."""
    if math.prod(mesh) <= 1 or f.arg_attrs is None:
        return set()
    return {i for i, a in enumerate(f.arg_attrs.data) if presharded(a)}


def entry_args(f: func.FuncOp, ins: dict[str, np.ndarray], mesh: tuple[int, ...]) -> list:
    """The values the entry is called with: a presharded argument's stacked pieces as one array a
    device (`Distributed`), every other input as it is."""
    pieces = piece_args(f, mesh)
    return [Distributed(list(v)) if i in pieces else v for i, v in enumerate(ins.values())]


def _prepare_inputs(f: func.FuncOp, inputs, seed: int | None, mesh: tuple[int, ...] = (1,)) -> dict[str, np.ndarray]:
    args = list(f.body.blocks.first.args)
    pieces = piece_args(f, mesh)
    names = arg_names(f)
    if isinstance(inputs, (list, tuple)):
        if len(inputs) > len(args):
            raise RunError(f"@{f.sym_name.data} takes {len(args)} inputs, got {len(inputs)}")
        inputs = dict(zip(names, inputs))
    inputs = dict(inputs or {})
    for k in list(inputs):
        if k not in names:
            alias = {f"arg{i}": n for i, n in enumerate(names)}
            if k in alias:
                inputs[alias[k]] = inputs.pop(k)
            else:
                raise RunError(f"@{f.sym_name.data} has no input named '{k}'; its inputs are {', '.join(names)}")
    rng = np.random.default_rng(seed) if seed is not None else None
    out = {}
    limit = host_tensor_limit()
    for i, (name, a) in enumerate(zip(names, args)):
        why = tensor_bytes_error(a.type, f"input '{name}' of type", limit)
        if why:
            raise RunError(why)
        shape = (math.prod(mesh),) * (i in pieces) + tensor_shape(a)
        dtype = element_dtype_name(a.type)
        if name not in inputs:
            if rng is None:
                raise RunError(f"missing input '{name}' ({a.type}); give it, or a seed for random inputs")
            out[name] = random_input(shape, dtype, rng)
            continue
        x = np.asarray(inputs[name])
        if tuple(x.shape) != shape:
            each = (f", one piece for each of the {shape[0]} devices ({fmt_shape(shape)}: it is presharded)"
                    if i in pieces else "")
            raise RunError(f"input '{name}' has shape {fmt_shape(x.shape) or 'scalar'}, but "
                           f"@{f.sym_name.data} takes {a.type}{each}")
        want = get_dtype(dtype).host_dtype
        if x.dtype != want and not _converts_exactly(x.dtype, dtype, want):
            raise RunError(f"input '{name}' holds {x.dtype} values, but @{f.sym_name.data} takes {a.type} "
                           f"({want} on the host): convert it first (meshc does not round or narrow "
                           f"inputs silently)", f)
        x = x.astype(want, copy=False)

        held = quantize(x, dtype)  # the values a device tensor of the argument's type holds
        # bf16 has a host type (ml_dtypes.bfloat16) to round to; block floats, which no library
        # packs, are rounded here as the device rounds them
        if dtype == "bf16" and not np.array_equal(held, x, equal_nan=True):
            raise RunError(f"input '{name}' has values a {dtype} tensor cannot hold exactly (@{f.sym_name.data} "
                           f"takes {a.type}): round them to {dtype} first (for bf16: "
                           f"x.astype(ml_dtypes.bfloat16)); meshc does not round inputs silently", f)
        out[name] = held
    return out


def _converts_exactly(have: np.dtype, dtype_name: str, want: np.dtype) -> bool:
    """Whether an input array of numpy type `have` converts to the program's type without a
    change of type class or loss: a numpy type that widens safely (int16 -> int32, f16 -> f32),
    or ml_dtypes.bfloat16 for a float argument (bf16 and block floats are held as f32 on the
    host). f64 -> f32 or int64 -> int32 are refused; so are f32 values a bf16 argument cannot
    hold (checked on the values by prepare_inputs)."""
    if have == np.dtype(ml_dtypes.bfloat16):
        return np.dtype(want).kind == "f" and np.dtype(want).itemsize >= 4
    return np.can_cast(have, want, casting="safe")


def _unwrap(e: BaseException):
    """The LocatedError / LayoutError an interpreter exception wraps, if any."""
    seen = set()
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if isinstance(e, (LocatedError, LayoutError, RunError)):
            return e
        e = e.__cause__ or e.__context__
    return None


def _interpret(module: ModuleOp, f: func.FuncOp, functions, args, listeners=(), guard_sizes: bool = True):
    """Run `f`; with `guard_sizes` (every run that holds data, not an abstract one) an op whose
    results could not be held on the host is refused before it runs."""
    guard = SizeGuard()
    interp = Interpreter(module, listeners=(guard, *listeners) if guard_sizes else tuple(listeners))
    interp.register_implementations(FuncFunctions())
    for fns in functions if isinstance(functions, list) else [functions]:
        interp.register_implementations(fns)
    return _guarded(lambda: interp.call_op(f, tuple(args)), guard)


def _guarded(thunk, guard: SizeGuard):
    """`thunk()`, its errors (wrapped by the interpreter or not) as RunErrors at their op."""
    try:
        return thunk()
    except MemoryError:
        raise RunError("the host ran out of memory simulating this op; its tensors are too large for "
                       "this machine (the simulator holds every tensor in host memory)", guard.current) from None
    except Exception as e:  # the interpreter wraps our errors; find them again
        inner = _unwrap(e)
        if inner is None:
            msg = str(e)
            if "Could not find interpretation function for op" in msg:
                name = msg.rsplit(" ", 1)[-1]
                raise RunError(f"the simulator does not implement '{name}' (no interpreter function for it)") from None
            raise
        op = getattr(inner, "op", None)
        msg = getattr(inner, "message", None) or str(inner)
        raise RunError(msg, op) from None


def _call(interp: Interpreter, f: func.FuncOp, args) -> tuple:
    return interp.call_op(f, tuple(args))


def _run_stages(module: ModuleOp, f: func.FuncOp, inputs, seed, system, progress, abstract: bool,
                dialect: str) -> RunResult:
    """A lowered pipelined module on one machine a stage (meshc/interp/pipeline_run.py)."""
    if system is None:
        sysdesc = pipeline_system(module)
    else:
        sysdesc = named_system(system) if isinstance(system, str) else system
    sig = pipeline_run.batch_signature(f)  # a batched argument holds every microbatch
    ins = blank_inputs(sig) if abstract else prepare_inputs(sig, inputs, seed)
    guard = SizeGuard()
    listeners = ([] if abstract else [guard]) + ([progress] if progress is not None else [])
    batches = pipeline_run.split_batch(f, list(ins.values()))
    try:
        values, stages, trace = _guarded(lambda: pipeline_run.simulate(
            module, f, batches, sysdesc, abstract, dialect == "ttmetal", _call, listeners), guard)
        values = pipeline_run.join_batch(values, abstract)
    except LayoutError as e:
        raise RunError(str(e), f) from None
    host_values = []
    for v in values:
        buf = v.buffer if isinstance(v, SimTensor) else v
        if isinstance(buf, MeshBuffer):  # a result left on a stage's devices is read back
            vals = stages.machine_of(buf).read(buf)
            v = vals[0] if len(vals) == 1 else Distributed(vals)
        host_values.append(v)
    result = RunResult(inputs=ins, traffic=stages.traffic, memory=stages.memory_use(),
                       peak_l1_core=max(m.peak_l1_core for m in stages.machines),
                       time_estimate=sum(o.seconds for o in stages.ops), ops=stages.ops,
                       mode="abstract" if abstract else "sim", mesh_shape=(len(stages.stage_of_chip),),
                       system=sysdesc, module=module)
    batched = [v for i, v in enumerate(ins.values()) if i in set(batch_args(f))]
    samples = int(np.shape(batched[0])[0]) if batched else len(batches)
    result.pipeline = pipeline_run.pipeline_report(trace, f, module_devices(module), samples)
    return _finish(result, f, host_values)


def _finish(result: RunResult, f, values) -> RunResult:
    result.names = [f"result{i}" for i in range(len(values))]
    result.outputs = [list(v) if isinstance(v, Distributed) else np.asarray(v) for v in values]
    return result


def run_golden(module: ModuleOp, inputs=None, entry: str | None = None, seed: int | None = None,
               progress=None) -> RunResult:
    """The numpy reference run (meshc/interp/ttir.py) of a ttir or ttnn module; `progress` is an
    interpreter listener told of every op."""
    f = find_entry(module, entry)
    mesh = module_mesh_shape(module) or (1,)
    pipelined = DEVICES_ATTR in module.attributes
    ins = prepare_inputs(pipeline_run.batch_signature(f) if pipelined else f, inputs, seed,
                         (1,) if pipelined else mesh)
    if pipelined:  # each stage on its own mesh, once a microbatch
        guard = SizeGuard()
        batches = pipeline_run.split_batch(f, list(ins.values()))
        values = pipeline_run.join_batch(_guarded(lambda: pipeline_run.golden(
            module, f, batches, _call, [guard] + ([progress] if progress is not None else [])), guard), False)
        mesh = (len({c for d in module_devices(module) for c in d.chip_ids}),)
    else:
        values = _interpret(module, f, golden_functions(mesh), entry_args(f, dict(zip(ins, round_stored(f, list(ins.values())))), mesh),
                            [progress] if progress is not None else ())
    return _finish(RunResult(inputs=ins, mode="golden", mesh_shape=mesh), f, values)


def run(module: ModuleOp, inputs=None, entry: str | None = None, seed: int | None = None,
        system=None, progress=None, source_device=None, abstract: bool = False) -> RunResult:
    """Run a ttnn or ttmetal `module` on the simulator (a ttir module is lowered first by the
    caller: meshc.run, meshc-run). `progress` is an interpreter listener; `source_device` the
    device of the program before it was lowered (its chips run it; default: the module's own).
    `abstract=True` runs on shapes only (no tensor data; inputs are ignored): the same
    allocations, traffic, time and memory report as a data run, outputs are shape-only
    zero-stride arrays. Bad input raises RunError."""
    d = dialect_of(module)
    if d == "ttir":
        raise RunError("a ttir module runs on the simulator once lowered: use meshc.run, which lowers it")

    f = find_entry(module, entry)
    if DEVICES_ATTR in module.attributes:  # a pipelined module: one machine a stage
        return _run_stages(module, f, inputs, seed, system, progress, abstract, d)
    mesh = module_mesh_shape(module) or (1,)
    if system is None:
        sysdesc = system_or_default(module)
    else:
        sysdesc = named_system(system) if isinstance(system, str) else system
        assert isinstance(sysdesc, SystemDesc)
    try:
        # the program's own device decides which chips run it (tt-register-device re-derives the
        # device from the mesh shape, which would move e.g. a pipeline stage on chips 4..7 to 0..3)
        dev = source_device if source_device is not None else module_device(module)
        machine = Machine(sysdesc, mesh, None if dev is None else tuple(dev.chip_ids), abstract=abstract)
    except LayoutError as e:
        raise RunError(str(e)) from None
    ins = blank_inputs(f, mesh) if abstract else prepare_inputs(f, inputs, seed, mesh)
    if d == "ttmetal":  # buffers are created and freed by the program itself

        functions, rt = metal_functions(machine)
        listeners = []
    else:
        functions, rt = sim_functions(machine)
        listeners = [BufferLifetimes.of_program(rt, module, f)]
    if progress is not None:
        listeners.append(progress)
    values = _interpret(module, f, functions, entry_args(f, ins, mesh), listeners, guard_sizes=not abstract)

    host_values = []
    for v in values:
        if isinstance(v, SimTensor):  # a result left on the devices is read back
            vals = machine.read(v.buffer)
            v = vals[0] if len(vals) == 1 else Distributed(vals)
        host_values.append(v)
    result = RunResult(inputs=ins, traffic=machine.traffic, memory=machine.memory_use(),
                       peak_l1_core=machine.peak_l1_core, time_estimate=machine.time_estimate,
                       ops=machine.ops, mode="abstract" if abstract else "sim", mesh_shape=mesh, system=sysdesc,
                       module=module, entry=f.sym_name.data)
    return _finish(result, f, host_values)
