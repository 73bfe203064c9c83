"""Where any value of a program lives, the compiler's choice included: what `meshc-viz FILE
--value %NAME` and `meshc.visualize_value` draw.

meshc.viz.values reads a placement off the ops that state it (host <-> mesh moves, reshards,
layouts). A value of a global-view program (docs/propagation.md) has no such op: its sharding
is what `ttir-propagate-sharding` chooses, so the pass runs here on a copy of the program, and
the value is drawn over the mesh with that sharding (a partial sum included). A value of a
lowered program that only says how one device holds its piece (an intermediate such as a
matmul's result) is looked up by name in the program the lowering kept as its reference
(meshc/dialects/reference.py): the sharding it has there, over the global shape, with the chip
layout of the lowered value. In an SPMD ttir program (the
output of ttir-partition, or written by hand) an intermediate's sharding follows from its
operands': from the specs the `mesh_shard` and reshard ops state, each op's sharding rule
(meshc.layout.sharding_rules, read on the per-device shapes) gives its results' specs, and
`all_reduce` / `all_gather` take their mesh axis out of the partial sums / the gathered dim
(`spmd_specs`). Such lookups live here, in the tools layer, because the viz layer sits below the
passes.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import SSAValue

from meshc.dialects.reference import find_reference, is_reference
from meshc.dialects.tt import module_device, module_mesh_shape
from meshc.dialects.ttir.base import int_value
from meshc.errors import LocatedError
from meshc.layout.hardware import DEFAULT_ARCH
from meshc.layout.errors import LayoutError
from meshc.layout.mesh import ShardingSpec
from meshc.layout.shapes import ceil_div, fmt_shape
from meshc.passes.propagate_sharding import propagate_module
from meshc.passes.sharding_ir import chosen_specs as op_chosen_specs
from meshc.passes.sharding_ir import function_specs, is_global_view, mesh_of, op_rule
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
            or module_mesh_shape(module) is None or mesh_of(module).size == 1):
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


def spmd_specs(module: ModuleOp) -> dict[SSAValue, tuple[ShardingSpec, tuple[int, ...]]]:
    """(spec, global shape) of every per-device value of an SPMD ttir program whose placement
    follows from the ops that state one (see the module docstring); {} when the module has no mesh."""
    if module_mesh_shape(module) is None:
        return {}
    names = {v: n for n, v in value_names(module)}
    known: dict[SSAValue, tuple[ShardingSpec, tuple[int, ...]]] = {}
    for f in module.body.ops:
        if not isinstance(f, func.FuncOp) or not f.body.blocks:
            continue
        for op in f.body.blocks.first.ops:
            found = _spmd_step(op, known)
            if found is None and op.results and op.name in ("ttir.mesh_shard", "ttir.reshard") \
                    and op.results[0] in names:
                try:
                    view = describe_value(module, names[op.results[0]])
                except (ValueViewError, LayoutError):
                    view = None
                if isinstance(view, MeshView) and "a block on every device" in view.label:
                    found = [(view.spec, view.shape)]
            for v, got in zip(op.results, found or ()):
                known[v] = got
    return known


def _spmd_step(op, known) -> list | None:
    """The (spec, global shape) of `op`'s results from its operands', or None."""
    tensors = [v for v in op.operands if isinstance(v.type, TensorType)]
    if not tensors or any(v not in known for v in tensors) or not op.name.startswith("ttir."):
        return None
    if op.name in ("ttir.all_reduce", "ttir.all_gather"):
        spec, shape = known[op.operands[0]]
        axis = int_value(op.attributes["cluster_axis"])
        if op.name == "ttir.all_reduce":
            return [(ShardingSpec(spec.mesh, spec.dims, tuple(a for a in spec.partial if a != axis)), shape)]
        d = int_value(op.attributes["all_gather_dim"]) % len(spec.dims)
        dims = tuple(tuple(a for a in ax if a != axis) if i == d else ax for i, ax in enumerate(spec.dims))
        return [(ShardingSpec(spec.mesh, dims, spec.partial), shape)]
    given = {i: known[v][0] for i, v in enumerate(op.operands) if v in known}
    try:  # another collective, a mesh_shard or a reshard has no sharding rule: LayoutError, not derived
        specs = op_rule(op).merge(given)
        if specs is None:
            return None
        shapes = {v: known[v][1] for v in op.operands if v in known}
        for v, spec in zip(op.results, specs):
            shapes[v] = tuple(n * spec.num_pieces(d) for d, n in enumerate(v.type.get_shape()))
        # the devices compute a piece of the global op only when these operand pieces are the
        # ones its rule needs for those results (a softmax over a split dim, or per-example
        # attention written by hand, is not a partition of one global op: left unknown)
        need = op_rule(op, shape_of=lambda v: shapes.get(v, tuple(v.type.get_shape()))).require(specs)
    except (LocatedError, LayoutError):
        return None
    if need is None or any(need[i] != spec for i, spec in given.items()):
        return None
    return [(spec, shapes[v]) for v, spec in zip(op.results, specs)]


def _chips(module: ModuleOp) -> tuple[int, ...] | None:
    dev = module_device(module)
    return tuple(int(c) for c in dev.chip_ids) if dev is not None else None


def _type_text(v: SSAValue) -> str:
    return f"tensor<{fmt_shape(tuple(v.type.get_shape()))}x{v.type.element_type}>"


def _from_reference(module: ModuleOp, name: str, local, local_shape) -> MeshView | None:
    """The value called `name` in the program `module` was lowered from, drawn with the sharding
    chosen there (a global-view program) or derived there (an SPMD one), when its pieces have
    `local_shape`; None otherwise."""
    ref = find_reference(module)
    if ref is None:
        return None
    chosen = {v: (spec, tuple(v.type.get_shape())) for v, spec in chosen_specs(ref).items()}
    how = f"{CHOSEN} in the program it was lowered from"
    if not chosen:
        chosen, how = spmd_specs(ref), "the sharding it has in the program it was lowered from"
    match = next((v for n, v in value_names(ref) if n == name and v in chosen), None)
    if match is None:
        return None
    spec, shape = chosen[match]
    if tuple(ceil_div(n, spec.num_pieces(d)) for d, n in enumerate(shape)) != tuple(local_shape):
        return None
    return mesh_view(shape, spec, chips=_chips(module), dtype=None, local=local,
                     label=f"{name}: tensor<{fmt_shape(shape)}x{match.type.element_type}> ({how})")


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
        found = (_from_reference(module, name, None, tuple(v.type.get_shape())) or _from_spmd(module, name, v, None)) \
            if hasattr(v.type, "get_shape") else None
        if found is None:
            raise
        return found
    if isinstance(view, tuple) and key is not None and "one device's piece" in view[2]:
        name, v = find_value(module, key)
        found = _from_reference(module, name, view[1], view[1].shape) or _from_spmd(module, name, v, view[1])
        if found is not None:
            return found
    return view


def _from_spmd(module: ModuleOp, name: str, v: SSAValue, local) -> MeshView | None:
    """The value `v` of an SPMD program over its whole tensor, with the sharding its operands'
    give it (`spmd_specs`), or None."""
    found = spmd_specs(module).get(v)
    if found is None:
        return None
    spec, shape = found
    return mesh_view(shape, spec, chips=_chips(module), dtype=None, local=local,
                     label=f"{name}: {_type_text(v)} (a block on every device, placed as its operands "
                           "place it)")


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
