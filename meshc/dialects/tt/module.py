"""The module's device and system: the `tt.device` and `tt.system_desc` attributes of the builtin
module, read with `module_device` / `module_system`, written with `set_module_device`, and
checked against each other (a registered op checker).

A pipelined module carries several virtual devices instead, `tt.devices = [#tt.device<...>, ...]`
(tt-mlir's Device spec, "Pipeline Parallel"), and a function carrying `tt.stage = i` runs on
`tt.devices[i]`: `module_devices`, `stage_index`, and `mesh_shape_of` (an op in a stage is
verified against its stage's mesh). Their legality is checked in pipeline.py."""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ModuleOp
from xdsl.ir import Operation

from meshc.dialects.checkers import register_op_checker

from meshc.errors import LocatedError
from meshc.dialects.tt.device import DeviceAttr, SystemDescAttr
from meshc.dialects.tt.meshes import module_meshes_shape
from meshc.layout.device import Device
from meshc.layout.errors import LayoutError
from meshc.layout.system import SystemDesc, default_system


DEVICE_ATTR = "tt.device"
SYSTEM_DESC_ATTR = "tt.system_desc"
DEVICES_ATTR = "tt.devices"
STAGE_ATTR = "tt.stage"
MICROBATCHES_ATTR = "tt.microbatches"
BATCH_ARG_ATTR = "tt.batch"


def _module_model(module: ModuleOp, key: str, cls: type[DeviceAttr] | type[SystemDescAttr]):
    """The model of the module attribute `key`, which must be a `cls` when present, or None."""
    a = module.attributes.get(key)
    if a is None:
        return None
    if not isinstance(a, cls):
        raise LocatedError(f"module attribute '{key}' must be a #{cls.name}<...>, got {a}", module)
    return a.model()


def module_device(module: ModuleOp) -> Device | None:
    """The device of a module (its `tt.device` attribute), or None."""
    return _module_model(module, DEVICE_ATTR, DeviceAttr)


def module_devices(module: ModuleOp) -> list[Device] | None:
    """The virtual devices of a pipelined module (its `tt.devices`), or None."""
    a = module.attributes.get(DEVICES_ATTR)
    if a is None:
        return None
    if not isinstance(a, ArrayAttr) or not all(isinstance(d, DeviceAttr) for d in a.data):
        raise LocatedError(f"module attribute '{DEVICES_ATTR}' must be a list of #tt.device<...>, got {a}", module)
    return [d.model() for d in a.data]


def stage_index(f: Operation) -> int | None:
    """The pipeline stage a function is (its `tt.stage`), or None."""
    a = f.attributes.get(STAGE_ATTR)
    if a is None:
        return None
    if not isinstance(a, IntegerAttr):
        raise LocatedError(f"'{STAGE_ATTR}' must be an integer (the stage's index into tt.devices), got {a}", f)
    return int(a.value.data)


def microbatches_of(f: Operation) -> int:
    """How many microbatches a pipelined module's host function splits its batch into (its
    `tt.microbatches`; 1 without one)."""
    a = f.attributes.get(MICROBATCHES_ATTR)
    if a is None:
        return 1
    if not isinstance(a, IntegerAttr) or int(a.value.data) < 1:
        raise LocatedError(f"'{MICROBATCHES_ATTR}' must be a positive integer, got {a}", f)
    return int(a.value.data)


def batch_args(f: func.FuncOp) -> list[int]:
    """The arguments of a host function that carry the batch (marked `tt.batch`): split along
    dim 0 into the microbatches."""
    if f.arg_attrs is None:
        return []
    return [i for i, d in enumerate(f.arg_attrs.data) if BATCH_ARG_ATTR in d.data]


