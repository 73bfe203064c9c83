"""tt-mlir's MoE ops in ttnn: the ttir ops of meshc/dialects/ttir/moe_ttmlir.py under their ttnn
names, one device program each, with TTNN's verifiers where they differ from TTIR's."""

from __future__ import annotations

from typing import ClassVar

from xdsl.irdl import irdl_op_definition, traits_def
from xdsl.traits import NoMemoryEffect

from meshc.dialects.ttir import moe_ttmlir as ttir_moe


@irdl_op_definition
class AllToAllDispatchOp(ttir_moe.AllToAllDispatchBase):
    name = "ttnn.all_to_all_dispatch"
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class AllToAllDispatchMetadataOp(ttir_moe.AllToAllDispatchMetadataBase):
    """TTNN's form takes the expert mapping as `[D, E]`."""

    name = "ttnn.all_to_all_dispatch_metadata"
    traits = traits_def(NoMemoryEffect())
    MAPPING: ClassVar[tuple[int, str]] = (2, "expert_mapping must be a 2D tensor [D, E]")
    TTNN_OPERAND_RANKS: ClassVar[dict[int, int]] = {3: 2}
    """convert-ttir-to-ttnn reshapes ttir's `[1, 1, D, E]` mapping (operand 3) to `[D, E]`, as
    tt-mlir's TTIRToTTNN conversion does."""


@irdl_op_definition
class AllToAllCombineOp(ttir_moe.AllToAllCombineBase):
    """TTNN's verifier also wants output_shard_dim 1 or 2."""

    name = "ttnn.all_to_all_combine"
    traits = traits_def(NoMemoryEffect())
    CHECKS_SHARD_DIM: ClassVar[bool] = True


@irdl_op_definition
class MoeExpertTokenRemapOp(ttir_moe.MoeExpertTokenRemapBase):
    name = "ttnn.moe_expert_token_remap"
    traits = traits_def(NoMemoryEffect())
    RESULT_MESSAGES: ClassVar[tuple[str, str]] = ("mapping output must be a 4D tensor",
                                                  "reduced output must be a 4D tensor")


@irdl_op_definition
class SparseMatmulOp(ttir_moe.SparseMatmulBase):
    name = "ttnn.sparse_matmul"
    traits = traits_def(NoMemoryEffect())


TTMLIR_MOE_OPS = (AllToAllDispatchOp, AllToAllDispatchMetadataOp, AllToAllCombineOp, MoeExpertTokenRemapOp,
                  SparseMatmulOp)
"""tt-mlir's MoE ops in ttnn, in the order of meshc.dialects.ttir.moe_ttmlir.TTMLIR_MOE_OPS."""
