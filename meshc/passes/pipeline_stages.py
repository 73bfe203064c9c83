"""Lowering a pipelined module (docs/pipeline.md): every stage on its own virtual device, and each
value that crosses from one stage to a later one sent over the ethernet links joining their chips.

`lower_stages(ctx, module, front, backend)` is what the ttir-to-ttnn / ttir-to-ttmetal pipelines
do for a module carrying `tt.devices`:

1. calls to functions that are not stages are inlined (a host function then holds only calls of
   stages and its return: anything else would run on no device, a located error);
2. each stage function is lowered alone, as the one function of a module whose `tt.device` is its
   virtual device, by the pipeline's own passes (so a stage may be global-view or SPMD, and its
   ops are checked against its own mesh);
3. a stage result that only later stages read stays on its device: the stage returns the device
   tensor (TTNN: the value its `ttnn.aggregate_tensor` read back; TTMetal: the buffer its
   `enqueue_read_buffer` read, no longer freed at its end), and the reading stage takes it as
   it would have held it after its `ttnn.distribute_tensor` / `enqueue_write_buffer` (the
   placement and memory config of that write, whose buffer the stage still frees). Between the
   two calls the host function sends it: `ttnn.pipeline_transfer` / `ttmetal.enqueue_transfer`,
   from the source stage's sharding to the target's (the fewest-bytes plan of
   meshc.layout.stage_transfer, run by the simulator over the links);
4. a stage argument the host function passes unbatched (no `tt.batch`: a weight, the same for every
   microbatch) is written to the stage's devices by the host function itself, marked
   `tt.stage = i`, and the stage takes it on its devices and no longer frees it: the simulator runs
   that write once for all the microbatches and keeps the weight resident.

Located errors: a host function doing anything but calling stages, pipeline options naming a
system or a mesh (a pipelined module names its devices), a stage result read both by the host and
by a later stage, and stage boundaries this lowering does not build (a result that is not read
back by an aggregate / read of a device value, an argument not written once to the devices).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, ModuleOp, i64
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from meshc.dialects import ttmetal, ttnn
from meshc.dialects.tt import (
    DEVICE_ATTR,
    DEVICES_ATTR,
    STAGE_ATTR,
    SYSTEM_DESC_ATTR,
    DeviceAttr,
    SystemDescAttr,
    batch_args,
    called_stage,
    module_devices,
    pipeline_system,
    stage_index,
)
from meshc.dialects.shape_rules import ints_of
from meshc.errors import LocatedError
from meshc.passes.inline_calls import inline_calls


def _dims_attr(dims: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, [int(d) for d in dims])


def check_host_functions(module: ModuleOp) -> None:
    """A function that is not a stage only calls stages and returns (it runs on the host)."""
    for f in module.body.block.ops:
        if not isinstance(f, func.FuncOp) or STAGE_ATTR in f.attributes or not f.body.blocks:
            continue
        for op in f.body.blocks.first.ops:
            if isinstance(op, func.ReturnOp) or (isinstance(op, func.CallOp) and called_stage(op) is not None):
                continue
            raise LocatedError(f"@{f.sym_name.data} runs on the host of a pipelined module and may only call "
                               f"stages; '{op.name}' would run on no device: put it in a stage (a function "
                               f"with '{STAGE_ATTR}')", op)


def lower_stages(ctx: Context, module: ModuleOp, front: Callable[[ModuleOp], list[ModulePass]],
                 backend: list[ModulePass], run_pass, options_name_system: bool) -> None:
    """Lower every stage of a pipelined `module` and join them by transfers (module docstring)."""
    if options_name_system:
        raise LocatedError(f"a pipelined module names its virtual devices ('{DEVICES_ATTR}'); the pipeline's "
                           "system and mesh-shape options do not apply to it", module)
    inline_calls(module)
    check_host_functions(module)
    devices = module_devices(module)
    system = pipeline_system(module)
    module.attributes[SYSTEM_DESC_ATTR] = SystemDescAttr.from_model(system)
    for f in [g for g in module.body.block.ops if isinstance(g, func.FuncOp) and STAGE_ATTR in g.attributes]:
        i = stage_index(f)
        stage = f.attributes.pop(STAGE_ATTR)
        sub = ModuleOp([])
        sub.location = f.location
        sub.attributes[SYSTEM_DESC_ATTR] = module.attributes[SYSTEM_DESC_ATTR]
        sub.attributes[DEVICE_ATTR] = DeviceAttr.from_model(devices[i])
        anchor = f.next_op
        f.detach()
        sub.body.block.add_op(f)
        try:
            for p in [*front(sub), *backend]:
                run_pass(p, ctx, sub)
        finally:
            f.detach()
            f.attributes[STAGE_ATTR] = stage
            if anchor is not None:
                module.body.block.insert_op_before(f, anchor)
            else:
                module.body.block.add_op(f)
    _join_stages(module)
    _hoist_weights(module)


# ----------------------------------------------------------------------------- transfers


class _Boundary:
    """How the backend a stage was lowered to reads results back and writes arguments."""

    def __init__(self, metal: bool):
        self.metal = metal

    def source(self, f: func.FuncOp, k: int) -> tuple[SSAValue, tuple[int, ...]]:
        """Make stage `f` return result #k as its device value: (that value, its shard_dims)."""
        ret = f.body.blocks.first.last_op
        v = ret.operands[k]
        read = v.owner
        if self.metal:
            if not isinstance(read, ttmetal.EnqueueReadBufferOp) or len(list(v.uses)) != 1:
                raise LocatedError(f"result #{k} of stage @{f.sym_name.data} goes to a later stage, but it is not "
                                   "read back from one mesh buffer (not built)", ret)
            buf = read.buffer
            for op in list(f.body.blocks.first.ops):
                if isinstance(op, ttmetal.DeallocateBufferOp) and op.operands[0] is buf:
                    op.detach()
                    op.erase()
            dims = ints_of(read.shard_dims)
        else:
            if isinstance(read, ttnn.AggregateTensorOp):
                dims = ints_of(read.shard_dims)
            elif isinstance(read, ttnn.FromDeviceOp) and _mesh_size(f) == 1:
                dims = (-1,) * len(_mesh(f))
            else:
                raise LocatedError(f"result #{k} of stage @{f.sym_name.data} goes to a later stage, but it is not "
                                   "read back from the devices as one tensor (not built)", ret)
            if len(list(v.uses)) != 1:
                raise LocatedError(f"result #{k} of stage @{f.sym_name.data} is used inside the stage too (not "
                                   "built)", ret)
            buf = read.input
        ret.operands[k] = buf
        read.detach()
        read.erase()
        return buf, tuple(dims)

    def target(self, f: func.FuncOp, n: int) -> tuple[tuple[int, ...], dict]:
        """Make stage `f` take argument #n on its devices: (its shard_dims, the transfer's attributes)."""
        arg = f.body.blocks.first.args[n]
        users = [u.operation for u in arg.uses]
        write = users[0] if len(users) == 1 else None
        mesh = _mesh(f)
        if self.metal:
            if not isinstance(write, ttmetal.EnqueueWriteBufferOp) or write.operands[0] is not arg:
                raise LocatedError(f"argument #{n} of stage @{f.sym_name.data} comes from an earlier stage, but the "
                                   "stage does not write it once into one mesh buffer (not built)", f)
            create = write.operands[1].owner
            assert isinstance(create, ttmetal.CreateBufferOp)
            attrs = {"memory_config": create.memory_config}
            if create.tile is not None:
                attrs["tile"] = create.tile
            dims = ints_of(write.shard_dims)
            device_value = create.results[0]
            ops = [write, create]
        else:
            if isinstance(write, ttnn.DistributeTensorOp):
                dims = ints_of(write.shard_dims)
            elif isinstance(write, ttnn.ToDeviceOp):
                dims = (-1,) * len(mesh)
            else:
                raise LocatedError(f"argument #{n} of stage @{f.sym_name.data} comes from an earlier stage, but the "
                                   "stage does not move it to the devices once (not built)", f)
            attrs = {} if write.memory_config is None else {"memory_config": write.memory_config}
            device_value = write.results[0]
            ops = [write]
        Rewriter.replace_value_with_new_type(arg, device_value.type)
        new_arg = f.body.blocks.first.args[n]
        device_value.replace_all_uses_with(new_arg)
        for op in ops:
            op.detach()
            op.erase()
        return tuple(dims), attrs


