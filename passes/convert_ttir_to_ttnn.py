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
* Compute ops and collectives become their ttnn namesakes; `ttir.to_layout` becomes
  `ttnn.to_memory_config`. Every `#tt.metal_layout` becomes a `#ttnn.ttnn_layout` whose
  memory config comes from the layout: L1 grids block-sharded (col_major when the grid is
  reinterpreted as transposed by `ttir-reinterpret-grid`), DRAM interleaved. Layouts TTNN
  cannot hold (a DRAM grid larger than 1x1, a non-transposing core map, a grid of rank > 2)
  are located errors.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import AffineMapAttr, DenseArrayBase, ModuleOp, TensorType, i64
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from meshc.diagnostics import LocatedError
from meshc.layout.errors import LayoutError
from meshc.passes.lowering_utils import (
    encoding_of,
    fix_function_types,
    distribution_attrs,
    host_type,
    memory_config_for,
    module_device_model,
    module_mesh,
    prod,
    with_encoding,
)

_RENAMES = {"ttir.broadcast": "ttnn.repeat", "ttir.to_layout": "ttnn.to_memory_config"}
_NOT_ON_DEVICE = ("ttir.mesh_shard",)


def check_ttnn_device(module: ModuleOp) -> None:
    """TTNN opens a mesh of chips side by side: the device map must be the derived one."""
    dev = module_device_model(module)
    if dev is None:
        return
    import numpy as np

    from meshc.layout.device import derive_device

    try:
        ref = derive_device(dev.mesh_shape, chip_ids=dev.chip_ids)
    except LayoutError as e:
        raise LocatedError(f"TTNN cannot open the device: {e}", module) from None
    same = tuple(ref.grid_shape) == tuple(dev.grid_shape) and np.array_equal(ref.locate_all(), dev.locate_all())
    if not same:
        raise LocatedError(
            f"TTNN cannot realise the device grid {'x'.join(map(str, dev.grid_shape))} with map {dev.mapping}: "
            f"TTNN opens a mesh of chips side by side with the map {ref.mapping} for mesh "
            f"{'x'.join(map(str, dev.mesh_shape))}; lower this device with convert-ttir-to-ttmetal instead",
            module,
        )


