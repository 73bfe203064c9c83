"""ttir bases of the scan and index-selecting families of the compute-op registry
(meshc/layout/compute_ops.py): `ttir.cumsum` (a running sum along `dim`) and `ttir.argmax` /
`ttir.argmin` (the index of the first largest / smallest element along `dim`). ttnn's ops of the
same kinds share them (`FAMILY_BASES` in compute.py). How they are split over a mesh without
gathering the dim is ttir-partition's (meshc/passes/partition_select.py)."""

from __future__ import annotations

from xdsl.dialects.builtin import AnyTensorTypeConstr, BoolAttr, IntegerAttr, IntegerType, TensorType
from xdsl.irdl import attr_def, operand_def, opt_attr_def, result_def, traits_def
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException

from meshc.dialects import shape_rules as rules
from meshc.dialects.ttir.base import TTIROpBase, bool_value, check_same_element_type, int_value, tensor_shape


class ScanBase(TTIROpBase):
    """A running reduction along `dim` (tt-mlir's cumsum): the shape and element type kept."""

    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    dim = attr_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())

    def verify_(self) -> None:
        shape = tensor_shape(self.input)
        rules.normalize_dim(int_value(self.dim), len(shape), "dim")
        self.expect_result(shape)
        check_same_element_type(self.input, self.result)


class ArgReduceBase(TTIROpBase):
    """The index along `dim` of the first extreme element, an integer tensor; `dim` is dropped
    unless `keep_dim` (then size 1)."""

    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    dim = attr_def(IntegerAttr)
    keep_dim = opt_attr_def(BoolAttr)
    traits = traits_def(NoMemoryEffect())

    def reduced_dims(self) -> tuple[int, ...]:
        return (rules.normalize_dim(int_value(self.dim), len(tensor_shape(self.input)), "dim"),)

    def verify_(self) -> None:
        shape = tensor_shape(self.input)
        self.expect_result(rules.reduce_shape(shape, self.reduced_dims(), bool_value(self.keep_dim)))
        rt = self.result.type
        assert isinstance(rt, TensorType)
        if not isinstance(rt.element_type, IntegerType):
            raise VerifyException(f"result element type {rt.element_type} is not an integer type; an index is "
                                  f"an integer (i32, as JAX's argmax)")
