"""Several virtual devices in one module, and the pipeline stages placed on them: their checks.

tt-mlir's Device spec ("Pipeline Parallel") forms several virtual devices over disjoint chips of
one system. A module carries them as `tt.devices = [#tt.device<...>, ...]` beside its
`tt.system_desc` (without one: the smallest named system holding every chip they take); a
function carrying `tt.stage = i` is pipeline stage i and runs on `tt.devices[i]`; the functions
without one (`@main`) run on the host and call the stages (docs/pipeline.md). Reading them is
module.py's; this registered op checker refuses, located:

* at the module: `tt.devices` beside a `tt.device`, a device not legal on the system (a chip
  the system lacks, a map that is not injective or leaves a chip's grid), two devices sharing a
  chip (meshc.layout.virtual_devices);
* at a function: `tt.stage` in a module without `tt.devices`, or an index outside them;
  `tt.microbatches = M` (the batch split into M microbatches, docs/pipeline.md) on a stage, M > 1
  with no argument marked `tt.batch`, a batched
  argument or a result without a dim 0 to split or join along;
* at a call of a stage: an operand produced by a later stage (values flow forward through a
  pipeline), or by a stage whose chips no chain of ethernet links joins to this one's.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from meshc.dialects import shape_rules as rules
from meshc.dialects.checkers import register_op_checker
from meshc.dialects.tt.module import (
    BATCH_ARG_ATTR,
    DEVICE_ATTR,
    DEVICES_ATTR,
    MICROBATCHES_ATTR,
    STAGE_ATTR,
    batch_args,
    enclosing_module,
    module_devices,
    microbatches_of,
    module_system,
    stage_index,
)
from meshc.errors import LocatedError
from meshc.layout.errors import LayoutError
from meshc.layout.system import SystemDesc, default_system
from meshc.layout.virtual_devices import check_linked, check_virtual_devices


def pipeline_system(module: ModuleOp) -> SystemDesc:
    """The system a pipelined module's devices view: its `tt.system_desc`, else the smallest named
    system holding every chip of its devices."""
    sysdesc = module_system(module)
    if sysdesc is not None:
        return sysdesc
    chips = sorted({c for d in module_devices(module) or [] for c in d.chip_ids})
    return default_system((len(chips) or 1,), chips)


def stage_functions(module: ModuleOp) -> dict[str, func.FuncOp]:
    """The module's stage functions by name."""
    return {f.sym_name.data: f for f in module.body.block.ops
            if isinstance(f, func.FuncOp) and STAGE_ATTR in f.attributes}


def called_stage(call: func.CallOp) -> tuple[func.FuncOp, int] | None:
    """(the stage function, its index) a call calls, or None when it calls no stage."""
    module = enclosing_module(call)
    if module is None:
        return None
    f = module.body.block.ops
    name = call.callee.root_reference.data
    for g in f:
        if isinstance(g, func.FuncOp) and g.sym_name.data == name:
            i = stage_index(g)
            return None if i is None else (g, i)
    return None


def _check_module(module: ModuleOp) -> None:
    devices = module_devices(module)
    if devices is None:
        return
    if DEVICE_ATTR in module.attributes:
        raise LocatedError(f"a module carries one device ('{DEVICE_ATTR}') or several virtual devices "
                           f"('{DEVICES_ATTR}'), not both", module)
    if not devices:
        raise LocatedError(f"'{DEVICES_ATTR}' lists no device", module)
    try:
        check_virtual_devices(devices, pipeline_system(module), DEVICES_ATTR)
    except LayoutError as e:
        raise LocatedError(str(e), module) from None


def _check_stage(f: func.FuncOp) -> None:
    i = stage_index(f)
    module = enclosing_module(f)
    devices = None if module is None else module_devices(module)
    if devices is None:
        raise LocatedError(f"is pipeline stage {i}, but its module has no '{DEVICES_ATTR}' to place it on", f)
    if not 0 <= i < len(devices):
        raise LocatedError(f"is pipeline stage {i}, but the module's '{DEVICES_ATTR}' has {len(devices)} "
                           f"devices (stages 0 to {len(devices) - 1})", f)