@dataclass(frozen=True)
class ConvertTTIRToTTNNPass(ModulePass):
    name = "convert-ttir-to-ttnn"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from meshc.dialects import ttir, ttnn
        from meshc.dialects.ttnn import MemoryConfigAttr, TTNNLayoutAttr

        check_ttnn_device(op)
        mesh = module_mesh(op)
        multi = prod(mesh) > 1
        names = {cls.name: cls for cls in ttnn._OPS}
        # keyed by object identity (the layout pass shares one type object per distinct type), so
        # no large attribute is hashed per op; the value keeps the key objects alive
        type_cache: dict[tuple[int, int], tuple[Attribute, Attribute | None, Attribute]] = {}

        def convert_type(t: Attribute, o: Operation) -> Attribute:
            if not isinstance(t, TensorType) or encoding_of(t) is None or encoding_of(t).name != "tt.metal_layout":
                return t
            cm = o.attributes.get("core_map")
            hit = type_cache.get((id(t), id(cm)))
            if hit is None:
                cfg, tile, dname = memory_config_for(t, o, cm if isinstance(cm, AffineMapAttr) else None)
                hit = (t, cm, with_encoding(t, TTNNLayoutAttr.from_model(tile, dname, cfg)))
                type_cache[(id(t), id(cm))] = hit
            return hit[2]

        def memcfg_attr(t: Attribute) -> Attribute | None:
            enc = encoding_of(t)
            return enc.memory_config if isinstance(enc, TTNNLayoutAttr) else None

        for f in [x for x in op.walk() if isinstance(x, func.FuncOp)]:
            if not f.body.blocks:
                continue
            block: Block = f.body.blocks[0]
            first = block.first_op
            mesh2d = mesh if len(mesh) == 2 else ((1,) + mesh if len(mesh) == 1 else mesh)
            dev = ttnn.GetDeviceOp.create(
                result_types=[ttnn.DeviceType()],
                attributes={"mesh_shape": DenseArrayBase.from_list(i64, mesh2d),
                            "mesh_offset": DenseArrayBase.from_list(i64, [0] * len(mesh2d))},
            )
            dev.location = f.location
            Rewriter.insert_op(dev, InsertPoint.at_start(block))
            device = dev.results[0]
            on_device: dict[SSAValue, SSAValue] = {}

            def to_device(v: SSAValue, user: Operation) -> SSAValue:
                """A host value (function argument) moved to the device, once."""
                hit = on_device.get(v)
                if hit is not None:
                    return hit
                t = v.type
                if multi:
                    attrs = distribution_attrs(tuple(t.get_shape()), t.element_type, mesh, [-1] * len(mesh), user)
                    attrs["shard_dims"] = DenseArrayBase.from_list(i64, [-1] * len(mesh))
                    new = ttnn.DistributeTensorOp.create(operands=[v, device], result_types=[t], attributes=attrs)
                else:
                    new = ttnn.ToDeviceOp.create(operands=[v, device], result_types=[t])
                new.location = user.location
                Rewriter.insert_op(new, InsertPoint.after(dev))
                on_device[v] = new.results[0]
                return new.results[0]

            device_values: set[SSAValue] = set()
            for o in list(block.ops):
                if o.dialect_name() != "ttir":
                    if isinstance(o, func.ReturnOp):
                        self._lower_return(o, device_values, multi)
                    continue
                if isinstance(o, ttir.MeshShardOp):
                    full = o.input if o.is_full_to_shard else o.result
                    ft = full.type
                    dims = o.mesh_shard_dims(len(mesh))
                    attrs = distribution_attrs(tuple(ft.get_shape()), ft.element_type, mesh, dims, o)
                    attrs["shard_dims"] = DenseArrayBase.from_list(i64, dims)
                    if o.is_full_to_shard:
                        rt = convert_type(o.result.type, o)
                        mc = memcfg_attr(rt)
                        if mc is not None:
                            attrs["memory_config"] = mc
                        new = ttnn.DistributeTensorOp.create(operands=[o.input, device], result_types=[rt], attributes=attrs)
                    else:
                        new = ttnn.AggregateTensorOp.create(operands=[o.input], result_types=[host_type(o.result.type)], attributes=attrs)
                else:
                    operands = [to_device(v, o) if isinstance(v.owner, Block) else v for v in o.operands]
                    target = _RENAMES.get(o.name, "ttnn." + o.name[5:])
                    cls = names.get(target)
                    if cls is None:
                        raise LocatedError(f"convert-ttir-to-ttnn: no TTNN op for '{o.name}'", o)
                    rts = [convert_type(r.type, o) for r in o.results]
                    attrs = {k: v for k, v in o.attributes.items() if k != "core_map"}
                    if target == "ttnn.to_memory_config":
                        mc = memcfg_attr(rts[0])
                        if mc is None:
                            raise LocatedError("convert-ttir-to-ttnn: ttir.to_layout needs a result layout", o)
                        attrs["memory_config"] = mc
                    new = cls.create(operands=operands, result_types=rts, attributes=attrs)
                new.location = o.location
                Rewriter.replace_op(o, new)
                if not isinstance(new, ttnn.AggregateTensorOp):
                    device_values.update(new.results)
        fix_function_types(op)

    @staticmethod
    def _lower_return(ret: func.ReturnOp, device_values: set[SSAValue], multi: bool) -> None:
        """Bring the device tensors this pass produced back to the host for the return."""
        from meshc.dialects import ttnn

        for i, v in enumerate(ret.operands):
            if v not in device_values:
                continue
            # on a mesh the result stays distributed: one host tensor a device, as TTNN's
            # from_device of a multi-device tensor gives
            new = ttnn.FromDeviceOp.create(operands=[v], result_types=[host_type(v.type)])
            new.location = ret.location
            Rewriter.insert_op(new, InsertPoint.before(ret))
            ret.operands[i] = new.results[0]
