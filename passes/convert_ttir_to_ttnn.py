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
  comes back with `ttnn.from_device` (one device only: on a mesh, results must leave through
  `ttir.mesh_shard shard_to_full`, else a located error).
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
from xdsl.dialects.builtin import AffineMapAttr, DenseArrayBase, ModuleOp, StringAttr, TensorType, i64
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from meshc.diagnostics import LocatedError
from meshc.layout.errors import LayoutError
from meshc.passes.lowering_utils import (
    encoding_of,
    fix_function_types,
    fold_2d,
    host_type,
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


def memory_config_for(t: TensorType, op: Operation, core_map: AffineMapAttr | None, backend: str = "TTNN"):
    """The MemoryConfig (and tile) realising a tensor's #tt.metal_layout, or a located error.

    TTNN and TTMetal buffers share it: both place a buffer with a TTNN memory config.
    """
    from meshc.layout.memory_config import MemoryConfig

    model = encoding_of(t).model()  # type: ignore[union-attr]
    grid = tuple(model.grid)
    if len(grid) == 1:
        grid = (1,) + grid
    if len(grid) != 2:
        raise LocatedError(
            f"{backend} cannot realise the layout grid {'x'.join(map(str, model.grid))} of {t}: "
            f"{backend} shards over a 2-d core grid of one chip", op)
    tile = tuple(model.element.shape) if model.tiled else None
    if model.memory_space == "dram":
        if grid != (1, 1):
            raise LocatedError(
                f"{backend} cannot realise the DRAM layout grid {grid[0]}x{grid[1]} of {t}: {backend} keeps DRAM "
                "tensors interleaved over the banks; use a 1x1 grid", op)
        return MemoryConfig("dram", "interleaved"), tile, model.dtype.name
    shape = tuple(t.get_shape())
    h, w = fold_2d(shape)
    if tile is not None and len(shape) >= 2:  # TTNN pads every 2-d slice to whole tiles
        h = prod(shape[:-2]) * (-(-shape[-2] // tile[0]) * tile[0])
    shard = (-(-h // grid[0]), -(-w // grid[1]))
    if tile is not None:  # TTNN shards tiled tensors in whole tiles
        shard = (-(-shard[0] // tile[0]) * tile[0], -(-shard[1] // tile[1]) * tile[1])
    orientation = "row_major"
    phys = grid
    if core_map is not None:
        if str(core_map.data) != "(d0, d1) -> (d1, d0)":
            raise LocatedError(
                f"{backend} cannot realise the core map {core_map.data}: {backend} places block shards in row-major "
                "or column-major order only", op)
        orientation, phys = "col_major", (grid[1], grid[0])
    try:
        cfg = MemoryConfig("l1", "block_sharded", grid=phys, shard_shape=shard, orientation=orientation)
    except LayoutError as e:
        raise LocatedError(f"{backend} cannot realise the layout of {t}: {e}", op) from None
    return cfg, tile, model.dtype.name


def _find_attr_class(name: str):
    from meshc.dialects import ttnn

    for a in ttnn._ATTRIBUTES:
        if getattr(a, "name", None) == name:
            return a
    return None


def distribution_attrs(shape: tuple[int, ...], elem_type, mesh: tuple[int, ...], shard_dims, op) -> dict[str, Attribute]:
    """mapper, config and form for distributing `shape` over `mesh` as `shard_dims` says
    (meshc.layout.sharded_buffer.lower_distribution: the 2D config when TT-Mesh's 2D infra
    expresses the mapper, else the ND one)."""
    from meshc.dialects.element_types import data_type_name
    from meshc.layout.sharded_buffer import datum_size, lower_distribution, spec_from_shard_dims

    try:
        spec_from_shard_dims(shard_dims, len(shape), mesh)
    except LayoutError as e:
        raise LocatedError(f"cannot distribute over the module's mesh {'x'.join(map(str, mesh))}: {e}", op) from None
    try:
        mapper, config, form = lower_distribution(shape, mesh, shard_dims, datum_size(data_type_name(elem_type) or "f32"))
    except LayoutError as e:
        raise LocatedError(f"cannot lower the distribution to a TTNN mesh mapper and ShardedBufferConfig: {e}",
                           op) from None
    out: dict[str, Attribute] = {"form": StringAttr(form)}
    mapper_cls = _find_attr_class("ttnn.mesh_mapper")
    if mapper_cls is not None:
        out["mapper"] = mapper_cls.from_model(mapper)
    config_cls = _find_attr_class("ttnn.sharded_buffer_config")
    if config_cls is not None:
        out["config"] = config_cls.from_model(config)
    return out


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
            if multi:
                raise LocatedError(
                    "a device tensor returned on a multi-device mesh: return it through "
                    "ttir.mesh_shard with shard_direction = shard_to_full", ret)
            new = ttnn.FromDeviceOp.create(operands=[v], result_types=[host_type(v.type)])
            new.location = ret.location
            Rewriter.insert_op(new, InsertPoint.before(ret))
            ret.operands[i] = new.results[0]