def _check_call(call: func.CallOp) -> None:
    target = called_stage(call)
    if target is None:
        return
    callee, i = target
    module = enclosing_module(call)
    devices = module_devices(module)
    if devices is None or not 0 <= i < len(devices):
        return  # the stage itself is refused
    for n, v in enumerate(call.arguments):
        producer = v.owner
        if not isinstance(producer, func.CallOp):
            continue
        src = called_stage(producer)
        if src is None or src[1] == i:
            continue
        j = src[1]
        if not 0 <= j < len(devices):
            continue  # the producing stage itself is refused
        if j > i:
            raise LocatedError(f"stage {i} (@{callee.sym_name.data}) reads operand #{n}, produced by stage {j} "
                               f"(@{src[0].sym_name.data}), a later stage; values flow forward through a pipeline",
                               call)
        try:
            check_linked(pipeline_system(module), devices[j].chip_ids, devices[i].chip_ids)
        except LayoutError as e:
            raise LocatedError(f"operand #{n} goes from stage {j} to stage {i}, but {e}", call) from None


def _check_microbatches(f: func.FuncOp) -> None:
    m = microbatches_of(f)
    if STAGE_ATTR in f.attributes:  # (a module without tt.devices yet: ttir-split-stages makes them)
        raise LocatedError(f"'{MICROBATCHES_ATTR}' belongs on the host function of a pipelined module, not on "
                           "a stage", f)
    args = batch_args(f)
    if m > 1 and not args:
        raise LocatedError(f"splits the batch into {m} microbatches, but no argument carries it: mark the "
                           f"batched arguments {{{BATCH_ARG_ATTR}}}", f)
    for i in args:
        if not f.function_type.inputs.data[i].get_shape():
            raise LocatedError(f"argument #{i} carries the batch ('{BATCH_ARG_ATTR}') along dim 0, but it is a "
                               "scalar", f)
    for i, t in enumerate(f.function_type.outputs.data):
        if m > 1 and not getattr(t, "get_shape", lambda: ())():
            raise LocatedError(f"result #{i} is joined along dim 0 over the {m} microbatches, but it is a "
                               "scalar", f)


def _check(op: Operation) -> None:
    if isinstance(op, ModuleOp):
        _check_module(op)
    elif isinstance(op, func.FuncOp) and STAGE_ATTR in op.attributes:
        _check_stage(op)
        if MICROBATCHES_ATTR in op.attributes:
            _check_microbatches(op)
    elif isinstance(op, func.FuncOp) and MICROBATCHES_ATTR in op.attributes:
        _check_microbatches(op)
    elif isinstance(op, func.CallOp):
        _check_call(op)


register_op_checker(_check)


def check_stage_transfer(op: Operation, source_stage: int, target_stage: int, shape: tuple[int, ...],
                         source_dims: tuple[int, ...], target_dims: tuple[int, ...],
                         operand_shape: tuple[int, ...], result_shape: tuple[int, ...]) -> None:
    """What a transfer between two stages' devices (`ttnn.pipeline_transfer`,
    `ttmetal.enqueue_transfer`) must be: from an earlier stage to a later one of its module's
    `tt.devices`, each side's shard_dims one entry per mesh axis of its device, the operand and
    the result each device's piece of the global `shape`. Raises VerifyException."""
    module = enclosing_module(op)
    devices = None if module is None else module_devices(module)
    if devices is None:
        raise VerifyException(f"moves a value between pipeline stages, but its module has no '{DEVICES_ATTR}'")
    for what, i in (("source_stage", source_stage), ("target_stage", target_stage)):
        if not 0 <= i < len(devices):
            raise VerifyException(f"{what} {i} is not a stage of the module's {len(devices)} devices")
    if source_stage >= target_stage:
        raise VerifyException(f"moves a value from stage {source_stage} to stage {target_stage}; values flow forward "
                              "through a pipeline")
    for what, i, dims, local in (("source", source_stage, source_dims, operand_shape),
                                 ("target", target_stage, target_dims, result_shape)):
        mesh = tuple(devices[i].mesh_shape)
        pieces = rules.mesh_pieces(len(shape), dims, mesh)
        rules.check_even_split(shape, pieces)
        want = rules.local_shape(shape, pieces)
        if tuple(local) != want:
            raise VerifyException(f"the {what} piece has shape {rules.fmt(local)}, but {rules.fmt(shape)} split by "
                                  f"{what}_shard_dims {list(dims)} over stage {i}'s mesh {rules.fmt(mesh)} gives "
                                  f"{rules.fmt(want)}")
