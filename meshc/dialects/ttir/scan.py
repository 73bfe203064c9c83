"""ttir bases of the scan and index-selecting families of the compute-op registry
(meshc/layout/compute_ops.py): `ttir.cumsum` (a running sum along `dim`), `ttir.cumprod` (a
running product, meshc's: tt-mlir has none, TTNN has `ttnn.cumprod`), `ttir.argmax` /
`ttir.argmin` (the index of the first largest / smallest element along `dim`),
`ttir.top_k` / `ttir.top_k_indices` (the k largest along `dim`, values or indices) and `ttir.sort` /
`ttir.sort_indices` (tt-mlir's sort, its two results as two ops). ttnn's ops of the same kinds
share them (`FAMILY_BASES` in compute.py). How the scans, argmax / argmin and top_k are split over a mesh without
gathering the dim is ttir-partition's (meshc/passes/partition_select.py); a sort gathers it."""

from __future__ import annotations

from xdsl.dialects.builtin import AnyTensorTypeConstr, BoolAttr, IntegerAttr, IntegerType, Signedness, TensorType
from xdsl.irdl import attr_def, operand_def, opt_attr_def, opt_result_def, result_def, traits_def
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException

from meshc.dialects import shape_rules as rules
from meshc.dialects.ttir.base import TTIROpBase, bool_value, check_same_element_type, int_value, tensor_shape


class ScanBase(TTIROpBase):
    """A running reduction along `dim` (tt-mlir's cumsum; meshc's cumprod): the shape and element
    type kept. `reverse` (meshc's; TTNN's cumsum and cumprod take it as `reverse_order`, tt-mlir's
    cumsum has no such attribute) runs it from the end of the dim: element i reduces i .. n - 1."""

    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    dim = attr_def(IntegerAttr)
    reverse = opt_attr_def(BoolAttr)
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


class TopKBase(TTIROpBase):
    """The k largest elements along `dim` (`ttir.top_k`: their values, in descending order, the
    first of equals first, as JAX's top_k) or their indices (`ttir.top_k_indices`, an integer
    tensor): `dim` becomes k long."""

    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    k = attr_def(IntegerAttr)
    dim = attr_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())

    def verify_(self) -> None:
        shape = tensor_shape(self.input)
        d = rules.normalize_dim(int_value(self.dim), len(shape), "dim")
        k = int_value(self.k)
        if not 1 <= k <= shape[d]:
            raise VerifyException(f"k = {k} must be between 1 and the {shape[d]} elements of dim {d}")
        self.expect_result(tuple(k if i == d else n for i, n in enumerate(shape)))
        rt = self.result.type
        assert isinstance(rt, TensorType)
        if self.name.endswith("indices"):
            if not isinstance(rt.element_type, IntegerType):
                raise VerifyException(f"result element type {rt.element_type} is not an integer type; an index "
                                      f"is an integer (i32, as JAX's top_k)")
        else:
            check_same_element_type(self.input, self.result)


class SortBase(TTIROpBase):
    """tt-mlir's sort along `dim` (si32, the last dim when absent), ascending unless `descending`,
    `stable` (equal elements keep their order; meshc's sort always does, a valid unstable sort
    too): `ttir.sort` its values (the operand's type), `ttir.sort_indices` the positions they
    come from (an integer tensor of the operand's shape). tt-mlir's op has both as two results;
    meshc holds them as two ops, as it does top_k's. NaNs order above every number (last
    ascending, first descending), as JAX's jnp.sort and numpy. The verifier is tt-mlir's
    SortOp::verify, in its words."""

    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    tt_mlir_indices = opt_result_def(AnyTensorTypeConstr)
    """tt-mlir's second result (the indices), present only between parsing tt-mlir's two-result
    `ttir.sort` and the reader splitting it into `ttir.sort` + `ttir.sort_indices`
    (meshc.dialects.ttmlir_spelling.normalize_module); the verifier refuses it anywhere else."""
    dim = attr_def(IntegerAttr, default_value=IntegerAttr(-1, IntegerType(32, Signedness.SIGNED)))
    descending = opt_attr_def(BoolAttr)
    stable = opt_attr_def(BoolAttr)
    traits = traits_def(NoMemoryEffect())

    def sort_dim(self) -> int:
        """`dim` as a dim of the operand (0 .. rank - 1)."""
        return int_value(self.dim) % max(len(tensor_shape(self.input)), 1)

    def verify_(self) -> None:
        shape = tensor_shape(self.input)
        rank, d = len(shape), int_value(self.dim)
        if self.tt_mlir_indices is not None:
            raise VerifyException(f"has two results; meshc holds a sort's values and indices as {self.name} and "
                                  f"{self.name.split('.')[0]}.sort_indices (tt-mlir's two-result sort is split "
                                  f"so when a file is read)")
        if not -rank <= d < rank:
            raise VerifyException(f"Dimension out of range (expected to be in range of [{-rank}, {rank - 1}], but "
                                  f"got {d})")
        if self.name.endswith("indices"):
            if tensor_shape(self.result) != shape:
                raise VerifyException(f"Indices shape does not match with input tensor shape. (expected "
                                      f"{rules.fmt(shape)}, got {rules.fmt(tensor_shape(self.result))})")
            rt = self.result.type
            assert isinstance(rt, TensorType)
            if not isinstance(rt.element_type, IntegerType):
                raise VerifyException(f"result element type {rt.element_type} is not an integer type; an index "
                                      f"is an integer (i32, as JAX's argsort)")
        else:  # tt-mlir compares the types; ttnn's carry their layouts, so the shape and element type
            it, rt = self.input.type, self.result.type
            assert isinstance(it, TensorType) and isinstance(rt, TensorType)
            if tensor_shape(self.result) != shape or it.element_type != rt.element_type:
                raise VerifyException(f"Sorted tensor type does not match with input tensor. (expected "
                                      f"{rules.fmt(shape)} of {it.element_type}, got "
                                      f"{rules.fmt(tensor_shape(self.result))} of {rt.element_type})")
