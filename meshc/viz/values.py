"""Find a value of a ttir, ttnn or ttmetal module by name or number, and say where it lives.

Values are named as meshc-opt prints the module (`%x`, `%1`, `%arg0`), so `--value %1` picks
the value printed as `%1`. Where a value lives comes from the ops that state it:

* over the mesh: the op that moves it between the host and the devices
  (`ttir.mesh_shard`, `ttnn.distribute_tensor` / `ttnn.aggregate_tensor`,
  `ttmetal.enqueue_write_buffer` / `enqueue_read_buffer`: their `shard_dims`, one tensor dim
  or -1 per mesh axis, on the module's mesh), or a reshard's source / target spec. A value
  computed elementwise (relu, add, typecast, to_memory_config...) holds the same blocks as its
  operand, so the search follows such ops backwards, then forwards;
* inside a chip: the local tensor's `#ttnn.ttnn_layout`, or the `memory_config` (and tile) of
  the `ttmetal.create_buffer` that made the buffer.

The blocks, chips, cores and banks themselves are then computed by `meshc.layout` (through
`meshc.viz.model.mesh_view` and `meshc.layout.placement.place`).
"""

from __future__ import annotations

from io import StringIO

from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.printer import Printer

from meshc.layout.errors import LayoutError
from meshc.layout.mesh import ShardingSpec
from meshc.viz.model import MeshView, mesh_view
from meshc.layout.shapes import fmt_shape
from meshc.dialects.shape_rules import ints_of
from meshc.dialects import ttir, ttmetal, ttnn
from meshc.dialects.ttir import tensor_shape
from meshc.layout.memory_config import MemoryConfig
from meshc.layout.placement import place
from meshc.dialects.element_types import expect_data_type_name
from meshc.dialects.tt import module_device, module_mesh_shape
from meshc.layout.hardware import DEFAULT_ARCH

class ValueViewError(LayoutError):
    """A value that cannot be drawn, with the op it is about (`op`: the module, or the op defining
    the value) so that meshc-viz reports it at that op's line; None for a `--value` naming no
    value (an error about the command line)."""

    def __init__(self, message: str, op: Operation | None):
        super().__init__(message)
        self.op = op


def _owner(v: SSAValue) -> Operation:
    """The op that defines `v` (the op holding the block, for a block argument)."""
    op = v.owner if isinstance(v.owner, Operation) else v.owner.parent_op()
    assert op is not None
    return op


_SAME_BLOCKS = (ttir.ElementwiseUnaryBase, ttir.ElementwiseBinaryBase, ttir.ToLayoutOp, ttnn.ToLayoutOp,
                ttnn.ToMemoryConfigOp)
"""Ops whose result holds the same blocks as their operand: elementwise ops and layout changes."""


def value_names(module: ModuleOp) -> list[tuple[str, SSAValue]]:
    """Every value of the module with the name meshc-opt prints for it, in print order."""
    printer = Printer(stream=StringIO())
    printer.print_op(module)
    names = printer._ssa_values  # pyright: ignore[reportPrivateUsage]  (xDSL's own naming)
    order = []
    for op in module.walk():
        for region in op.regions:
            for block in region.blocks:
                order += list(block.args)
        order += list(op.results)
    return [("%" + names[v], v) for v in order if v in names]


def find_value(module: ModuleOp, key: str | None, wanted=None) -> tuple[str, SSAValue]:
    """The value printed as `key` (`%1`, `1`, `%x`, `x`); without a key, the first value for
    which `wanted(value)` holds. LayoutError naming the values there are otherwise."""
    named = value_names(module)
    if key is not None:
        k = key if key.startswith("%") else "%" + key
        for name, v in named:
            if name == k:
                return name, v
        shown = ", ".join(n for n, _ in named[:40]) + (", ..." if len(named) > 40 else "")
        raise ValueViewError(f"no value {k} in the module; its values are {shown or 'none'}", None)
    for name, v in named:
        if wanted is None or wanted(v):
            return name, v
    raise ValueViewError("the module has no tensor value to draw", module)


def _ints(attr) -> tuple[int, ...]:
    return tuple(ints_of(attr))


def _boundary(op: Operation) -> tuple[SSAValue, SSAValue] | None:
    """(global host value, per-device value) of an op moving a tensor between host and mesh."""
    if isinstance(op, ttir.MeshShardOp):
        return (op.operands[0], op.results[0]) if op.is_full_to_shard else (op.results[0], op.operands[0])
    if isinstance(op, ttnn.DistributeTensorOp):
        return op.operands[0], op.results[0]
    if isinstance(op, ttmetal.EnqueueWriteBufferOp):
        return op.operands[0], op.operands[1]
    if isinstance(op, (ttnn.AggregateTensorOp, ttmetal.EnqueueReadBufferOp)):
        return op.results[0], op.operands[0]
    return None


