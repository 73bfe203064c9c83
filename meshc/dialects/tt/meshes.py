"""The module's named meshes: `#tt.meshes<[<"mesh" = 1x2>]>` (tt-mlir's `#ttcore.meshes`).

tt-mlir writes the mesh a module runs on as the module attribute `ttcore.meshes`, a list of
named mesh shapes (its front ends put one there, `"mesh" = 1x2`). meshc reads it as the
module's mesh: the mesh the verifiers check collectives against before a device is attached,
and the mesh `tt-register-device` (and so both pipelines and `meshc-run`) derives the device
for when no `mesh-shape` is given. meshc runs a module on one mesh: a list of more than one is
a located error at the module, as is a `tt.device` whose mesh is another shape.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IntAttr, ModuleOp, StringAttr
from xdsl.ir import Attribute, Operation, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from meshc.dialects.checkers import register_op_checker

from meshc.errors import LocatedError
from meshc.dialects.tt.device import DeviceAttr
from meshc.dialects.tt.parsing import int_array, parse_dims, array_ints
from meshc.layout.shapes import fmt_shape as _shape_text

MESHES_ATTR = "tt.meshes"


@irdl_attr_definition
class MeshesAttr(ParametrizedAttribute):
    """`#tt.meshes<[<"mesh" = 1x2>]>`: named mesh shapes (`#ttcore.meshes` in tt-mlir)."""

    name = "tt.meshes"

    names: ArrayAttr[StringAttr]
    shapes: ArrayAttr[ArrayAttr[IntAttr]]

    def __init__(self, meshes: Sequence[tuple[str, Sequence[int]]]):
        super().__init__(ArrayAttr([StringAttr(n) for n, _ in meshes]), ArrayAttr([int_array(s) for _, s in meshes]))

    @property
    def meshes(self) -> list[tuple[str, tuple[int, ...]]]:
        return [(n.data, array_ints(s)) for n, s in zip(self.names.data, self.shapes.data)]

    def verify(self) -> None:
        names = [n for n, _ in self.meshes]
        if len(set(names)) != len(names):
            raise VerifyException(f"mesh names {names} must be unique")
        for n, shape in self.meshes:
            if not shape or any(s < 1 for s in shape):
                raise VerifyException(f"mesh \"{n}\" = {_shape_text(shape) or '<empty>'} must have positive sizes")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        def one() -> tuple[str, list[int]]:
            with parser.in_angle_brackets():
                name = parser.parse_str_literal(" (a mesh's name, as in <\"mesh\" = 1x2>)")
                parser.parse_punctuation("=")
                return name, parse_dims(parser, "a mesh shape")

        with parser.in_angle_brackets():
            meshes = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, one)
        return (ArrayAttr([StringAttr(n) for n, _ in meshes]), ArrayAttr([int_array(s) for _, s in meshes]))

    def print_parameters(self, printer: Printer) -> None:
        body = ", ".join(f'<"{n}" = {_shape_text(s)}>' for n, s in self.meshes)
        printer.print_string(f"<[{body}]>")


def module_meshes_shape(module: ModuleOp) -> tuple[int, ...] | None:
    """The mesh shape a module's `tt.meshes` names, or None without one (LocatedError when the
    attribute is not a `#tt.meshes` or lists other than one mesh)."""
    a = module.attributes.get(MESHES_ATTR)
    if a is None:
        return None
    if not isinstance(a, MeshesAttr):
        raise LocatedError(f"module attribute '{MESHES_ATTR}' must be a #tt.meshes<[<\"name\" = shape>]>, got {a}",
                           module)
    meshes = a.meshes
    if len(meshes) != 1:
        raise LocatedError(f"the module names {len(meshes)} meshes "
                           f"({', '.join(f'{n} = {_shape_text(s)}' for n, s in meshes) or 'none'}); "
                           "meshc runs a module on exactly one mesh", module)
    return meshes[0][1]


def _check_module_meshes(op: Operation) -> None:
    if not isinstance(op, ModuleOp):
        return
    shape = module_meshes_shape(op)
    device = op.attributes.get("tt.device")
    if shape is None or device is None:
        return
    if not isinstance(device, DeviceAttr):
        return  # the device checker names a tt.device of the wrong kind
    mesh = tuple(device.model().mesh_shape)
    if mesh != tuple(shape):
        raise LocatedError(f"the module's mesh (tt.meshes) is {_shape_text(shape)} but its tt.device has mesh "
                           f"{_shape_text(mesh)}; expected the same shape", op)


register_op_checker(_check_module_meshes)
