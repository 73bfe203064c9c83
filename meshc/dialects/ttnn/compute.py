"""ttnn compute ops: the compute-op registry's ops (meshc/layout/compute_ops.py) under their TTNN
names, on the same family bases as ttir's (same operands, attributes and verifier), and TTNN's
empty and constant."""

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


COMPUTE_OPS = ttir.compute_op_classes("ttnn", ttir.FAMILY_BASES, __name__)
"""Registry kind -> its ttnn op class (ttir's broadcast is ttnn.repeat)."""