def _is_elementwise(op: Operation) -> bool:
    return isinstance(op, _SAME_BLOCKS)


def _spec_at(v: SSAValue, mesh: tuple[int, ...]) -> tuple[ShardingSpec, tuple[int, ...], bool] | None:
    """(spec, global shape, v is per-device) from an op defining or using v, if one states it."""
    ops = ([v.owner] if isinstance(v.owner, Operation) else []) + [u.operation for u in v.uses]
    for op in ops:
        ends = _boundary(op)
        if ends is not None and v in ends:
            full, local = ends
            shape = tensor_shape(full)
            return op.sharding(mesh), shape, v is local
        if hasattr(op, "specs") and "source" in op.attributes and op.operands and op.results:
            src, tgt = op.specs()
            spec = tgt if v is op.results[0] else src if v is op.operands[0] else None
            if spec is not None:
                local = tensor_shape(v)
                return spec, tuple(n * spec.num_pieces(d) for d, n in enumerate(local)), True
    return None


def _same_blocks(v: SSAValue):
    """Values holding the same blocks as v: elementwise operands first, then results."""
    seen, queue = {v}, [v]
    while queue:
        x = queue.pop(0)
        yield x
        near = []
        if isinstance(x.owner, Operation) and _is_elementwise(x.owner):
            near += [o for o in x.owner.operands if tensor_shape(o) == tensor_shape(x)]
        near += [u.operation.results[0] for u in x.uses if _is_elementwise(u.operation) and u.operation.results]
        for y in near:
            if y not in seen:
                seen.add(y)
                queue.append(y)


def _local_placement(v: SSAValue, arch: str):
    """The Placement of a per-device value on its chip, from its ttnn layout or its buffer."""
    t = v.type
    enc = getattr(t, "encoding", None)
    if isinstance(t, TensorType) and isinstance(enc, ttnn.TTNNLayoutAttr):
        if enc.memory_config.is_host:
            return None
        return enc.place(tensor_shape(v), arch=arch)
    owner = v.owner
    if isinstance(owner, ttmetal.CreateBufferOp):
        cfg = owner.memory_config.model()
        assert isinstance(cfg, MemoryConfig)
        tile = _ints(owner.tile) if owner.tile is not None else None
        return place(tensor_shape(v), expect_data_type_name(t.element_type), cfg, tile=tile, arch=arch)
    return None


def _type_text(v: SSAValue) -> str:
    kind = "tensor" if isinstance(v.type, TensorType) else "buffer"
    return f"{kind}<{fmt_shape(tensor_shape(v))}x{v.type.element_type}>"


def describe_value(module: ModuleOp, key: str | None, arch: str = DEFAULT_ARCH) -> MeshView | tuple:
    """A MeshView of the value `key` (default: the first one with a mesh placement or a chip
    layout), or ("chip", Placement, label) for a value on a one-device module."""
    dev = module_device(module)
    mesh = module_mesh_shape(module) or (1,)  # its tt.device's, else its tt.meshes' (as the passes read it)
    chips = tuple(int(c) for c in dev.chip_ids) if dev is not None else None

    def drawable(v: SSAValue) -> bool:
        if not hasattr(v.type, "get_shape"):
            return False
        return any(_spec_at(x, mesh) for x in _same_blocks(v)) or _local_placement(v, arch) is not None

    name, v = find_value(module, key, drawable)
    if not hasattr(v.type, "get_shape"):
        raise ValueViewError(f"{name} is a {v.type}, not a tensor or a buffer", _owner(v))
    label = f"{name}: {_type_text(v)}"
    for x in _same_blocks(v):
        found = _spec_at(x, mesh)
        if found is not None:
            spec, shape, per_device = found
            local = _local_placement(v, arch) if per_device else None
            what = "a block on every device" if per_device else "the host tensor, as distributed"
            return mesh_view(shape, spec, chips=chips, label=f"{label} ({what})",
                             dtype=None, local=local)
    p = _local_placement(v, arch)
    if p is not None:
        alone = max(mesh) == 1
        return ("chip", p, label if alone else label + " (one device's piece: no op states its mesh placement)")
    raise ValueViewError(f"{name} ({v.type}) has no placement to draw: no op moving it between host and mesh, "
                         f"no reshard and no ttnn layout or buffer config says where it lives", _owner(v))
