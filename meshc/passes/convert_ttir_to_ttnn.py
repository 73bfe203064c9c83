"""`convert-ttir-to-ttnn`: lower ttir to TTNN's API level.

* The module's `#tt.device` must be one TTNN can open: its worker grid map must be the one
  `derive_device` gives for its mesh (TTNN knows only meshes of chips side by side); any
  other map (a staircase, a transposed device grid) is a located error naming the reason.
* Every func gets a `ttnn.get_device` for the mesh. `ttir.mesh_shard` becomes
  `ttnn.distribute_tensor` (full_to_shard) / `ttnn.aggregate_tensor` (shard_to_full) with the
  TTNN mesh mapper and its ShardedBufferConfig: the faithful 2-d form when TT-Mesh's 2-d
  sharding infra expresses the mapper, else the ND form (`form = "2d"` / `"nd"`).
* A host tensor (function argument) used on the device goes there with `ttnn.to_device`
  (one device) or a replicating `ttnn.distribute_tensor` (a mesh); a device tensor returned
  comes back with `ttnn.from_device` (on a mesh the result stays distributed: one host tensor a
  device; `ttir.mesh_shard shard_to_full` assembles one host tensor instead).
* Compute ops and collectives become the ttnn ops `TTIR_TO_TTNN` (convert_ttir_to_ttnn_table.py)
  names for them; `ttir.to_layout` becomes
  `ttnn.to_memory_config`. Every `#tt.metal_layout` becomes a `#ttnn.ttnn_layout` whose
  memory config comes from the layout: L1 grids block-sharded (col_major when the grid is
  reinterpreted as transposed by `ttir-reinterpret-grid`), DRAM interleaved. Layouts TTNN
  cannot hold (a DRAM grid larger than 1x1, a non-transposing core map, a grid of rank > 2)
  are located errors.

Each func's ops, as they were before the pass, are lowered once each in program order by one
function an op family (mesh_shard, to_layout, the table's one-for-one ops, func.return; a ttir
op none of them lowers is a located error), each new op inserted where the op was: what xDSL's
PatternRewriteWalker did with one pattern a family (apply_recursively=False), without its
worklist and listener bookkeeping.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import AffineMapAttr, DenseArrayBase, ModuleOp, TensorType, i64
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from meshc.errors import LocatedError
from meshc.dialects import ttir, ttnn
from meshc.dialects.tt.enums import presharded
from meshc.layout.device import derive_device
from meshc.layout.errors import LayoutError
from meshc.layout.mesh import Mesh
from meshc.layout.sharding_rules import replicated
from meshc.layout.shapes import fmt_shape
from meshc.passes.convert_ttir_to_ttnn_table import SPECIAL_OPS, TTIR_TO_TTNN
from meshc.passes.lowering_utils import (
    check_host_distributions,
    reads_back_to_distribute,
    whole_values,
    distribution_attrs,
    encoding_of,
    fix_function_types,
    host_type,
    memory_config_for,
    module_device_model,
    module_mesh,
    prod,
    with_encoding,
)

# ----------------------------------------------------------------------------- what TTNN can hold


def check_ttnn_device(module: ModuleOp) -> None:
    """TTNN opens a mesh of chips side by side: the device map must be the derived one."""
    dev = module_device_model(module)
    if dev is None:
        return
    try:
        ref = derive_device(dev.mesh_shape, chip_ids=dev.chip_ids)
    except LayoutError as e:
        raise LocatedError(f"TTNN cannot open the device: {e}", module) from None
    same = tuple(ref.grid_shape) == tuple(dev.grid_shape) and np.array_equal(ref.locate_all(), dev.locate_all())
    if not same:
        raise LocatedError(
            f"TTNN cannot realise the device grid {fmt_shape(dev.grid_shape)} with map {dev.mapping}: "
            f"TTNN opens a mesh of chips side by side with the map {ref.mapping} for mesh "
            f"{fmt_shape(dev.mesh_shape)}; lower this device with convert-ttir-to-ttmetal instead",
            module,
        )


# ----------------------------------------------------------------------------- lowering state


def _presharded_arg(v: SSAValue) -> bool:
    """Whether `v` is a function argument tt-mlir marks presharded (one piece a device)."""
    f = v.owner.parent_op() if isinstance(v, BlockArgument) else None
    return (isinstance(f, func.FuncOp) and f.arg_attrs is not None
            and presharded(f.arg_attrs.data[v.index]))


@dataclass
class TTNNLowering:
    """What the lowering of one func's ops shares: the module's mesh, the func's
    `ttnn.get_device`, the host arguments already moved to the device, and the device values
    the pass made (a `func.return` of one brings it back to the host)."""

    mesh: tuple[int, ...]
    device_op: Operation
    type_cache: dict
    on_device: dict[SSAValue, SSAValue] = field(default_factory=dict)
    device_values: set[SSAValue] = field(default_factory=set)
    whole: set[SSAValue] = field(default_factory=set)
    """Values that are whole tensors every device holds (lowering_utils.whole_values), as lowered."""

    @property
    def multi(self) -> bool:
        return prod(self.mesh) > 1

    def to_device(self, v: SSAValue, user: Operation) -> SSAValue:
        """A host value (function argument) moved to the device, once, right after get_device."""
        hit = self.on_device.get(v)
        if hit is not None:
            return hit
        t = v.type
        device = self.device_op.results[0]
        if self.multi and not _presharded_arg(v):
            attrs = distribution_attrs(t, replicated(Mesh(self.mesh), len(t.get_shape())), user)
            new = ttnn.DistributeTensorOp.create(operands=[v, device], result_types=[t], attributes=attrs)
        else:  # one device, or a presharded argument: its pieces go to their devices as they are
            new = ttnn.ToDeviceOp.create(operands=[v, device], result_types=[t])
        new.location = user.location
        Rewriter.insert_op(new, InsertPoint.after(self.device_op))
        self.on_device[v] = new.results[0]
        return new.results[0]

    def read_back(self, v: SSAValue, user: Operation) -> SSAValue:
        """A whole tensor every device holds, read back to the host before `user` (one copy:
        `ttnn.aggregate_tensor` of the replicated tensor; `ttnn.from_device` on one device)."""
        t = host_type(v.type)
        if self.multi:
            attrs = distribution_attrs(t, replicated(Mesh(self.mesh), len(t.get_shape())), user)
            new = ttnn.AggregateTensorOp.create(operands=[v], result_types=[t], attributes=attrs)
        else:
            new = ttnn.FromDeviceOp.create(operands=[v], result_types=[t])
        new.location = user.location
        Rewriter.insert_op(new, InsertPoint.before(user))
        return new.results[0]

    def device_operands(self, op: Operation) -> list[SSAValue]:
        """The operands of `op`, host arguments moved to the device."""
        return [self.to_device(v, op) if isinstance(v.owner, Block) else v for v in op.operands]

    def convert_type(self, t: Attribute, op: Operation) -> Attribute:
        """A `#tt.metal_layout` tensor type as the `#ttnn.ttnn_layout` type TTNN holds it in."""
        enc = encoding_of(t)
        if not isinstance(t, TensorType) or enc is None or enc.name != "tt.metal_layout":
            return t
        cm = op.attributes.get("core_map")
        # keyed by object identity (the layout pass shares one type object per distinct type), so
        # no large attribute is hashed per op; the value keeps the key objects alive
        hit = self.type_cache.get((id(t), id(cm)))
        if hit is None:
            cfg, tile, dname = memory_config_for(t, op, cm if isinstance(cm, AffineMapAttr) else None)
            hit = (t, cm, with_encoding(t, ttnn.TTNNLayoutAttr.from_model(tile, dname, cfg)))
            self.type_cache[(id(t), id(cm))] = hit
        return hit[2]

    def replace(self, op: Operation, new: Operation) -> None:
        """`op` replaced by `new` (inserted before it, its results' uses and name hints taken over,
        as xDSL's PatternRewriter.replace does)."""
        new.location = op.location
        if op.results and op.results[0] in self.whole:
            self.whole.update(new.results)
        block = op.parent
        block.insert_op_before(new, op)
        for old, value in zip(op.results, new.results, strict=True):
            old.replace_all_uses_with(value)
            if not value.name_hint:
                value.name_hint = old.name_hint
        block.erase_op(op)
        if not isinstance(new, ttnn.AggregateTensorOp):
            self.device_values.update(new.results)


def memory_config_attr(t: Attribute) -> Attribute | None:
    """The memory config of a `#ttnn.ttnn_layout` tensor type, or None."""
    enc = encoding_of(t)
    return enc.memory_config if isinstance(enc, ttnn.TTNNLayoutAttr) else None


# ----------------------------------------------------------------------------- one op each


def lower_mesh_shard(lo: TTNNLowering, op: ttir.MeshShardOp) -> None:
    """`ttir.mesh_shard` -> `ttnn.distribute_tensor` (full_to_shard) / `ttnn.aggregate_tensor`
    (shard_to_full), with its shard_dims and the ShardedBufferConfig they lower to."""
    full = op.input if op.is_full_to_shard else op.result
    attrs = distribution_attrs(full.type, op.sharding(lo.mesh), op)
    if op.is_full_to_shard:
        rt = lo.convert_type(op.result.type, op)
        mc = memory_config_attr(rt)
        if mc is not None:
            attrs["memory_config"] = mc
        host = lo.read_back(op.input, op) if reads_back_to_distribute(op) else op.input
        new = ttnn.DistributeTensorOp.create(operands=[host, lo.device_op.results[0]], result_types=[rt],
                                             attributes=attrs)
    else:
        new = ttnn.AggregateTensorOp.create(operands=[op.input], result_types=[host_type(op.result.type)],
                                            attributes=attrs)
    lo.replace(op, new)


def lower_to_layout(lo: TTNNLowering, op: ttir.ToLayoutOp) -> None:
    """`ttir.to_layout` -> `ttnn.to_memory_config` into the memory config of its result layout."""
    operands = lo.device_operands(op)
    rts = [lo.convert_type(r.type, op) for r in op.results]
    mc = memory_config_attr(rts[0])
    if mc is None:
        raise LocatedError("convert-ttir-to-ttnn: ttir.to_layout needs a result layout", op)
    attrs = {k: v for k, v in op.attributes.items() if k != "core_map"}
    attrs["memory_config"] = mc
    lo.replace(op, ttnn.ToMemoryConfigOp.create(operands=operands, result_types=rts, attributes=attrs))


def lower_table_op(lo: TTNNLowering, op: Operation, target: type[Operation]) -> None:
    """A ttir op of `TTIR_TO_TTNN` -> its ttnn op `target`: the same operands (host arguments moved
    to the device) and attributes (but the core map, which the result layout now carries)."""
    operands = lo.device_operands(op)
    for i, rank in getattr(target, "TTNN_OPERAND_RANKS", {}).items():
        operands[i] = _squeezed(operands[i], rank, op)
    rts = [lo.convert_type(r.type, op) for r in op.results]
    attrs = {k: v for k, v in op.attributes.items() if k != "core_map"}
    lo.replace(op, target.create(operands=operands, result_types=rts, attributes=attrs))


def _squeezed(v: SSAValue, rank: int, user: Operation) -> SSAValue:
    """`v` reshaped to its last `rank` dims (the leading ones are 1) by a `ttnn.reshape` before
    `user`: a ttnn op whose operand TTNN takes with fewer dims than the ttir op (the class's
    `TTNN_OPERAND_RANKS`, e.g. all_to_all_dispatch_metadata's `[1, 1, D, E]` mapping as `[D, E]`)."""
    t = v.type
    shape = tuple(t.get_shape())
    if len(shape) == rank:
        return v
    new_t = TensorType(t.element_type, shape[-rank:], t.encoding)
    op = ttnn.COMPUTE_OPS["reshape"].create(operands=[v], result_types=[new_t])
    op.location = user.location
    Rewriter.insert_op(op, InsertPoint.before(user))
    return op.results[0]


def return_to_host(lo: TTNNLowering, op: func.ReturnOp) -> None:
    """A `func.return` of device tensors this pass made brings them back with `ttnn.from_device`
    (on a mesh the result stays distributed: one host tensor a device, as TTNN's from_device of a
    multi-device tensor gives)."""
    for i, v in enumerate(op.operands):
        if v not in lo.device_values:
            continue
        if v in lo.whole:  # a whole tensor every device holds: one copy is the result
            op.operands[i] = lo.read_back(v, op)
            continue
        new = ttnn.FromDeviceOp.create(operands=[v], result_types=[host_type(v.type)])
        new.location = op.location
        Rewriter.insert_op(new, InsertPoint.before(op))
        op.operands[i] = new.results[0]


def lower_op(lo: TTNNLowering, op: Operation) -> None:
    """Lower one op of the func: the first of mesh_shard, to_layout, the table's one-for-one ops
    and func.return that is `op`'s; a ttir op none of them lowers has no TTNN op (a located error)."""
    if isinstance(op, ttir.MeshShardOp):
        lower_mesh_shard(lo, op)
    elif isinstance(op, ttir.ToLayoutOp):
        lower_to_layout(lo, op)
    elif (target := TTIR_TO_TTNN.get(type(op))) is not None:
        lower_table_op(lo, op, target)
    elif isinstance(op, func.ReturnOp):
        return_to_host(lo, op)
    elif op.dialect_name() == "ttir" and type(op) not in SPECIAL_OPS:
        raise LocatedError(f"convert-ttir-to-ttnn: no TTNN op for '{op.name}'", op)


# ----------------------------------------------------------------------------- the pass


def open_device(f: func.FuncOp, mesh: tuple[int, ...]) -> Operation:
    """A `ttnn.get_device` for the module's mesh (as 2-d) at the start of `f`."""
    mesh2d = mesh if len(mesh) == 2 else ((1,) + mesh if len(mesh) == 1 else mesh)
    dev = ttnn.GetDeviceOp.create(
        result_types=[ttnn.DeviceType()],
        attributes={"mesh_shape": DenseArrayBase.from_list(i64, mesh2d),
                    "mesh_offset": DenseArrayBase.from_list(i64, [0] * len(mesh2d))},
    )
    dev.location = f.location
    Rewriter.insert_op(dev, InsertPoint.at_start(f.body.blocks[0]))
    return dev


@dataclass(frozen=True)
class ConvertTTIRToTTNNPass(ModulePass):
    name = "convert-ttir-to-ttnn"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_ttnn_device(op)
        mesh = module_mesh(op)
        type_cache: dict = {}
        for f in [x for x in op.walk() if isinstance(x, func.FuncOp)]:
            if not f.body.blocks:
                continue
            whole = whole_values(f)
            check_host_distributions(f, self.name, whole)
            lowering = TTNNLowering(mesh, open_device(f, mesh), type_cache, whole=whole)
            for o in list(f.body.walk()):  # the ops as they were, in program order
                lower_op(lowering, o)
        fix_function_types(op)
