"""ttnn collectives along a `cluster_axis` of the mesh, and the resharding and MoE ops: the ttir
ops of the same names, one device program each."""

from __future__ import annotations

from xdsl.irdl import irdl_op_definition

from meshc.dialects import ttir


@irdl_op_definition
class AllGatherOp(ttir.AllGatherBase):
    name = "ttnn.all_gather"


@irdl_op_definition
class ReduceScatterOp(ttir.ReduceScatterBase):
    name = "ttnn.reduce_scatter"


@irdl_op_definition
class AllReduceOp(ttir.AllReduceBase):
    name = "ttnn.all_reduce"


@irdl_op_definition
class AllToAllOp(ttir.AllToAllBase):
    name = "ttnn.all_to_all"


@irdl_op_definition
class CollectivePermuteOp(ttir.CollectivePermuteBase):
    name = "ttnn.collective_permute"


# Resharding and MoE: the ttir ops of the same names, one device program each; what they
# compute is the ttir op's (from meshc/layout/reshard.py and moe.py).


@irdl_op_definition
class PointToPointOp(ttir.PointToPointBase):
    """Explicit device-to-device moves of a reshard (see ttir.point_to_point)."""

    name = "ttnn.point_to_point"


@irdl_op_definition
class AllSliceOp(ttir.AllSliceBase):
    """Each device keeps its piece of `slice_dim` along `cluster_axis` (no traffic)."""

    name = "ttnn.all_slice"


@irdl_op_definition
class MoeRouteOp(ttir.MoeRouteBase):
    """Top-k routing on each device's logits (see ttir.moe_route)."""

    name = "ttnn.moe_route"


@irdl_op_definition
class MoeDispatchOp(ttir.MoeDispatchBase):
    """Each device dispatches its tokens into [E, G, C, M] (see ttir.moe_dispatch)."""

    name = "ttnn.moe_dispatch"


@irdl_op_definition
class MoeCombineOp(ttir.MoeCombineBase):
    """Each device combines its tokens' expert outputs (see ttir.moe_combine)."""

    name = "ttnn.moe_combine"


MULTI_DEVICE_OPS = (
    AllGatherOp, ReduceScatterOp, AllReduceOp, AllToAllOp, CollectivePermuteOp,
    PointToPointOp, AllSliceOp, MoeRouteOp, MoeDispatchOp, MoeCombineOp,
)  # fmt: skip
"""The ops of this file, in the dialect's order: a new collective's ttnn op joins them here, and
the TTNN dialect and COLLECTIVE_OPS take it from this tuple."""
