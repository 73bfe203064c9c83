"""The tt dialect: devices, grids, system descriptors, tiles, data types and tensor layouts.

Attributes only, in the syntax of tt-mlir's device and tensor-layout specs; every fact they
carry is computed by `meshc.layout` (affine, device, metal_layout, system), and each attribute
converts to and from its model object (`from_model(...)` / `.model()`) and verifies through it.

    #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>          (map optional)
    #tt.device<workerGrid = #tt.grid<...>, meshShape = 1x2, chipIds = [0, 1]>
    #tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 1499136, dramBanks = 12,
                  dramBankSize = 1073741824>
    #tt.system_desc<meshShape = 1x2, chipDescs = [#tt.chip_desc<...>], chipDescIndices = [0, 0],
                    chipCoords = [[0, 0], [0, 1]], links = [[0, 1]]>    (or #tt.system_desc<n300>)
    !tt.tile<32x32, bf16>                                               (`32 x 32` accepted)
    #tt.data_type<bfp_bf8>, #tt.memory_space<l1>, #tt.oob_val<zero>
    #tt.argument_type<parameter>, #tt.shard_status<unsharded>, #tt.topology<ring>
    #tt.metal_layout<LINEAR, OOB, <GRID>, memref<SHARD x ELEM, #tt.memory_space<MS>>>
    #tt.sharding<[S0, R], mesh = 2x2>

A module carries its device and system as the attributes `tt.device` and `tt.system_desc` of
the builtin module; `module_device(module)` / `module_system(module)` return the models and
`verify_module(module)` checks the device against the system. A tensor whose encoding is a
`#tt.metal_layout` is checked against it (a registered type checker), so a mismatch is a
located error at the op that uses the tensor. See docs/tt-dialect.md.

The package's files: parsing.py (shared parse/print helpers), enums.py, grid.py (affine maps,
grids), device.py (device, arch, chip and system descriptors), layout.py (tiles, metal layouts,
element types), module.py (the module's device and system, or its virtual devices), local_shape.py (tt-mlir's
per-device argument type), pipeline.py
(the checks of virtual devices and pipeline stages), meshes.py (the module's named
meshes, tt-mlir's `#ttcore.meshes`), sharding.py. The `TT` dialect
object is here.
"""

from __future__ import annotations

from xdsl.ir import Dialect

from meshc.dialects.tt.device import ArchAttr, ChipDescAttr, DeviceAttr, SystemDescAttr
from meshc.dialects.tt.enums import (
    ArgumentType,
    ArgumentTypeAttr,
    DataTypeAttr,
    DataTypeEnum,
    MemorySpace,
    MemorySpaceAttr,
    OOBVal,
    OOBValAttr,
    ShardStatus,
    ShardStatusAttr,
    Topology,
    TopologyAttr,
)
from meshc.dialects.tt.grid import GridAttr, MapAttr
from meshc.dialects.tt.device_module import DeviceModuleOp, flatten_device_module
from meshc.dialects.tt.local_shape import LocalShapeAttr
from meshc.dialects.tt.layout import MetalLayoutAttr, TileType, check_tensor_layout
from meshc.dialects.tt.meshes import MESHES_ATTR, MeshesAttr, module_meshes_shape
from meshc.dialects.tt.module import (
    BATCH_ARG_ATTR,
    DEVICE_ATTR,
    DEVICES_ATTR,
    MICROBATCHES_ATTR,
    STAGE_ATTR,
    SYSTEM_DESC_ATTR,
    batch_args,
    enclosing_module,
    mesh_shape_of,
    microbatches_of,
    module_device,
    module_devices,
    module_mesh_shape,
    module_system,
    set_module_device,
    stage_index,
    system_or_default,
    verify_module,
)
from meshc.dialects.tt.pipeline import called_stage, pipeline_system, stage_functions
from meshc.dialects.tt.sharding import ShardingAttr, check_sharding

_ATTRIBUTES = [
    DataTypeAttr, MemorySpaceAttr, OOBValAttr, MapAttr, GridAttr, DeviceAttr, ArchAttr, ChipDescAttr,
    SystemDescAttr, TileType, MetalLayoutAttr, ShardingAttr, MeshesAttr, ArgumentTypeAttr, ShardStatusAttr,
    TopologyAttr, LocalShapeAttr,
]  # fmt: skip
_OPS: list[type] = [DeviceModuleOp]

TT = Dialect("tt", _OPS, _ATTRIBUTES)
