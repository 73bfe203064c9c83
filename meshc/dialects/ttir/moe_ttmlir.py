"""tt-mlir's MoE ops: all_to_all_dispatch, all_to_all_dispatch_metadata, all_to_all_combine,
moe_expert_token_remap and sparse_matmul, with tt-mlir's operands, attributes and verifiers.

Each verifier refuses what tt-mlir's refuses (lib/Dialect/TTIR/IR/TTIROps.cpp and the TTNN
twins' TTNNOps.cpp), in tt-mlir's words, in tt-mlir's order, and nothing more: tt-mlir checks ranks
and attribute ranges, not how the shapes relate, so a shape that cannot be run is the run's
located error (meshc/layout/moe_ttmlir.py, which holds what the ops compute; docs/moe.md).
The ttnn twins (meshc/dialects/ttnn/moe_ttmlir.py) share these bases; where TTNN's verifier
differs (all_to_all_dispatch_metadata's `[D, E]` mapping, all_to_all_combine's
output_shard_dim, moe_expert_token_remap's result messages) a ClassVar says so.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import AnyTensorTypeConstr, DenseArrayBase, IntegerAttr
from xdsl.ir import SSAValue
from xdsl.irdl import attr_def, irdl_op_definition, operand_def, opt_attr_def, result_def, traits_def
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException

from meshc.dialects.ttir.base import PerDevice, TTIROpBase, int_value, tensor_shape


def _rank(value: SSAValue, rank: int, message: str) -> None:
    if len(tensor_shape(value)) != rank:
        raise VerifyException(message)


def _opt_int(op: TTIROpBase, name: str, default: int | None) -> int | None:
    attr = op.attributes.get(name)
    return default if attr is None else int_value(attr)


def _bool(op: TTIROpBase, name: str, default: bool) -> bool:
    attr = op.attributes.get(name)
    return default if attr is None else bool(int_value(attr))


class _MoeCclBase(TTIROpBase):
    """The two checks every tt-mlir MoE collective ends with."""

    def check_devices_and_axis(self) -> None:
        if int_value(self.attributes["num_devices"]) <= 0:
            raise VerifyException("num_devices must be positive")
        if int_value(self.attributes["cluster_axis"]) not in (0, 1):
            raise VerifyException("cluster_axis must be 0 or 1")


class AllToAllDispatchBase(_MoeCclBase):
    """Tokens to the devices holding their experts, along `cluster_axis`: input_tensor
    [B, S, 1, H], expert_indices [B, S, 1, K], one-hot expert_mapping [1, 1, E, D] ->
    dispatched [1, B*D, S, H] and metadata [1, B*D, S, K] (the ids, all-gathered)."""

    input_tensor = operand_def(AnyTensorTypeConstr)
    expert_indices = operand_def(AnyTensorTypeConstr)
    expert_mapping = operand_def(AnyTensorTypeConstr)
    dispatched = result_def(AnyTensorTypeConstr)
    metadata = result_def(AnyTensorTypeConstr)
    num_devices = attr_def(IntegerAttr)
    cluster_axis = attr_def(IntegerAttr)

    def verify_(self) -> None:
        _rank(self.input_tensor, 4, "input_tensor must be a 4D tensor [B, S, 1, H]")
        _rank(self.expert_indices, 4, "expert_indices must be a 4D tensor [B, S, 1, K]")
        _rank(self.expert_mapping, 4, "expert_mapping must be a 4D tensor [1, 1, E, D]")
        _rank(self.dispatched, 4, "dispatched output must be a 4D tensor [1, B*D, S, H]")
        _rank(self.metadata, 4, "metadata output must be a 4D tensor [1, B*D, S, K]")
        self.check_devices_and_axis()


@irdl_op_definition
class AllToAllDispatchOp(AllToAllDispatchBase):
    name = "ttir.all_to_all_dispatch"
    traits = traits_def(PerDevice(), NoMemoryEffect())


class AllToAllDispatchMetadataBase(_MoeCclBase):
    """Tokens [1, 1, M, H] with their expert ids and scores [1, 1, M, K] to the devices owning
    their experts (expert_mapping: per expert, the owner's flat device id) -> dispatched
    [1, D*M, H], ids and scores all-gathered [1, D*M, K]."""

    input_tensor = operand_def(AnyTensorTypeConstr)
    expert_indices = operand_def(AnyTensorTypeConstr)
    expert_scores = operand_def(AnyTensorTypeConstr)
    expert_mapping = operand_def(AnyTensorTypeConstr)
    dispatched = result_def(AnyTensorTypeConstr)
    indices = result_def(AnyTensorTypeConstr)
    scores = result_def(AnyTensorTypeConstr)
    num_devices = attr_def(IntegerAttr)
    cluster_axis = attr_def(IntegerAttr)

    MAPPING: ClassVar[tuple[int, str]] = (4, "expert_mapping must be a 4D tensor [1, 1, D, E]")
    """The rank tt-mlir's verifier wants of the mapping, and its message."""

    def verify_(self) -> None:
        _rank(self.input_tensor, 4, "input_tensor must be a 4D tensor [1, 1, M, H]")
        _rank(self.expert_indices, 4, "expert_indices must be a 4D tensor [1, 1, M, K]")
        _rank(self.expert_scores, 4, "expert_scores must be a 4D tensor [1, 1, M, K]")
        _rank(self.expert_mapping, *self.MAPPING)
        _rank(self.dispatched, 3, "dispatched output must be a 3D tensor [1, tokens_global, H]")
        _rank(self.indices, 3, "indices output must be a 3D tensor [1, tokens_global, K]")
        _rank(self.scores, 3, "scores output must be a 3D tensor [1, tokens_global, K]")
        self.check_devices_and_axis()
        segments = self.attributes.get("operandSegmentSizes")
        if segments is not None:
            sizes = tuple(segments.get_values()) if isinstance(segments, DenseArrayBase) else ()
            if sizes[:4] != (1, 1, 1, 1) or any(sizes[4:]):
                raise VerifyException(f"operandSegmentSizes {list(sizes)}: meshc reads this op with its persistent "
                                      "buffers and semaphore unbound (expected 1, 1, 1, 1, 0, 0, 0, 0)")


@irdl_op_definition
class AllToAllDispatchMetadataOp(AllToAllDispatchMetadataBase):
    name = "ttir.all_to_all_dispatch_metadata"
    traits = traits_def(PerDevice(), NoMemoryEffect())


class AllToAllCombineBase(_MoeCclBase):
    """The experts' outputs back to their tokens' devices: input_tensor [E_local, B*D, S, H],
    expert_metadata [1, B*D, S, K], expert_mapping [1, 1, E, D] -> [K, B, S, H] (row k: the
    token's k-th expert's output), the tokens split along output_shard_dim (1 batch, 2 sequence)."""

    input_tensor = operand_def(AnyTensorTypeConstr)
    expert_metadata = operand_def(AnyTensorTypeConstr)
    expert_mapping = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    num_devices = attr_def(IntegerAttr)
    cluster_axis = attr_def(IntegerAttr)
    num_experts_per_tok = attr_def(IntegerAttr)
    output_shard_dim = opt_attr_def(IntegerAttr)

    CHECKS_SHARD_DIM: ClassVar[bool] = False
    """TTNN's verifier (not TTIR's) wants output_shard_dim in {1, 2}."""

    def shard_dim(self) -> int:
        """output_shard_dim, tt-mlir's default 2 when absent."""
        return _opt_int(self, "output_shard_dim", 2)

    def verify_(self) -> None:
        _rank(self.input_tensor, 4, "input_tensor must be a 4D tensor [E_local, B*D, S, H]")
        _rank(self.expert_metadata, 4, "expert_metadata must be a 4D tensor [1, B*D, S, K]")
        _rank(self.expert_mapping, 4, "expert_mapping must be a 4D tensor [1, 1, E, D]")
        _rank(self.result, 4, "result must be a 4D tensor [K, B, S, H]")
        self.check_devices_and_axis()
        if int_value(self.num_experts_per_tok) <= 0:
            raise VerifyException("num_experts_per_tok must be positive")
        if self.CHECKS_SHARD_DIM and self.shard_dim() not in (1, 2):
            raise VerifyException(f"output_shard_dim must be 1 or 2, got {self.shard_dim()}")


@irdl_op_definition
class AllToAllCombineOp(AllToAllCombineBase):
    name = "ttir.all_to_all_combine"
    traits = traits_def(PerDevice(), NoMemoryEffect())


class MoeExpertTokenRemapBase(TTIROpBase):
    """Global routing weights to the device's local experts: topk_tensor [D, B, S, E],
    expert_mapping [1, 1, E, D], expert_metadata [D, B, S, K] -> mapping [1, B, S, E_local] and
    reduced [1, 1, ceil(B*S/reduction_size), E_local] (1 where a group of reduction_size tokens
    uses the local expert: the sparsity of a following sparse_matmul)."""

    topk_tensor = operand_def(AnyTensorTypeConstr)
    expert_mapping = operand_def(AnyTensorTypeConstr)
    expert_metadata = operand_def(AnyTensorTypeConstr)
    mapping = result_def(AnyTensorTypeConstr)
    reduced = result_def(AnyTensorTypeConstr)
    reduction_size = attr_def(IntegerAttr)

    RESULT_MESSAGES: ClassVar[tuple[str, str]] = (
        "mapping output must be a 4D tensor [1, B, S, E_local]",
        "reduced output must be a 4D tensor [1, 1, ceil(B*S/R), E_local]",
    )
    """tt-mlir's TTIR messages for the results' ranks (TTNN's leave the shapes out)."""

    def verify_(self) -> None:
        _rank(self.topk_tensor, 4, "topk_tensor must be a 4D tensor [D, B, S, E]")
        _rank(self.expert_mapping, 4, "expert_mapping must be a 4D tensor [1, 1, E, D]")
        _rank(self.expert_metadata, 4, "expert_metadata must be a 4D tensor [D, B, S, K]")
        _rank(self.mapping, 4, self.RESULT_MESSAGES[0])
        _rank(self.reduced, 4, self.RESULT_MESSAGES[1])
        if int_value(self.reduction_size) <= 0:
            raise VerifyException("reduction_size must be positive")


@irdl_op_definition
class MoeExpertTokenRemapOp(MoeExpertTokenRemapBase):
    name = "ttir.moe_expert_token_remap"
    traits = traits_def(PerDevice(), NoMemoryEffect())


class SparseMatmulBase(TTIROpBase):
    """A batched matmul over expert blocks that skips the blocks `sparsity` marks 0 (they are
    zeros): b [1, E, K, N]; a [A, B, M, K] -> [A, B, 1, E, M, N] (is_input_b_sparse, the default),
    a [A, E, M, K] -> [A, E, M, N] (is_input_a_sparse), a [1, E, M, K] -> [1, E, M, N] (both).
    `nnz` (blocks on a row) is a hint the values do not depend on."""

    a = operand_def(AnyTensorTypeConstr)
    b = operand_def(AnyTensorTypeConstr)
    sparsity = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    is_input_a_sparse = opt_attr_def(IntegerAttr)
    is_input_b_sparse = opt_attr_def(IntegerAttr)
    nnz = opt_attr_def(IntegerAttr)

    def modes(self) -> tuple[bool, bool]:
        """(is_input_a_sparse, is_input_b_sparse), tt-mlir's defaults false and true."""
        return _bool(self, "is_input_a_sparse", False), _bool(self, "is_input_b_sparse", True)

    def verify_(self) -> None:
        nnz = _opt_int(self, "nnz", None)
        if nnz is not None and nnz <= 0:
            raise VerifyException("nnz must be greater than 0 when set")
        a, b, sp, out = (tensor_shape(v) for v in (self.a, self.b, self.sparsity, self.result))
        if len(a) < 4:
            raise VerifyException("Input A must be at least a 4D tensor")
        if len(b) != 4:
            raise VerifyException("Input B must be a 4D tensor [1, E, K, N]")
        if len(sp) != 4:
            raise VerifyException("Sparsity tensor must be a 4D tensor")
        a_sparse, b_sparse = self.modes()
        if not a_sparse and not b_sparse:
            raise VerifyException("At least one of is_input_a_sparse or is_input_b_sparse must be true")
        _, e, k, n = b
        m = a[-2]
        if b[0] != 1:
            raise VerifyException("Input B first dimension must be 1")
        if a[-1] != k:
            raise VerifyException("Input A inner dimension must match Input B K dimension")
        if sp[-1] != e:
            raise VerifyException("Sparsity tensor last dimension must match number of experts in Input B")
        if a_sparse and b_sparse:
            want, rank, mode = (1, e, m, n), 4, "sparse-sparse"
            form = "[1, E, M, N]"
        elif b_sparse:
            want, rank, mode = (a[0], a[1], 1, e, m, n), 6, "dense-sparse"
            form = "[A, B, 1, E, M, N]"
        else:
            want, rank, mode = (a[0], e, m, n), 4, "sparse-dense"
            form = "[A, E, M, N]"
        if len(out) != rank:
            raise VerifyException(f"Output must be {rank}D for {mode} mode")
        if tuple(out) != want:
            raise VerifyException(f"Output shape must be {form} for {mode} mode")


@irdl_op_definition
class SparseMatmulOp(SparseMatmulBase):
    name = "ttir.sparse_matmul"
    traits = traits_def(PerDevice(), NoMemoryEffect())


TTMLIR_MOE_OPS = (AllToAllDispatchOp, AllToAllDispatchMetadataOp, AllToAllCombineOp, MoeExpertTokenRemapOp,
                  SparseMatmulOp)
"""tt-mlir's MoE ops in ttir, in the order the ttnn twins list theirs (the lowering pairs them)."""