def _mesh(f: func.FuncOp) -> tuple[int, ...]:
    module = f.parent_op()
    return tuple(module_devices(module)[stage_index(f)].mesh_shape)


def _mesh_size(f: func.FuncOp) -> int:
    n = 1
    for s in _mesh(f):
        n *= s
    return n


def _fix_type(f: func.FuncOp) -> None:
    block = f.body.blocks.first
    f.function_type = func.FunctionType.from_lists([a.type for a in block.args],
                                                   [v.type for v in block.last_op.operands])


def _retype_call(call: func.CallOp, callee: func.FuncOp) -> func.CallOp:
    """A call of `callee` with its current result types, replacing `call`."""
    new = func.CallOp(call.callee, list(call.arguments), list(callee.function_type.outputs.data))
    new.location = call.location
    Rewriter.replace_op(call, new)
    return new


def _join_stages(module: ModuleOp) -> None:
    metal = any(op.name.startswith("ttmetal.") for op in module.walk())
    boundary = _Boundary(metal)
    hosts = [f for f in module.body.block.ops if isinstance(f, func.FuncOp) and STAGE_ATTR not in f.attributes]
    calls = [op for h in hosts for op in h.walk() if isinstance(op, func.CallOp) and called_stage(op) is not None]
    # every value crossing between stages, before anything changes: (producer call, result #,
    # consumer call, operand #, the whole tensor's shape as the host sees it)
    edges = []
    for call in calls:
        producer = called_stage(call)[0]
        for k, r in enumerate(call.results):
            readers = [u.operation for u in r.uses]
            to_stages = [u for u in readers if isinstance(u, func.CallOp) and called_stage(u) is not None]
            if to_stages and len(to_stages) != len(readers):
                raise LocatedError(f"result #{k} of stage @{producer.sym_name.data} goes both to a later stage and "
                                   "back to the host (not built: return it from the later stage)", call)
    for call in calls:
        for n, v in enumerate(call.arguments):
            if isinstance(v.owner, func.CallOp) and called_stage(v.owner) is not None:
                edges.append((v.owner, v.index, call, n, tuple(v.type.get_shape())))
    sources: dict[tuple[str, int], tuple[int, ...]] = {}
    targets: dict[tuple[str, int], tuple[tuple[int, ...], dict]] = {}
    for p_call, k, c_call, n, _ in edges:
        producer, consumer = called_stage(p_call)[0], called_stage(c_call)[0]
        key = (producer.sym_name.data, k)
        if key not in sources:
            sources[key] = boundary.source(producer, k)[1]
        key = (consumer.sym_name.data, n)
        if key not in targets:
            targets[key] = boundary.target(consumer, n)
    for call in calls:
        _fix_type(called_stage(call)[0])
    for p_call, k, c_call, n, shape in edges:
        (producer, j), (consumer, i) = called_stage(p_call), called_stage(c_call)
        dims, attrs = targets[(consumer.sym_name.data, n)]
        t = _transfer(metal, p_call.results[k], consumer.function_type.inputs.data[n], j, i, shape,
                      sources[(producer.sym_name.data, k)], dims, attrs)
        t.location = c_call.location
        Rewriter.insert_op(t, InsertPoint.before(c_call))
        c_call.operands[n] = t.results[0]
    for call in calls:
        _retype_call(call, called_stage(call)[0])


