"""`tt-register-device`: attach `#tt.system_desc` and a derived `#tt.device` to the module.

Options: `system` = n150 | n300 | t3k | galaxy, or the path of a file holding a
`#tt.system_desc<...>` attribute (default: the smallest of those holding the mesh, n150 without
one); `mesh-shape` = the device mesh (default: the one the module's `tt.meshes` names, tt-mlir's
`#ttcore.meshes`, else the one its `#tt.sharding<..., mesh = 2x4>` annotations name, else the
system's chip mesh; a mesh-shape other than the module's own is a located error). A module whose
annotations shard over the module's mesh (`#tt.sharding<[S0, R]>`) while it names none and no
`mesh-shape` or `system` is given is a located error saying how to give the mesh
(meshc/passes/stated_mesh.py): on the default one-chip n150 its shardings would mean nothing.
The device is `derive_device(mesh, system=..., chip_ids=mesh_view_chips(system, mesh))`: a
mesh that fits the chip mesh takes the chips at the same coordinates (2x2 on a t3k's 2x4 is the
corner 0, 1, 4, 5, linked along both axes); a mesh whose shape differs but whose volume fits
(2x2x2 on a t3k) is a view of the first chips in row-major order, routed over the system's links. A mesh that needs more chips than the system has is a located error at the module, as
is a module that already carries a different `tt.device` (the pass never silently replaces it).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.parser import Parser
from xdsl.passes import ModulePass

from meshc.errors import LocatedError
from meshc.dialects.tt import (DEVICE_ATTR, TT, DeviceAttr, SystemDescAttr,
                               module_meshes_shape, set_module_device)
from meshc.layout.device import derive_device
from meshc.layout.errors import LayoutError
from meshc.layout.shapes import fmt_shape
from meshc.layout.system import SYSTEMS, default_system, mesh_view_chips, system
from meshc.passes.stated_mesh import first_unbound_split, no_mesh_error, stated_mesh


def load_system(spec: str, module: ModuleOp):
    """The SystemDesc named by `spec` (a system name or a file with a #tt.system_desc)."""
    if spec in SYSTEMS:
        return system(spec)
    if "/" not in spec and not spec.endswith(".mlir"):
        raise LocatedError(f"unknown system '{spec}'; expected one of {', '.join(SYSTEMS)} or a file path", module)
    try:
        with open(spec, encoding="utf-8") as f:
            text = f.read().strip()
    except OSError as e:
        raise LocatedError(f"cannot read system description '{spec}': {e.strerror}", module) from None
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(TT)
    try:
        attr = Parser(ctx, text, spec).parse_attribute()
    except Exception as e:  # a parse or verification error in the system file
        raise LocatedError(f"'{spec}' does not hold a valid #tt.system_desc: {str(e).strip().splitlines()[-1].strip()}", module) from None
    if not isinstance(attr, SystemDescAttr):
        raise LocatedError(f"'{spec}' holds {attr.name}, expected a #tt.system_desc attribute", module)
    return attr.model()


def check_mesh_fits(mesh: tuple[int, ...], sysdesc, system_name: str, module: ModuleOp) -> None:
    n = 1
    for s in mesh:
        n *= s
    if n > sysdesc.num_chips:
        raise LocatedError(
            f"mesh {fmt_shape(mesh)} needs {n} chips, but system '{system_name}' has {sysdesc.num_chips} "
            f"(chip mesh {fmt_shape(sysdesc.mesh_shape)})",
            module,
        )
    # Which chips the mesh takes is meshc.layout.system.mesh_view_chips: the chips at the same
    # coordinates when the mesh fits the chip mesh (a 2x2 on a t3k is the 2x2 corner, chips
    # 0, 1, 4, 5, linked along both axes), else a view of the first chips in row-major order.


@dataclass(frozen=True)
class RegisterDevicePass(ModulePass):
    name = "tt-register-device"

    system: str | None = None
    mesh_shape: tuple[int, ...] | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        named = module_meshes_shape(op)  # tt-mlir's #ttcore.meshes: the module's own mesh
        if named is not None and self.mesh_shape and tuple(self.mesh_shape) != tuple(named):
            raise LocatedError(f"the module's mesh (tt.meshes) is {fmt_shape(named)}; tt-register-device"
                               f"{{mesh-shape={','.join(map(str, self.mesh_shape))}}} would run it on "
                               f"{fmt_shape(self.mesh_shape)}", op)
        if named is None and not self.mesh_shape and op.attributes.get(DEVICE_ATTR) is None:
            named = stated_mesh(op)  # `#tt.sharding<..., mesh = 2x4>` states the program's mesh
            unbound = first_unbound_split(op) if named is None and self.system is None else None
            if unbound is not None:  # shardings over a mesh nobody named: never a guessed one
                raise no_mesh_error(*unbound)
        wanted = tuple(self.mesh_shape) if self.mesh_shape else named
        if self.system is not None:
            system_name, sysdesc = self.system, load_system(self.system, op)
        elif wanted is not None and all(s >= 1 for s in wanted):
            try:
                system_name, sysdesc = "the smallest system holding the mesh", default_system(wanted)
            except LayoutError as e:  # a mesh beyond every named system and beyond MAX_DEVICES
                raise LocatedError(f"no system for mesh {fmt_shape(wanted)}: {e}", op) from None
        else:
            system_name, sysdesc = "n150", load_system("n150", op)
        mesh = wanted if wanted is not None else tuple(sysdesc.mesh_shape)
        if any(s < 1 for s in mesh):
            raise LocatedError(f"mesh-shape {fmt_shape(mesh)} must have positive sizes", op)
        check_mesh_fits(mesh, sysdesc, system_name, op)
        try:
            device = derive_device(mesh, system=sysdesc, chip_ids=mesh_view_chips(sysdesc, mesh))
        except LayoutError as e:
            raise LocatedError(f"cannot derive a device for mesh {fmt_shape(mesh)} on '{system_name}': {e}", op) from None
        new = DeviceAttr.from_model(device)
        old = op.attributes.get(DEVICE_ATTR)
        if old is not None and old != new:
            raise LocatedError(
                f"the module already runs on the device {old}; tt-register-device{{system={system_name} "
                f"mesh-shape={','.join(map(str, mesh))}}} would replace it with {new}", op)
        set_module_device(op, device, sysdesc)

