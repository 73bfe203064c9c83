"""The module's device and system: the `tt.device` and `tt.system_desc` attributes of the builtin
module, read with `module_device` / `module_system`, written with `set_module_device`, and
checked against each other (a registered op checker)."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
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
    return None if module is None else module_mesh_shape(module)


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
    """The module's device against its system (or 8x8 chips when it has none): LocatedError if not legal."""
    device = module_device(module)
    if device is None:
        return
    sysdesc = module_system(module)
    try:
        device.verify(system=sysdesc)
    except LayoutError as e:
        where = "the module's #tt.system_desc" if sysdesc is not None else "8x8 chips (no tt.system_desc)"
        raise LocatedError(f"'{DEVICE_ATTR}' is not a legal device on {where}: {e}", module) from e


def _check_module_device(op: Operation) -> None:
    if isinstance(op, ModuleOp):
        verify_module(op)


register_op_checker(_check_module_device)
