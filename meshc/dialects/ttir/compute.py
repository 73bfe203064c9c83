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
    opt_operand_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException

from meshc.dialects import shape_rules as rules
from meshc.dialects.ttir.comparison import CompareBase, WhereBase
from meshc.dialects.ttir.scan import ArgReduceBase, ScanBase, SortBase, TopKBase
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


def _broadcast(x: tuple[int, ...], y: tuple[int, ...]) -> tuple[int, ...] | None:
    """numpy's broadcast of two shapes, None when they do not broadcast."""
    n = max(len(x), len(y))
    xs, ys = (1,) * (n - len(x)) + tuple(x), (1,) * (n - len(y)) + tuple(y)
    if any(p != q and 1 not in (p, q) for p, q in zip(xs, ys)):
        return None
    return tuple(max(p, q) if 1 in (p, q) else p for p, q in zip(xs, ys))


def _join(shape) -> str:
    return ",".join(map(str, shape))


class LinearBase(TTIROpBase):
    """tt-mlir's linear: matmul(a, b) + bias, bias optional; `transpose_a` / `transpose_b` as
    matmul's. The verifier is tt-mlir's TTIR LinearOp::verify, in its words: a rank-1 a is a row
    (1 prepended), a rank-1 b a column (1 appended), the dims added for a vector are dropped from
    the product, batch dims broadcast, the bias broadcasts against the product and the result has
    the broadcast shape (a vector-vector product is `tensor<1>`). TTNN's twin takes the same
    operands; its `activation` (a fused activation) is refused, as meshc does not run one."""

    a = operand_def(AnyTensorTypeConstr)
    b = operand_def(AnyTensorTypeConstr)
    bias = opt_operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    transpose_a = opt_attr_def(BoolAttr)
    transpose_b = opt_attr_def(BoolAttr)
    traits = traits_def(NoMemoryEffect())

    def expected_shape(self) -> tuple[int, ...]:
        a, b = list(tensor_shape(self.a)), list(tensor_shape(self.b))
        if len(a) < 1:
            raise VerifyException("Input A must be at least a 1D tensor")
        if len(b) < 1:
            raise VerifyException("Input B must be at least a 1D tensor")
        rank_a, rank_b = len(a), len(b)
        if rank_a == 1:
            a.insert(0, 1)
        elif bool_value(self.transpose_a):
            a[-1], a[-2] = a[-2], a[-1]
        if rank_b == 1:
            b.append(1)
        elif bool_value(self.transpose_b):
            b[-1], b[-2] = b[-2], b[-1]
        if a[-1] != b[-2]:
            raise VerifyException(f"Input A[-1]({a[-1]}) and B[-2]({b[-2]}) must have matching inner dimensions")
        expected: tuple[int, ...] = ()
        if len(a) > 2 or len(b) > 2:
            batch = _broadcast(tuple(a[:-2]), tuple(b[:-2]))
            if batch is None:
                raise VerifyException(f"Batch dimensions of input A({_join(a[:-2])}) and B({_join(b[:-2])}) are not "
                                      "broadcast compatible")
            expected = batch
        expected += ((a[-2],) if rank_a > 1 else ()) + ((b[-1],) if rank_b > 1 else ())
        if self.bias is not None:
            bias = tensor_shape(self.bias)
            if len(bias) < 1:
                raise VerifyException("Bias must be at least a 1D tensor")
            out = _broadcast(expected, bias)
            if out is None:
                raise VerifyException(f"Bias shape({_join(bias)}) is not broadcast compatible with the matmul "
                                      f"output shape({_join(expected)})")
            expected = out
        return expected

    def verify_(self) -> None:
        if "activation" in self.attributes:
            raise VerifyException(f"activation {self.attributes['activation']}: meshc does not run a fused "
                                  "activation; write it as its own op after the linear")
        expected = self.expected_shape()
        out = self.result_shape()
        if not expected:
            if len(out) < 1:
                raise VerifyException("Scalar output is not supported, output must be at least a 1D tensor")
            if len(out) > 1 or out[0] != 1:
                raise VerifyException("Scalar output must be a 1D tensor of size 1")
            return
        if len(out) != len(expected):
            raise VerifyException(f"Output shape rank({len(out)}) must match the expected output shape "
                                  f"rank({len(expected)})")
        for i, (o, e) in enumerate(zip(out, expected)):
            if o != e:
                raise VerifyException(f"Output shape dimension[{i}]({o}) doesn't match the expected output shape "
                                      f"dimension[{i}]({e})")


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
    "linear": LinearBase,
    "scan": ScanBase,
    "argreduce": ArgReduceBase,
    "topk": TopKBase,
    "sort": SortBase,
}
"""Family of the compute-op registry -> the base class of its ops (ttir's and ttnn's)."""

COMPUTE_OPS = compute_op_classes("ttir", FAMILY_BASES, __name__)
"""Registry kind -> its ttir op class (meshc.layout.compute_ops.COMPUTE_OPS)."""
