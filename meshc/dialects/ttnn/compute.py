"""ttnn compute ops: the ttir op families under ttnn names (same operands, attributes and
verifier as the ttir family base each derives from)."""

from __future__ import annotations

from xdsl.dialects.builtin import AnyTensorTypeConstr
from xdsl.irdl import irdl_op_definition, result_def

from meshc.dialects import ttir


@irdl_op_definition
class EmptyOp(ttir.TTIROpBase):
    """A device tensor with unspecified contents."""

    name = "ttnn.empty"
    result = result_def(AnyTensorTypeConstr)


@irdl_op_definition
class ConstantOp(ttir.ConstantBase):
    """A host tensor given by a dense elements attribute."""

    name = "ttnn.constant"


@irdl_op_definition
class ExpOp(ttir.ElementwiseUnaryBase):
    """TTNN's exp, as ttir's."""

    name = "ttnn.exp"


@irdl_op_definition
class LogOp(ttir.ElementwiseUnaryBase):
    """TTNN's log, as ttir's."""

    name = "ttnn.log"


@irdl_op_definition
class ReluOp(ttir.ElementwiseUnaryBase):
    """TTNN's relu, as ttir's."""

    name = "ttnn.relu"


@irdl_op_definition
class SigmoidOp(ttir.ElementwiseUnaryBase):
    """TTNN's sigmoid, as ttir's."""

    name = "ttnn.sigmoid"


@irdl_op_definition
class TanhOp(ttir.ElementwiseUnaryBase):
    """TTNN's tanh, as ttir's."""

    name = "ttnn.tanh"


@irdl_op_definition
class GeluOp(ttir.ElementwiseUnaryBase):
    """TTNN's gelu, as ttir's."""

    name = "ttnn.gelu"


@irdl_op_definition
class NegOp(ttir.ElementwiseUnaryBase):
    """TTNN's neg, as ttir's."""

    name = "ttnn.neg"


@irdl_op_definition
class SqrtOp(ttir.ElementwiseUnaryBase):
    """TTNN's sqrt, as ttir's."""

    name = "ttnn.sqrt"


@irdl_op_definition
class AddOp(ttir.ElementwiseBinaryBase):
    """TTNN's add, as ttir's."""

    name = "ttnn.add"


@irdl_op_definition
class SubtractOp(ttir.ElementwiseBinaryBase):
    """TTNN's subtract, as ttir's."""

    name = "ttnn.subtract"


@irdl_op_definition
class MultiplyOp(ttir.ElementwiseBinaryBase):
    """TTNN's multiply, as ttir's."""

    name = "ttnn.multiply"


@irdl_op_definition
class DivOp(ttir.ElementwiseBinaryBase):
    """TTNN's div, as ttir's."""

    name = "ttnn.div"


@irdl_op_definition
class MaximumOp(ttir.ElementwiseBinaryBase):
    """TTNN's maximum, as ttir's."""

    name = "ttnn.maximum"


@irdl_op_definition
class MinimumOp(ttir.ElementwiseBinaryBase):
    """TTNN's minimum, as ttir's."""

    name = "ttnn.minimum"


@irdl_op_definition
class PowOp(ttir.ElementwiseBinaryBase):
    """TTNN's pow, as ttir's."""

    name = "ttnn.pow"


@irdl_op_definition
class ErfOp(ttir.ElementwiseUnaryBase):
    """TTNN's erf, as ttir's."""

    name = "ttnn.erf"


@irdl_op_definition
class MatmulOp(ttir.MatmulBase):
    """TTNN's matmul, as ttir's."""

    name = "ttnn.matmul"


@irdl_op_definition
class TransposeOp(ttir.TransposeBase):
    """TTNN's transpose, as ttir's."""

    name = "ttnn.transpose"


@irdl_op_definition
class PermuteOp(ttir.PermuteBase):
    """TTNN's permute, as ttir's."""

    name = "ttnn.permute"


@irdl_op_definition
class ReshapeOp(ttir.ReshapeBase):
    """TTNN's reshape, as ttir's."""

    name = "ttnn.reshape"


@irdl_op_definition
class RepeatOp(ttir.BroadcastBase):
    """TTNN's repeat, as ttir's."""

    name = "ttnn.repeat"


@irdl_op_definition
class ConcatOp(ttir.ConcatBase):
    """TTNN's concat, as ttir's."""

    name = "ttnn.concat"


@irdl_op_definition
class SumOp(ttir.ReductionBase):
    """TTNN's sum, as ttir's."""

    name = "ttnn.sum"


@irdl_op_definition
class MeanOp(ttir.ReductionBase):
    """TTNN's mean, as ttir's."""

    name = "ttnn.mean"


@irdl_op_definition
class MaxOp(ttir.ReductionBase):
    """TTNN's max, as ttir's."""

    name = "ttnn.max"


@irdl_op_definition
class SoftmaxOp(ttir.SoftmaxBase):
    """TTNN's softmax, as ttir's."""

    name = "ttnn.softmax"


@irdl_op_definition
class EmbeddingOp(ttir.EmbeddingBase):
    """TTNN's embedding, as ttir's."""

    name = "ttnn.embedding"


@irdl_op_definition
class TypecastOp(ttir.TypecastBase):
    """TTNN's typecast, as ttir's."""

    name = "ttnn.typecast"


@irdl_op_definition
class EqualOp(ttir.CompareBase):
    """TTNN's eq, as ttir's (1 / 0 in the result's element type)."""

    name = "ttnn.eq"


@irdl_op_definition
class NotEqualOp(ttir.CompareBase):
    """TTNN's ne, as ttir's."""

    name = "ttnn.ne"


@irdl_op_definition
class GreaterThanOp(ttir.CompareBase):
    """TTNN's gt, as ttir's."""

    name = "ttnn.gt"


@irdl_op_definition
class GreaterEqualOp(ttir.CompareBase):
    """TTNN's ge, as ttir's."""

    name = "ttnn.ge"


@irdl_op_definition
class LessThanOp(ttir.CompareBase):
    """TTNN's lt, as ttir's."""

    name = "ttnn.lt"


@irdl_op_definition
class LessEqualOp(ttir.CompareBase):
    """TTNN's le, as ttir's."""

    name = "ttnn.le"


@irdl_op_definition
class WhereOp(ttir.WhereBase):
    """TTNN's where, as ttir's."""

    name = "ttnn.where"


COMPUTE_OPS: dict[str, type] = {op.name: op for op in (
    ExpOp,
    LogOp,
    ReluOp,
    SigmoidOp,
    TanhOp,
    GeluOp,
    NegOp,
    SqrtOp,
    AddOp,
    SubtractOp,
    MultiplyOp,
    DivOp,
    MaximumOp,
    MinimumOp,
    PowOp,
    ErfOp,
    MatmulOp,
    TransposeOp,
    PermuteOp,
    ReshapeOp,
    RepeatOp,
    ConcatOp,
    SumOp,
    MeanOp,
    MaxOp,
    SoftmaxOp,
    EmbeddingOp,
    TypecastOp,
    EqualOp,
    NotEqualOp,
    GreaterThanOp,
    GreaterEqualOp,
    LessThanOp,
    LessEqualOp,
    WhereOp,
)}
"""ttnn compute op name -> its class (the ttir families under ttnn names)."""
