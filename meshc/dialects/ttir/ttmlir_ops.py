"""tt-mlir's per-device ops outside the MoE family: mesh_partition and the KV-cache writes
update_cache and fill_cache, with tt-mlir's operands, attributes and verifiers (TTIROps.td,
lib/Dialect/TTIR/IR/TTIROps.cpp; the TTNN twins in meshc/dialects/ttnn/ttmlir_ops.py share these
bases and TTNN's verifiers, which are the same).

What they compute is in meshc/layout/ttmlir_ops.py. tt-mlir's verifiers check ranks, types and
attribute ranges, not the mesh: a result that does not fit the mesh, or an index outside the
cache, is the run's located error.

update_cache and fill_cache write their `cache` operand in place and have no result: later uses
of the cache value see the write (tt-mlir's `MemWrite` on the operand). meshc runs them on a
cache held on the devices (a mesh_shard's, a to_device's or an op's result).
"""

from __future__ import annotations

from xdsl.dialects.builtin import AnyTensorTypeConstr, IntegerAttr, TensorType
from xdsl.ir import SSAValue
from xdsl.irdl import attr_def, irdl_op_definition, operand_def, opt_attr_def, result_def, traits_def
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException

from meshc.dialects.element_types import data_type_name
from meshc.dialects.ttir.base import PerDevice, TTIROpBase, int_value, tensor_shape

_TTMLIR_DTYPE = {"f32": "Float32", "bf16": "BFloat16", "f16": "Float16", "si32": "Int32", "ui32": "UInt32",
                 "ui16": "UInt16", "ui8": "UInt8"}
"""meshc data type name -> the name tt-mlir's DataTypeEnumToString prints."""


def _dtype(value: SSAValue) -> str:
    t = value.type
    assert isinstance(t, TensorType)
    name = data_type_name(t.element_type)
    return _TTMLIR_DTYPE.get(name or "", str(t.element_type))


class MeshPartitionBase(TTIROpBase):
    """Each device keeps its piece of `dim`: the input split into n equal pieces along `dim`, n the
    devices along `cluster_axis` (all the mesh's devices, in row-major order, when absent), the
    device keeping piece p, its place in that order. Moves nothing (tt-mlir's lowering of
    Shardy's all_slice; TT-Metal's mesh_partition)."""

    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    dim = attr_def(IntegerAttr)
    cluster_axis = opt_attr_def(IntegerAttr)

    def axis(self) -> int | None:
        return None if self.cluster_axis is None else int_value(self.cluster_axis)

    def normalized_dim(self) -> int:
        d = int_value(self.dim)
        return d + len(tensor_shape(self.input)) if d < 0 else d

    def verify_(self) -> None:
        rank = len(tensor_shape(self.input))
        d = int_value(self.dim)
        if d >= rank or d < -rank:
            raise VerifyException("Invalid tensor dimension for mesh partition op. Dimension must be >= to input "
                                  f"tensor rank or < -input tensor rank, got dim = {d}")
        axis = self.axis()
        if axis is not None and axis > 1:
            raise VerifyException(f"Cluster axis must be either None, 0 or 1, got {axis}")


@irdl_op_definition
class MeshPartitionOp(MeshPartitionBase):
    name = "ttir.mesh_partition"
    traits = traits_def(PerDevice(), NoMemoryEffect())


class _CacheBase(TTIROpBase):
    """The checks update_cache and fill_cache share: one dtype, rank-4 cache and input (each op
    declares its operands itself, in tt-mlir's order)."""

    def check_cache_and_input(self) -> None:
        cache, inp = _dtype(self.cache), _dtype(self.input)
        if cache != inp:
            raise VerifyException(f"Cache and input tensors must have the same dtype. Got cache dtype = {cache}, "
                                  f"input dtype = {inp}")
        if len(tensor_shape(self.cache)) != 4:
            raise VerifyException("Cache tensor must be a 4D tensor")
        if len(tensor_shape(self.input)) != 4:
            raise VerifyException("Input tensor must be a 4D tensor")

    def check_dims_1_and_3(self, sep: str, open_input: str) -> None:
        c, i = tensor_shape(self.cache), tensor_shape(self.input)
        if c[1] != i[1] or c[3] != i[3]:
            raise VerifyException("Cache tensor shape must match input tensor shape on dims 1 and 3. Got cache shape "
                                  f"({', '.join(map(str, c))}), input shape {open_input}{sep.join(map(str, i))})")


class UpdateCacheBase(_CacheBase):
    """One position of the cache written from the input: cache [U, H, S, D], input [1, H, B, D],
    update_index (its first element: the position p); cache[batch_offset + b, h, p, d] =
    input[0, h, b, d] for every b < B (TT-Metal's update_cache)."""

    cache = operand_def(AnyTensorTypeConstr)
    input = operand_def(AnyTensorTypeConstr)
    update_index = operand_def(AnyTensorTypeConstr)
    batch_offset = attr_def(IntegerAttr)

    def verify_(self) -> None:
        self.check_cache_and_input()
        i = tensor_shape(self.input)
        if i[0] != 1:
            raise VerifyException(f"Input tensor requires that dim 0 have size 1, got input dim 0 size = {i[0]}")
        # tt-mlir's message prints the input shape after "()" and joins it with "x"
        self.check_dims_1_and_3("x", "()")


@irdl_op_definition
class UpdateCacheOp(UpdateCacheBase):
    name = "ttir.update_cache"
    traits = traits_def(PerDevice())


class FillCacheBase(_CacheBase):
    """The first positions of the cache written from the input: cache [U, H, S, D], input
    [B, H, L, D] with L <= S; cache[batch_offset + b, :, :L, :] = input[b] for every b < B, and
    the rest of the input's last tile of rows (L up to a multiple of 32, when that is within S)
    zeros, as TT-Metal's fill_cache writes whole tiles."""

    cache = operand_def(AnyTensorTypeConstr)
    input = operand_def(AnyTensorTypeConstr)
    batch_offset = attr_def(IntegerAttr)

    def verify_(self) -> None:
        self.check_cache_and_input()
        c, i = tensor_shape(self.cache), tensor_shape(self.input)
        if i[2] > c[2]:
            raise VerifyException("Input tensor requires that dim 2 have a size which is less than or equal to the "
                                  f"size of dim 2 of the cache tensor. Got cache dim 2 size = {c[2]}, input dim 2 "
                                  f"size = {i[2]}")
        self.check_dims_1_and_3(", ", "(")


@irdl_op_definition
class FillCacheOp(FillCacheBase):
    name = "ttir.fill_cache"
    traits = traits_def(PerDevice())


TTMLIR_OPS = (MeshPartitionOp, UpdateCacheOp, FillCacheOp)
"""These ops in ttir, in the order the ttnn twins list theirs (the lowering pairs them)."""

_FUSED_MOE = ("a fused kernel of TT-Metal's GPT-OSS MoE (selective tilize, the expert matmuls and the ring "
              "exchange in one program), whose operands and results are that kernel's own buffers")
UNREAD_OPS: dict[str, str] = {
    f"{d}.{name}": why for d in ("ttir", "ttnn") for name, why in (
        ("moe_gpt", _FUSED_MOE + " (token counts, activation records, tilized tokens)"),
        ("moe_compute", _FUSED_MOE),
        ("selective_reduce_combine", "the combine stage of TT-Metal's fused GPT-OSS MoE "
                                     "kernel, reading moe_gpt's dense token maps and counts"),
    )
}
"""tt-mlir ops meshc knows and does not read, with what they are (the parser's error says so)."""
