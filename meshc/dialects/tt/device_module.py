"""`tt.device_module` (tt-mlir's `ttcore.device_module`): the wrapper tt-mlir puts around the module
of functions that run on the device, `ttcore.device_module { module { func.func ... } }`.

meshc runs every function of a module on its device, so the wrapper says nothing meshc needs:
`flatten_device_module` (run by the driver after parsing, with ttmlir_spelling's normalization)
lifts the inner module's functions and attributes into the outer module. tt-mlir's
`ttcore.cpu_module` (functions hoisted to the host CPU) has no meaning in meshc's simulator and is
not registered: it is refused, located, by the parser.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.irdl import IRDLOperation, irdl_op_definition, region_def, traits_def
from xdsl.traits import IsolatedFromAbove, NoTerminator

from meshc.errors import LocatedError


@irdl_op_definition
class DeviceModuleOp(IRDLOperation):
    name = "tt.device_module"

    body = region_def("single_block")
    traits = traits_def(IsolatedFromAbove(), NoTerminator())
    assembly_format = "attr-dict-with-keyword $body"

    def verify_(self) -> None:
        self.inner_module()

    def inner_module(self) -> ModuleOp:
        """The one builtin.module the wrapper holds; LocatedError when it holds anything else."""
        ops = [op for b in self.body.blocks for op in b.ops]  # `.block` raises on several blocks
        if len(ops) != 1 or not isinstance(ops[0], ModuleOp):
            raise LocatedError("a device_module holds exactly one builtin.module (the device's functions)", self)
        return ops[0]


def flatten_device_module(module: ModuleOp) -> None:
    """Lift the functions and attributes of `module`'s device_module into `module` (in place)."""
    wrappers = [op for b in module.body.blocks for op in b.ops if isinstance(op, DeviceModuleOp)]
    if not wrappers:
        return
    if len(wrappers) > 1:
        raise LocatedError("a module holds one ttcore.device_module; this one holds "
                           f"{len(wrappers)}", wrappers[1])
    wrapper = wrappers[0]
    inner = wrapper.inner_module()
    for key, value in inner.attributes.items():
        old = module.attributes.get(key)
        if old is not None and old != value:
            raise LocatedError(f"the device module's {key} = {value} differs from the outer module's {old}", inner)
        module.attributes[key] = value
    for op in list(inner.body.block.ops):
        op.detach()
        module.body.block.insert_op_before(op, wrapper)
    wrapper.detach()
    wrapper.erase()
