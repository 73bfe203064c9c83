"""The placement model: pure Python + numpy, no IR.

Everything meshc knows about where bytes live is computed here, once: devices and their
affine maps, tensor and memory layouts (pages, tiles, banks, core shards), mesh
distribution (mesh mappers, ShardedBufferConfig, sharding specs) and resharding plans.
Dialects carry these values, passes compute with them, the simulator executes them.

Public names are imported lazily from their modules (see `_EXPORTS`).
"""

from importlib import import_module

# public name -> module under meshc.layout
_EXPORTS: dict[str, str] = {
    # errors
    "LayoutError": "errors",
    "CapacityError": "errors",
    "UnsupportedSharding": "errors",
    # data types, systems
    "DataType": "dtypes",
    "get_dtype": "dtypes",
    "SystemDesc": "system",
    "ChipDesc": "system",
    "system": "system",
    "mesh_system": "system",
    # affine maps, devices, metal layouts
    "AffineMap": "affine",
    "parse_map": "affine",
    "Device": "device",
    "derive_device": "device",
    "MetalLayout": "metal_layout",
    "Tile": "metal_layout",
    "build_metal_layout": "metal_layout",
    # meshes and sharding specs
    "Mesh": "mesh",
    "ShardingSpec": "mesh",
    # mesh distribution: sharding specs, mesh mappers, sharded buffers, checkpoints
    "parse_spec": "sharding_spec",
    "format_spec": "sharding_spec",
    "to_global": "sharding_spec",
    "from_global": "sharding_spec",
    "distribute": "mesh_mappers",
    "aggregate": "mesh_mappers",
    "mapper_from_spec": "mesh_mappers",
    "ShardTensorToMesh": "mesh_mappers",
    "ShardTensor2dMesh": "mesh_mappers",
    "ShardTensorNdMesh": "mesh_mappers",
    "ReplicateTensorToMesh": "mesh_mappers",
    "ConcatMeshToTensor": "mesh_mappers",
    "ConcatMesh2dToTensor": "mesh_mappers",
    "ConcatMeshNdToTensor": "mesh_mappers",
    "ShardedBufferConfig": "sharded_buffer",
    "NDShardedBufferConfig": "sharded_buffer",
    "lower_mesh_mapper": "sharded_buffer",
    "lower_mesh_mapper_nd": "sharded_buffer",
    "write_sharded": "sharded_buffer",
    "read_sharded": "sharded_buffer",
    "save_sharded": "checkpoint",
    "merge_sharded": "checkpoint",
    # single-chip placement: memory configs and shard placement
    "MemoryConfig": "memory_config",
    "CoreRange": "memory_config",
    "CoreRangeSet": "memory_config",
    "place": "placement",
    "Placement": "placement",
    # resharding and MoE
    "plan_reshard": "reshard",
    "ReshardPlan": "reshard",
    "execute_plan": "reshard",
    "moe_route": "moe",
    "moe_dispatch": "moe",
    "moe_combine": "moe",
}


# `system` is both a module and the function it defines: bind the function eagerly, so that
# importing the submodule `meshc.layout.system` later cannot hide it behind the module object.
from meshc.layout.system import system  # noqa: E402


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(import_module(f"meshc.layout.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module 'meshc.layout' has no attribute '{name}'")


def __dir__():
    return sorted(list(globals()) + list(_EXPORTS))
