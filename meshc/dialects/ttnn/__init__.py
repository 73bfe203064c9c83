"""The ttnn dialect: memory configs, mesh distribution attributes and TTNN-level ops.

The package's files: memory.py (where a tensor lives on one chip: buffer type, memory layout,
shard spec, memory config, `#ttnn.ttnn_layout`), distribution.py (how a host tensor spreads
over the mesh: `#ttnn.mesh_mapper`, `#ttnn.sharded_buffer_config`), device.py (the mesh device,
host <-> mesh transfers, layout and memory-config changes), compute.py (the compute-op registry's ops
under their ttnn names), collectives.py (collectives, resharding and MoE ops), pipeline.py (a
tensor sent from one pipeline stage's device to the next's). The `TTNN` dialect
object is here.
"""

from __future__ import annotations

from xdsl.ir import Dialect

from meshc.dialects.ttnn.collectives import (
    AllGatherOp,
    AllReduceOp,
    AllSliceOp,
    AllToAllOp,
    CollectivePermuteOp,
    MoeCombineOp,
    MoeDispatchOp,
    MoeRouteOp,
    PointToPointOp,
    ReduceScatterOp,
)
from meshc.dialects.ttnn.compute import COMPUTE_OPS, ConstantOp, EmptyOp
from meshc.dialects.ttnn.device import (
    AggregateTensorOp,
    DeviceType,
    DistributeTensorOp,
    FromDeviceOp,
    GetDeviceOp,
    ToDeviceOp,
    ToLayoutOp,
    ToMemoryConfigOp,
)
from meshc.dialects.ttnn.distribution import MeshMapperAttr, ShardedBufferConfigAttr
from meshc.dialects.ttnn.moe_ttmlir import (
    TTMLIR_MOE_OPS,
    AllToAllCombineOp,
    AllToAllDispatchMetadataOp,
    AllToAllDispatchOp,
    MoeExpertTokenRemapOp,
    SparseMatmulOp,
)
from meshc.dialects.ttnn.pipeline import PipelineTransferOp
from meshc.dialects.ttnn.ttmlir_ops import TTMLIR_OPS, FillCacheOp, MeshPartitionOp, UpdateCacheOp
from meshc.dialects.ttnn.memory import (
    BufferTypeAttr,
    CoreRangeAttr,
    CoreRangeSetAttr,
    MemoryConfigAttr,
    ShardOrientationAttr,
    ShardSpecAttr,
    TensorMemoryLayoutAttr,
    TTNNLayoutAttr,
    check_ttnn_layout,
)
from meshc.dialects.ttir.collectives import collective_op_table
from meshc.dialects.ttnn.collectives import MULTI_DEVICE_OPS

_ATTRIBUTES = [
    BufferTypeAttr, TensorMemoryLayoutAttr, ShardOrientationAttr, CoreRangeAttr, CoreRangeSetAttr,
    ShardSpecAttr, MemoryConfigAttr, TTNNLayoutAttr, MeshMapperAttr, ShardedBufferConfigAttr, DeviceType,
]  # fmt: skip
_OPS = [
    GetDeviceOp, DistributeTensorOp, AggregateTensorOp, ToDeviceOp, FromDeviceOp, ToLayoutOp,
    ToMemoryConfigOp, EmptyOp, ConstantOp, *COMPUTE_OPS.values(),
    *MULTI_DEVICE_OPS, *TTMLIR_MOE_OPS, *TTMLIR_OPS, PipelineTransferOp,
]  # fmt: skip

COLLECTIVE_OPS = collective_op_table(_OPS, "ttnn")
"""The ttnn op of each collective kind (meshc.layout.collectives.COLLECTIVES)."""

TTNN = Dialect("ttnn", _OPS, _ATTRIBUTES)
