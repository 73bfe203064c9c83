"""The bases of ttir's comparisons (`ttir.eq ne gt ge lt le`) and selection (`ttir.where`); the ops
themselves are the compute-op registry's (meshc/layout/compute_ops.py, made in compute.py).

The device holds no booleans, so a comparison returns 1 where it holds and 0 elsewhere in the
result's element type (as tt-mlir's comparisons do on TT hardware), with numpy broadcasting of
the two operands; `ttir.where(%cond, %a, %b)` takes `a` where `cond` is nonzero and `b` elsewhere,
the three shapes broadcasting to the result's. StableHLO's `compare` / `select` import to them.
"""

from __future__ import annotations

from xdsl.dialects.builtin import AnyTensorTypeConstr, TensorType
from xdsl.irdl import operand_def, result_def, traits_def
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException

from meshc.dialects import shape_rules as rules
from meshc.dialects.ttir.base import ElementwiseBinaryBase, TTIROpBase, tensor_shape


class CompareBase(ElementwiseBinaryBase):
    """1 where `lhs <relation> rhs` holds, else 0; the operands broadcast (numpy)."""


class WhereBase(TTIROpBase):
    """`on_true` where `condition` is nonzero, else `on_false`; all three broadcast (numpy)."""

    condition = operand_def(AnyTensorTypeConstr)
    on_true = operand_def(AnyTensorTypeConstr)
    on_false = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    traits = traits_def(NoMemoryEffect())

    def verify_(self) -> None:
        shape = rules.broadcast_shapes(tensor_shape(self.condition), tensor_shape(self.on_true))
        self.expect_result(rules.broadcast_shapes(shape, tensor_shape(self.on_false)))
        rt = self.result.type
        assert isinstance(rt, TensorType)
        for what, v in (("on_true", self.on_true), ("on_false", self.on_false)):
            t = v.type
            assert isinstance(t, TensorType)
            if t.element_type != rt.element_type:
                raise VerifyException(f"{what} has element type {t.element_type}, the result {rt.element_type}")


