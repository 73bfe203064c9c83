"""Where any value of a program lives, the compiler's choice included: what `meshc-viz FILE
--value %NAME` and `meshc.visualize_value` draw.

meshc.viz.values reads a placement off the ops that state it (host <-> mesh moves, reshards,
layouts). A value of a global-view program (docs/propagation.md) has no such op: its sharding
is what `ttir-propagate-sharding` chooses, so the pass runs here on a copy of the program, and
the value is drawn over the mesh with that sharding (a partial sum
included). A value of a lowered or partitioned program that only says how one device holds its
piece (an intermediate such as a matmul's result) is looked up by name in the global-view program
the lowering kept as its reference (meshc/dialects/reference.py): the sharding chosen there,
over the global shape, with the chip layout of the lowered value. Such lookups live here, in the
tools layer, because the viz layer sits below the passes.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue

from meshc.dialects.reference import find_reference, is_reference
from meshc.dialects.tt import module_device
from meshc.errors import LocatedError
from meshc.layout.hardware import DEFAULT_ARCH
from meshc.layout.mesh import ShardingSpec
from meshc.layout.shapes import ceil_div, fmt_shape
from meshc.passes.propagate_sharding import propagate_module
from meshc.passes.sharding_ir import chosen_specs as op_chosen_specs
from meshc.passes.sharding_ir import function_specs, is_global_view, mesh_of
from meshc.viz import show
from meshc.viz.chip_picture import render_chip_png
from meshc.viz.chip_text import render_chip_text
from meshc.viz.model import MeshView, mesh_view
from meshc.viz.values import ValueViewError, describe_value, find_value, value_names

CHOSEN = "the sharding ttir-propagate-sharding chooses"


def chosen_specs(module: ModuleOp) -> dict[SSAValue, ShardingSpec]:
    """The sharding propagation gives every value of a global-view program on more than one
    device (arguments as annotated, else replicated): ttir-propagate-sharding runs on a copy and
    its choices are read back onto the values of `module`; {} for any other program."""
    dialects = {op.dialect_name() for top in module.body.ops if not is_reference(top) for op in top.walk()}
    if (dialects & {"ttnn", "ttmetal"} or "ttir" not in dialects or not is_global_view(module)
            or module_device(module) is None or mesh_of(module).size == 1):
        return {}
    copy = module.clone()
    try:
        if not propagate_module(copy):
            return {}
    except LocatedError as e:  # an op propagation has no rule for: at the op of `module`
        twin = dict(zip(copy.walk(), module.walk())).get(e.op, module)
        raise ValueViewError(f"cannot choose the program's shardings: {e.message}", twin) from None
    mesh = mesh_of(module)
    chosen: dict[SSAValue, ShardingSpec] = {}
    for op, twin in zip(module.walk(), copy.walk()):  # the pass adds attributes only: same ops, same order
        if isinstance(twin, func.FuncOp) and twin.body.blocks:
            ins, _ = function_specs(twin, mesh)
            chosen.update(zip(op.body.blocks.first.args, ins))
        specs = op_chosen_specs(twin)
        if specs is not None:
            chosen.update(zip(op.results, specs))
    return chosen


def _chips(module: ModuleOp) -> tuple[int, ...] | None:
    dev = module_device(module)
    return tuple(int(c) for c in dev.chip_ids) if dev is not None else None


def _type_text(v: SSAValue) -> str:
    return f"tensor<{fmt_shape(tuple(v.type.get_shape()))}x{v.type.element_type}>"


def _from_reference(module: ModuleOp, name: str, local, local_shape) -> MeshView | None:
    """The value called `name` in the global-view program `module` was lowered from, drawn with
    the sharding chosen there, when its pieces have `local_shape`; None otherwise."""
    ref = find_reference(module)
    if ref is None:
        return None
    chosen = chosen_specs(ref)
    match = next((v for n, v in value_names(ref) if n == name and v in chosen), None)
    if match is None:
        return None
    spec, shape = chosen[match], tuple(match.type.get_shape())
    if tuple(ceil_div(n, spec.num_pieces(d)) for d, n in enumerate(shape)) != tuple(local_shape):
        return None
    return mesh_view(shape, spec, chips=_chips(module), dtype=None, local=local,
                     label=f"{name}: {_type_text(match)} ({CHOSEN} in the program it was lowered from)")


def describe_program_value(module: ModuleOp, key: str | None, arch: str = DEFAULT_ARCH) -> MeshView | tuple:
    """A MeshView of the value `key` (`%x`, `%1`; default: the first value with a placement),
    or ("chip", Placement, label) for a value on one device; see the module docstring."""
    chosen = chosen_specs(module)
    if chosen:
        name, v = find_value(module, key, lambda x: x in chosen)
        if v not in chosen:
            raise ValueViewError(f"{name} is not a tensor of the program's functions", None)
        return mesh_view(tuple(v.type.get_shape()), chosen[v], chips=_chips(module), dtype=None,
                         label=f"{name}: {_type_text(v)} ({CHOSEN})")
    try:
        view = describe_value(module, key, arch)
    except ValueViewError:
        if key is None:
            raise
        name, v = find_value(module, key)
        found = _from_reference(module, name, None, tuple(v.type.get_shape())) \
            if hasattr(v.type, "get_shape") else None
        if found is None:
            raise
        return found
    if isinstance(view, tuple) and key is not None and "one device's piece" in view[2]:
        name, _ = find_value(module, key)
        found = _from_reference(module, name, view[1], view[1].shape)
        if found is not None:
            return found
    return view


def show_program_value(module: ModuleOp, key: str | None, output: str | None = None, text: bool | None = None):
    """Print (tables) and / or draw (`output`, .png or .svg) the value `key` of `module`, as
    meshc-viz does; returns the MeshView, or the Placement of a value on one chip."""
    view = describe_program_value(module, key)
    show_text = text if text is not None else output is None
    if isinstance(view, tuple):
        _, placement, label = view
        if show_text:
            render_chip_text(placement, label)
        if output:
            render_chip_png(placement, label, output)
        return placement
    return show(view, output, show_text)
