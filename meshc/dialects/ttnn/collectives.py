"""ttnn collectives along a `cluster_axis` of the mesh, and the resharding and MoE ops: the ttir
ops of the same names, one device program each."""

from __future__ import annotations

from xdsl.irdl import irdl_op_definition
from xdsl.utils.exceptions import VerifyException

from meshc.dialects import ttir
from meshc.dialects.ttir.base import int_value, tensor_shape

TTNN_REDUCTIONS = ("sum",)
"""The reductions TTNN's collectives apply across devices: sum only, as tt-mlir's TTNN verifiers
say (ttir's max and min reach TTNN through ttir-decompose-ccl-reductions)."""


def check_ttnn_reduction(op, kind: str) -> None:
    """tt-mlir's TTNN verifier wording (`Invalid reduction type for reduce scatter op.`), then why."""
    rt = op.attributes["reduce_type"].data
    if rt not in TTNN_REDUCTIONS:
        raise VerifyException(f"Invalid reduction type for {kind} op. TTNN reduces across devices by sum only, "
                              f"got {rt}; a ttir {kind} of max or min lowers through all_gather and a max reduction")


@irdl_op_definition
class AllGatherOp(ttir.AllGatherBase):
    name = "ttnn.all_gather"


@irdl_op_definition
class ReduceScatterOp(ttir.ReduceScatterBase):
    name = "ttnn.reduce_scatter"

    def verify_(self) -> None:
        rank, d = len(tensor_shape(self.input)), int_value(self.scatter_dim)
        if not -rank <= d < rank:  # tt-mlir's TTNN verifier, word for word
            raise VerifyException("Invalid scatter dimension for reduce scatter op. Scatter dimension must be >= to "
                                  f"input tensor rank or < -input tensor rank, got scatter_dim = {d}")
        check_ttnn_reduction(self, "reduce scatter")
        super().verify_()


@irdl_op_definition
class AllReduceOp(ttir.AllReduceBase):
    name = "ttnn.all_reduce"

    def verify_(self) -> None:
        check_ttnn_reduction(self, "all reduce")
        super().verify_()


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