def stage_device(op: Operation) -> Device | None:
    """The virtual device of the pipeline stage an op is in (or runs on: a host function's op
    marked `tt.stage`, a stage's weight written before its calls), or None (not in a stage, or an
    index outside tt.devices: pipeline.py reports it)."""
    if not isinstance(op, func.FuncOp) and STAGE_ATTR in op.attributes:
        module = enclosing_module(op)
        devices = None if module is None else module_devices(module)
        i = stage_index(op)
        return devices[i] if devices is not None and i is not None and 0 <= i < len(devices) else None
    f = op if isinstance(op, func.FuncOp) else op.parent_op()
    while f is not None and not isinstance(f, func.FuncOp):
        f = f.parent_op()
    if f is None or STAGE_ATTR not in f.attributes:
        return None
    module = enclosing_module(f)
    devices = None if module is None else module_devices(module)
    i = stage_index(f)
    return devices[i] if devices is not None and i is not None and 0 <= i < len(devices) else None


def module_mesh_shape(module: ModuleOp) -> tuple[int, ...] | None:
    """The module's mesh: its device's, else the one its `tt.meshes` names (tt-mlir's
    `#ttcore.meshes`, meshes.py), or None when it has neither."""
    device = module_device(module)
    if device is not None:
        return tuple(int(n) for n in device.mesh_shape)
    return module_meshes_shape(module)


def enclosing_module(op: Operation) -> ModuleOp | None:
    """The builtin module an op is in (the op itself when it is one), or None when detached."""
    cur: Operation | None = op
    while cur is not None and not isinstance(cur, ModuleOp):
        cur = cur.parent_op()
    return cur


def mesh_shape_of(op: Operation) -> tuple[int, ...] | None:
    """The mesh an op is verified against: the `tt.device` of its module, else its `tt.meshes`.

    None when the op is detached or its module has no device yet: the mesh-dependent checks
    wait until `tt-register-device` attaches one (at run time such a module runs on one
    device, docs/contracts.md).
    """
    module = enclosing_module(op)
    if module is None:
        return None
    if DEVICES_ATTR in module.attributes:
        device = stage_device(op)
        return None if device is None else tuple(int(n) for n in device.mesh_shape)
    return module_mesh_shape(module)


def system_or_default(module: ModuleOp) -> SystemDesc:
    """The system the module runs on: its `tt.system_desc`, else the one a program on its device
    runs on (meshc.layout.system.default_system; one device when it has no device)."""
    sysdesc = module_system(module)
    if sysdesc is not None:
        return sysdesc
    device = module_device(module)
    return default_system((1,) if device is None else tuple(device.mesh_shape), () if device is None else device.chip_ids)


def module_system(module: ModuleOp) -> SystemDesc | None:
    """The system of a module (its `tt.system_desc` attribute), or None."""
    return _module_model(module, SYSTEM_DESC_ATTR, SystemDescAttr)


def set_module_device(module: ModuleOp, device: Device, sysdesc: SystemDesc | None = None) -> None:
    """Attach a device (and optionally its system) to a module, verifying one against the other."""
    sysdesc = sysdesc if sysdesc is not None else module_system(module)
    try:
        device.verify(system=sysdesc)
    except LayoutError as e:
        raise LocatedError(f"device does not fit the system: {e}", module) from e
    if sysdesc is not None:
        module.attributes[SYSTEM_DESC_ATTR] = SystemDescAttr.from_model(sysdesc)
    module.attributes[DEVICE_ATTR] = DeviceAttr.from_model(device)


def verify_module(module: ModuleOp) -> None:
    """The module's device against its system (or 8x8 chips when it has none): LocatedError if not legal.
    Each attribute must be of its kind even when the other is absent (a `tt.system_desc` holding a
    #tt.device is refused here, not when a pass or the simulator first reads it)."""
    sysdesc = module_system(module)
    device = module_device(module)
    if device is None:
        return
    try:
        device.verify(system=sysdesc)
    except LayoutError as e:
        where = "the module's #tt.system_desc" if sysdesc is not None else "8x8 chips (no tt.system_desc)"
        raise LocatedError(f"'{DEVICE_ATTR}' is not a legal device on {where}: {e}", module) from e


def _check_module_device(op: Operation) -> None:
    if isinstance(op, ModuleOp):
        verify_module(op)


register_op_checker(_check_module_device)