def _transfer(metal: bool, value: SSAValue, result_type, j: int, i: int, shape, source_dims, target_dims,
              attrs: dict) -> Operation:
    common = {
        "source_stage": IntegerAttr(j, i64), "target_stage": IntegerAttr(i, i64),
        "shape": _dims_attr(shape), "source_shard_dims": _dims_attr(source_dims),
        "target_shard_dims": _dims_attr(target_dims), **attrs,
    }
    op_class = ttmetal.EnqueueTransferOp if metal else ttnn.PipelineTransferOp
    return op_class.create(operands=[value], result_types=[result_type], attributes=common)


# ----------------------------------------------------------------------------- resident weights


def _hoist_weights(module: ModuleOp) -> None:
    """A stage argument that the host function passes unbatched (no `tt.batch`: the same for every
    microbatch, a weight) is written to the stage's devices by the host function itself, once,
    before the stage's first call: the stage's distribute (TTNN) or create_buffer + write (TTMetal)
    moves into the host function, marked `tt.stage = i` (it runs on stage i's devices), and the
    stage takes the device value (and no longer frees it: it stays for the next microbatch)."""
    for host in [f for f in module.body.block.ops if isinstance(f, func.FuncOp) and STAGE_ATTR not in f.attributes]:
        batched = set(batch_args(host))
        calls = [op for op in host.walk() if isinstance(op, func.CallOp) and called_stage(op) is not None]
        names = [called_stage(c)[0].sym_name.data for c in calls]
        for call in calls:
            stage, i = called_stage(call)
            if names.count(stage.sym_name.data) != 1:
                continue  # a stage called twice: its arguments stay its own
            for n, v in enumerate(list(call.arguments)):
                if not (isinstance(v.owner, type(host.body.blocks.first)) and v.index not in batched):
                    continue
                moved = _hoist_write(stage, n, i, call)
                if moved is not None:
                    call.operands[n] = moved
            _fix_type(stage)
        for call in calls:
            _retype_call(call, called_stage(call)[0])


