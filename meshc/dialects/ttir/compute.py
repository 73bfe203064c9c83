"""ttir compute and data-movement ops: elementwise, matmul, transpose/permute/reshape/broadcast/
concat, reductions, softmax, embedding, constants and layout changes."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    AnyTensorTypeConstr,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    TensorType,
)
from xdsl.irdl import (
    attr_def,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException

from meshc.dialects import shape_rules as rules
from meshc.dialects.ttir.base import (
    ElementwiseBinaryBase,
    ElementwiseUnaryBase,
    ReductionBase,
    TTIROpBase,
    check_same_element_type,
    check_same_shape,
    bool_value,
    int_value,
    tensor_shape,
)


# ----------------------------------------------------------------------------- elementwise


@irdl_op_definition
class ExpOp(ElementwiseUnaryBase):
    name = "ttir.exp"


@irdl_op_definition
class LogOp(ElementwiseUnaryBase):
    name = "ttir.log"


@irdl_op_definition
class ReluOp(ElementwiseUnaryBase):
    name = "ttir.relu"


@irdl_op_definition
class SigmoidOp(ElementwiseUnaryBase):
    name = "ttir.sigmoid"


@irdl_op_definition
class TanhOp(ElementwiseUnaryBase):
    name = "ttir.tanh"


@irdl_op_definition
class GeluOp(ElementwiseUnaryBase):
    name = "ttir.gelu"


@irdl_op_definition
class NegOp(ElementwiseUnaryBase):
    name = "ttir.neg"


@irdl_op_definition
class SqrtOp(ElementwiseUnaryBase):
    name = "ttir.sqrt"


class TypecastBase(ElementwiseUnaryBase):
    """Convert the element type; the shape is kept."""

    SAME_ELEMENT_TYPE: ClassVar[bool] = False


@irdl_op_definition
class TypecastOp(TypecastBase):
    name = "ttir.typecast"


@irdl_op_definition
class AddOp(ElementwiseBinaryBase):
    name = "ttir.add"


@irdl_op_definition
class SubtractOp(ElementwiseBinaryBase):
    name = "ttir.subtract"


@irdl_op_definition
class MultiplyOp(ElementwiseBinaryBase):
    name = "ttir.multiply"


@irdl_op_definition
class DivOp(ElementwiseBinaryBase):
    name = "ttir.div"


@irdl_op_definition
class MaximumOp(ElementwiseBinaryBase):
    name = "ttir.maximum"


@irdl_op_definition
class MinimumOp(ElementwiseBinaryBase):
    name = "ttir.minimum"


@irdl_op_definition
class PowOp(ElementwiseBinaryBase):
    """lhs ** rhs, elementwise (a negative base to a non-integer power is NaN, as in IEEE pow)."""

    name = "ttir.pow"


@irdl_op_definition
class ErfOp(ElementwiseUnaryBase):
    """The error function, elementwise."""

    name = "ttir.erf"


# ----------------------------------------------------------------------------- matmul, data movement


class MatmulBase(TTIROpBase):
    """(..., M, K) x (..., K, N) -> (..., M, N); batch dims broadcast; optional transposes."""

    a = operand_def(AnyTensorTypeConstr)
    b = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    transpose_a = opt_attr_def(BoolAttr)
    transpose_b = opt_attr_def(BoolAttr)
    traits = traits_def(NoMemoryEffect())

    def verify_(self) -> None:
        self.expect_result(
            rules.matmul_shape(
                tensor_shape(self.a), tensor_shape(self.b), bool_value(self.transpose_a), bool_value(self.transpose_b)
            )
        )


@irdl_op_definition
class MatmulOp(MatmulBase):
    name = "ttir.matmul"


class TransposeBase(TTIROpBase):
    """Swap dims `dim0` and `dim1` (negative dims count from the end)."""

    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    dim0 = attr_def(IntegerAttr)
    dim1 = attr_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())

    def dims(self) -> tuple[int, int]:
        rank = len(tensor_shape(self.input))
        d0 = rules.normalize_dim(int_value(self.dim0), rank, "dim0")
        d1 = rules.normalize_dim(int_value(self.dim1), rank, "dim1")
        return d0, d1

    def verify_(self) -> None:
        shape = list(tensor_shape(self.input))
        d0, d1 = self.dims()
        shape[d0], shape[d1] = shape[d1], shape[d0]
        self.expect_result(tuple(shape))


@irdl_op_definition
class TransposeOp(TransposeBase):
    name = "ttir.transpose"


class PermuteBase(TTIROpBase):
    """result dim i = operand dim permutation[i]."""

    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    permutation = attr_def(DenseArrayBase)
    traits = traits_def(NoMemoryEffect())

    def verify_(self) -> None:
        shape = tensor_shape(self.input)
        perm = rules.check_permutation(rules.ints_of(self.permutation), len(shape))
        self.expect_result(tuple(shape[p] for p in perm))


@irdl_op_definition
class PermuteOp(PermuteBase):
    name = "ttir.permute"


class ReshapeBase(TTIROpBase):
    """Same elements in row-major order, new shape (the result type; `shape` if given must agree)."""

    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    shape = opt_attr_def(ArrayAttr)
    traits = traits_def(NoMemoryEffect())

    def verify_(self) -> None:
        rules.check_reshape(tensor_shape(self.input), self.result_shape())
        if self.shape is not None:
            check_same_shape("result shape", self.result_shape(), tuple(rules.ints_of(self.shape)))


@irdl_op_definition
class ReshapeOp(ReshapeBase):
    name = "ttir.reshape"


class BroadcastBase(TTIROpBase):
    """Broadcast to the result shape (numpy rules); `broadcast_dimensions` = per-dim repeat counts."""

    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    broadcast_dimensions = opt_attr_def(DenseArrayBase)
    traits = traits_def(NoMemoryEffect())

    def verify_(self) -> None:
        rules.check_broadcast_to(
            tensor_shape(self.input),
            self.result_shape(),
            None if self.broadcast_dimensions is None else rules.ints_of(self.broadcast_dimensions),
        )


@irdl_op_definition
class BroadcastOp(BroadcastBase):
    name = "ttir.broadcast"


class ConcatBase(TTIROpBase):
    """Join the operands along `dim`."""

    inputs = var_operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    dim = attr_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())

    def verify_(self) -> None:
        self.expect_result(rules.concat_shape([tensor_shape(v) for v in self.inputs], int_value(self.dim)))


@irdl_op_definition
class ConcatOp(ConcatBase):
    name = "ttir.concat"


@irdl_op_definition
class SumOp(ReductionBase):
    name = "ttir.sum"


@irdl_op_definition
class MeanOp(ReductionBase):
    name = "ttir.mean"


@irdl_op_definition
class MaxOp(ReductionBase):
    name = "ttir.max"


class SoftmaxBase(TTIROpBase):
    """softmax along `dimension`; the shape is kept."""

    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    dimension = attr_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())

    def verify_(self) -> None:
        shape = tensor_shape(self.input)
        rules.normalize_dim(int_value(self.dimension), len(shape), "dimension")
        self.expect_result(shape)


@irdl_op_definition
class SoftmaxOp(SoftmaxBase):
    name = "ttir.softmax"


class EmbeddingBase(TTIROpBase):
    """Rows of `weight` (V, D) gathered by integer `input` indices: result = input shape + (D,)."""

    input = operand_def(AnyTensorTypeConstr)
    weight = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    traits = traits_def(NoMemoryEffect())

    def verify_(self) -> None:
        self.expect_result(rules.embedding_shape(tensor_shape(self.input), tensor_shape(self.weight)))


@irdl_op_definition
class EmbeddingOp(EmbeddingBase):
    name = "ttir.embedding"


@irdl_op_definition
class EmptyOp(TTIROpBase):
    """A tensor with unspecified contents."""

    name = "ttir.empty"
    result = result_def(AnyTensorTypeConstr)
    traits = traits_def(NoMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser) -> "EmptyOp":
        """tt-mlir's `ttir.empty() : tensor<...>` (meshc prints the generic form)."""
        parser.parse_punctuation("(")
        parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        return cls.create(result_types=[parser.parse_type()], attributes=attrs)


class ConstantBase(TTIROpBase):
    """A tensor given by a dense elements attribute of the result's shape and element type."""

    result = result_def(AnyTensorTypeConstr)
    value = attr_def(DenseIntOrFPElementsAttr)

    def verify_(self) -> None:
        vt = self.value.type
        rt = self.result.type
        assert isinstance(rt, TensorType)
        check_same_shape("value shape", tuple(vt.get_shape()), self.result_shape())
        if vt.get_element_type() != rt.element_type:
            raise VerifyException(
                f"value element type {vt.get_element_type()} differs from the result's {rt.element_type}"
            )


@irdl_op_definition
class ConstantOp(ConstantBase):
    name = "ttir.constant"
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class ToLayoutOp(TTIROpBase):
    """Same values, another layout (the result's encoding): a copy between placements."""

    name = "ttir.to_layout"
    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    traits = traits_def(NoMemoryEffect())

    def verify_(self) -> None:
        self.expect_result(tensor_shape(self.input))
        check_same_element_type(self.input, self.result, "; use ttir.typecast to change it")
