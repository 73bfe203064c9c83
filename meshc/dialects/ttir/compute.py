"""ttir compute and data-movement ops: the base class of each family of the compute-op registry
(meshc/layout/compute_ops.py), the op classes generated from it (`COMPUTE_OPS`), and the ops
outside it: empty, constant, to_layout.

Each registry entry is one op, `ttir.<name>`, on the base of its family (`FAMILY_BASES`): the
base holds the operands, attributes and shape rule, the entry what the op means; the ttnn
dialect makes its ops from the same bases."""

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
from meshc.dialects.ttir.comparison import CompareBase, WhereBase
from meshc.dialects.ttir.base import (
    ElementwiseBinaryBase,
    ElementwiseUnaryBase,
    ReductionBase,
    TTIROpBase,
    compute_op_classes,
    check_same_element_type,
    check_same_shape,
    bool_value,
    int_value,
    tensor_shape,
)


# ----------------------------------------------------------------------------- elementwise


class TypecastBase(ElementwiseUnaryBase):
    """Convert the element type; the shape is kept."""

    SAME_ELEMENT_TYPE: ClassVar[bool] = False


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


class ConcatBase(TTIROpBase):
    """Join the operands along `dim`."""

    inputs = var_operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    dim = attr_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())

    def verify_(self) -> None:
        self.expect_result(rules.concat_shape([tensor_shape(v) for v in self.inputs], int_value(self.dim)))


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


class SliceBase(TTIROpBase):
    """The elements `begins[d]`, `begins[d] + step[d]`, ... below `ends[d]` of every dim d
    (tt-mlir's slice: one entry a dim, 0 <= begins <= ends <= the dim's size, steps >= 1)."""

    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    begins = attr_def(ArrayAttr)
    ends = attr_def(ArrayAttr)
    step = attr_def(ArrayAttr)
    traits = traits_def(NoMemoryEffect())

    def bounds(self) -> tuple[list[int], list[int], list[int]]:
        return rules.ints_of(self.begins), rules.ints_of(self.ends), rules.ints_of(self.step)

    def verify_(self) -> None:
        self.expect_result(rules.slice_shape(tensor_shape(self.input), *self.bounds()))


class EmbeddingBase(TTIROpBase):
    """Rows of `weight` (V, D) gathered by integer `input` indices: result = input shape + (D,)."""

    input = operand_def(AnyTensorTypeConstr)
    weight = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    traits = traits_def(NoMemoryEffect())

    def verify_(self) -> None:
        self.expect_result(rules.embedding_shape(tensor_shape(self.input), tensor_shape(self.weight)))


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


# ----------------------------------------------------------------------------- the registry's ops

FAMILY_BASES: dict[str, type[TTIROpBase]] = {
    "unary": ElementwiseUnaryBase,
    "typecast": TypecastBase,
    "binary": ElementwiseBinaryBase,
    "comparison": CompareBase,
    "where": WhereBase,
    "reduction": ReductionBase,
    "matmul": MatmulBase,
    "transpose": TransposeBase,
    "permute": PermuteBase,
    "reshape": ReshapeBase,
    "broadcast": BroadcastBase,
    "concat": ConcatBase,
    "softmax": SoftmaxBase,
    "embedding": EmbeddingBase,
    "slice": SliceBase,
}
"""Family of the compute-op registry -> the base class of its ops (ttir's and ttnn's)."""

COMPUTE_OPS = compute_op_classes("ttir", FAMILY_BASES, __name__)
"""Registry kind -> its ttir op class (meshc.layout.compute_ops.COMPUTE_OPS)."""