def _hoist_write(stage: func.FuncOp, n: int, i: int, call: func.CallOp) -> SSAValue | None:
    """Move the write of stage argument #n before `call` (see _hoist_weights); its device value."""
    arg = stage.body.blocks.first.args[n]
    users = [u.operation for u in arg.uses]
    if len(users) != 1:
        return None
    write = users[0]
    stage_attr = IntegerAttr(i, i64)
    if isinstance(write, ttnn.DistributeTensorOp) and write.input is arg:
        new = ttnn.DistributeTensorOp.create(operands=[call.arguments[n]], result_types=[write.result.type],
                                             attributes={**write.attributes, STAGE_ATTR: stage_attr})
        new.location = write.location
        Rewriter.insert_op(new, InsertPoint.before(call))
        device_value = write.results[0]
        drop = [write]
    elif isinstance(write, ttmetal.EnqueueWriteBufferOp) and write.operands[0] is arg:
        create = write.operands[1].owner
        if not isinstance(create, ttmetal.CreateBufferOp):
            return None
        new_create = ttmetal.CreateBufferOp.create(result_types=[create.results[0].type],
                                                   attributes={**create.attributes, STAGE_ATTR: stage_attr})
        new_write = ttmetal.EnqueueWriteBufferOp.create(operands=[call.arguments[n], new_create.results[0]],
                                                        attributes={**write.attributes, STAGE_ATTR: stage_attr})
        new_create.location, new_write.location = create.location, write.location
        Rewriter.insert_op(new_create, InsertPoint.before(call))
        Rewriter.insert_op(new_write, InsertPoint.before(call))
        new = new_create
        device_value = create.results[0]
        drop = [write, create]
        for op in list(stage.body.blocks.first.ops):  # the buffer stays for the next microbatch
            if isinstance(op, ttmetal.DeallocateBufferOp) and op.operands[0] is device_value:
                op.detach()
                op.erase()
    else:
        return None
    Rewriter.replace_value_with_new_type(arg, device_value.type)
    device_value.replace_all_uses_with(stage.body.blocks.first.args[n])
    for op in drop:
        op.detach()
        op.erase()
    return new.results[0]
