"""The ttir dialect: tensor ops with value semantics, the input of meshc's pipelines.

Every op takes its input tensors and returns a new tensor (no destination operands, as
tt-mlir does today), so the generic form
`%2 = "ttir.matmul"(%0, %1) : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>`
is the whole op. Multi-device programs are SPMD after `ttir.mesh_shard` (docs/contracts.md):
ops compute on per-device shapes, collectives exchange along a `cluster_axis` of the mesh the
module's `#tt.device` describes (a module without one runs on a one-device mesh).

Op families share bases (elementwise unary and binary with numpy broadcasting, reductions,
collectives, resharding, MoE) whose verifiers check result shapes and name what is wrong; the
ttnn ops of the same names are these bases under ttnn names. The shape rules themselves are
plain functions in `shape_rules.py`. The compute ops are made from the compute-op registry
(meshc/layout/compute_ops.py): `COMPUTE_OPS` maps each registry kind to its class.

The package's files, one family each: attributes.py (enum attributes), base.py (verifier
helpers and op bases), compute.py (the registry's ops), comparison.py (the comparison and where bases), collectives.py (mesh_shard and the collectives),
reshard.py (reshard, point_to_point, all_slice), moe.py, sharding_constraint.py (the
global-view annotations). The `TTIR` dialect object is here.
"""

from __future__ import annotations

from xdsl.ir import Dialect

from meshc.dialects import shape_rules as rules
from meshc.dialects.tt.module import enclosing_module
from meshc.dialects.ttir.attributes import ReduceTypeAttr, ShardDirectionAttr, ShardTypeAttr, TransfersAttr, WordEnumAttr
from meshc.dialects.ttir.base import (
    CollectiveBase,
    ElementwiseBinaryBase,
    ElementwiseUnaryBase,
    HostTransfer,
    PerDevice,
    ReductionBase,
    TTIROpBase,
    bool_value,
    check_attr_name,
    collective_args,
    compute_op_classes,
    int_value,
    mesh_shape_of,
    tensor_shape,
)
from meshc.dialects.ttir.collectives import (
    AllGatherBase,
    AllGatherOp,
    AllReduceBase,
    AllReduceOp,
    AllToAllBase,
    AllToAllOp,
    CollectivePermuteBase,
    CollectivePermuteOp,
    MeshShardOp,
    ReduceScatterBase,
    ReduceScatterOp,
)
from meshc.dialects.ttir.comparison import CompareBase, WhereBase
from meshc.dialects.ttir.compute import (
    COMPUTE_OPS,
    FAMILY_BASES,
    BroadcastBase,
    ConcatBase,
    ConstantBase,
    ConstantOp,
    EmbeddingBase,
    EmptyOp,
    LinearBase,
    MatmulBase,
    PermuteBase,
    ReshapeBase,
    SliceBase,
    SoftmaxBase,
    ToLayoutOp,
    TransposeBase,
    TypecastBase,
)
from meshc.dialects.ttir.moe import (
    MoeCombineBase,
    MoeCombineOp,
    MoeDispatchBase,
    MoeDispatchOp,
    MoeRouteBase,
    MoeRouteOp,
)
from meshc.dialects.ttir.moe_ttmlir import (
    TTMLIR_MOE_OPS,
    AllToAllCombineOp,
    AllToAllDispatchMetadataOp,
    AllToAllDispatchOp,
    MoeExpertTokenRemapOp,
    SparseMatmulOp,
)
from meshc.dialects.ttir.reshard import (
    AllSliceBase,
    AllSliceOp,
    PointToPointBase,
    PointToPointOp,
    ReshardBase,
    ReshardOp,
    transfer_rows,
    transfers_attr,
)
from meshc.dialects.ttir.sharding_constraint import ShardingConstraintOp
from meshc.dialects.ttir.ttmlir_ops import (
    TTMLIR_OPS,
    FillCacheBase,
    FillCacheOp,
    MeshPartitionBase,
    MeshPartitionOp,
    UpdateCacheBase,
    UpdateCacheOp,
)
from meshc.dialects.ttir.collectives import MULTI_DEVICE_OPS, collective_op_table

_ATTRIBUTES = [ShardTypeAttr, ShardDirectionAttr, ReduceTypeAttr, TransfersAttr]
_OPS = [
    *COMPUTE_OPS.values(), EmptyOp, ConstantOp, ToLayoutOp,
    *MULTI_DEVICE_OPS,
    ReshardOp, PointToPointOp, AllSliceOp, MoeRouteOp, MoeDispatchOp, MoeCombineOp,
    *TTMLIR_MOE_OPS, *TTMLIR_OPS, ShardingConstraintOp,
]  # fmt: skip

COLLECTIVE_OPS = collective_op_table(_OPS, "ttir")
"""The ttir op of each collective kind (meshc.layout.collectives.COLLECTIVES)."""

TTIR = Dialect("ttir", _OPS, _ATTRIBUTES)
