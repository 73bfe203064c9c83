"""`ttir-decompose-ttmlir-ops`: tt-mlir's `ttir.linear` and `ttir.mesh_partition` written with the
ops TTMetal has programs for, so `ttir-to-ttmetal-pipeline` lowers them (it runs this after
ttir-partition and reshard-to-collectives, on each device's ops; TTNN has both ops itself).

* `linear(a, b, bias)`: one convert-ttir-to-ttmetal runs as a matmul program adding the bias in its
  kernel (convert_ttir_to_ttmetal_movement.fused_bias: rank-2+ operands, the bias a row, a column
  or a scalar of the result) stays; any other is a `ttir.matmul` of a and b (a rank-1 a reshaped to one row, a rank-1 b to
  one column, as numpy's matmul reads a vector; the transposes and `math_fidelity` carried), the
  product reshaped to drop the dims a vector added (a vector-vector product is `tensor<1>`), then
  a `ttir.add` of the bias. Where the bias, or the product, does not broadcast to the result as a
  row, a column or a scalar (what a TTMetal elementwise kernel reads), a `ttir.broadcast` to the
  result's shape comes first. Exact: the same products and one add, as tt-mlir's golden.
* `mesh_partition(x) {dim, cluster_axis}`: a `ttir.all_slice` of `dim` along `cluster_axis`
  (each device keeps the piece of its coordinate: moves nothing). With no axis a device keeps the
  piece of its row-major index among all the mesh's devices: an all_slice along each mesh axis
  of more than one device in turn, major axis first (device (r, c) of an R x C mesh keeps piece
  c of piece r, i.e. piece r * C + c of the R * C). On one device it is the operand itself.

A mesh_partition whose dim does not split over its devices is a located error at the op.
Each op is replaced where it stands; its location is kept.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, IntegerType, ModuleOp, Signedness, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from meshc.dialects import shape_rules as rules
from meshc.dialects import ttir
from meshc.dialects.ttir.base import bool_value, tensor_shape
from meshc.errors import LocatedError
from meshc.layout.errors import LayoutError
from meshc.layout.ttmlir_ops import partition_shape
from meshc.passes.convert_ttir_to_ttmetal_movement import block_broadcast, fused_bias
from meshc.passes.lowering_utils import module_mesh

_SI32 = IntegerType(32, Signedness.SIGNED)
_UI32 = IntegerType(32, Signedness.UNSIGNED)


def _emit(cls: type[Operation], operands: list[SSAValue], shape, element: Attribute, at: Operation,
          attrs: dict[str, Attribute] | None = None) -> SSAValue:
    new = cls.create(operands=operands, result_types=[TensorType(element, list(shape))], attributes=attrs or {})
    new.location = at.location
    Rewriter.insert_op(new, InsertPoint.before(at))
    return new.results[0]


def _reshape(x: SSAValue, shape, at: Operation) -> SSAValue:
    if tuple(tensor_shape(x)) == tuple(shape):
        return x
    return _emit(ttir.COMPUTE_OPS["reshape"], [x], shape, x.type.element_type, at)  # type: ignore[attr-defined]


def _to(x: SSAValue, shape: tuple[int, ...], at: Operation) -> SSAValue:
    """`x` as a TTMetal elementwise kernel can read it against a `shape` result: as it is when it
    broadcasts as a row, a column or a scalar, else broadcast to `shape` first."""
    if block_broadcast(tuple(tensor_shape(x)), shape) is not None:
        return x
    return _emit(ttir.COMPUTE_OPS["broadcast"], [x], shape, x.type.element_type, at)  # type: ignore[attr-defined]


def _linear(op: ttir.LinearBase) -> SSAValue:
    a, b = op.a, op.b
    sa, sb = tuple(tensor_shape(a)), tuple(tensor_shape(b))
    out_t = op.result.type
    assert isinstance(out_t, TensorType)
    elem = out_t.element_type
    attrs: dict[str, Attribute] = {}
    if len(sa) == 1:
        a = _reshape(a, (1, sa[0]), op)
    elif bool_value(op.transpose_a):
        attrs["transpose_a"] = op.attributes["transpose_a"]
    if len(sb) == 1:
        b = _reshape(b, (sb[0], 1), op)
    elif bool_value(op.transpose_b):
        attrs["transpose_b"] = op.attributes["transpose_b"]
    if "math_fidelity" in op.attributes:
        attrs["math_fidelity"] = op.attributes["math_fidelity"]
    full = rules.matmul_shape(tuple(tensor_shape(a)), tuple(tensor_shape(b)), "transpose_a" in attrs,
                              "transpose_b" in attrs)
    product = _emit(ttir.COMPUTE_OPS["matmul"], [a, b], full, elem, op, attrs)
    kept = full[:-2] + ((full[-2],) if len(sa) > 1 else ()) + ((full[-1],) if len(sb) > 1 else ())
    product = _reshape(product, kept or (1,), op)
    result = tuple(out_t.get_shape())
    if op.bias is None:
        return _reshape(product, result, op)
    return _emit(ttir.COMPUTE_OPS["add"], [_to(product, result, op), _to(op.bias, result, op)], result, elem, op)


def _mesh_partition(op: ttir.MeshPartitionBase, mesh: tuple[int, ...]) -> SSAValue:
    d, axis = op.normalized_dim(), op.axis()
    shape = tuple(tensor_shape(op.input))
    try:
        partition_shape(shape, mesh, d, axis, tuple(tensor_shape(op.result)))
    except LayoutError as e:
        raise LocatedError(f"ttir-decompose-ttmlir-ops: {e}", op) from None
    axes = [axis] if axis is not None else list(range(len(mesh)))
    x = op.input
    elem = op.result.type.element_type  # type: ignore[attr-defined]
    for ax in axes:
        if mesh[ax] == 1:
            continue
        shape = shape[:d] + (shape[d] // mesh[ax],) + shape[d + 1:]
        x = _emit(ttir.AllSliceOp, [x], shape, elem, op,
                  {"slice_dim": IntegerAttr(d, _SI32), "cluster_axis": IntegerAttr(ax, _UI32)})
    return x


def decompose(module: ModuleOp) -> None:
    mesh = module_mesh(module)
    for op in list(module.walk()):
        if isinstance(op, ttir.LinearBase) and op.name.startswith("ttir."):
            if fused_bias(op):  # convert-ttir-to-ttmetal runs it as one program, the bias added in the kernel
                continue
            out = _linear(op)
        elif isinstance(op, ttir.MeshPartitionBase) and op.name.startswith("ttir."):
            out = _mesh_partition(op, mesh)
        else:
            continue
        op.results[0].replace_all_uses_with(out)
        Rewriter.erase_op(op)


@dataclass(frozen=True)
class DecomposeTTMLIROpsPass(ModulePass):
    """`ttir-decompose-ttmlir-ops` (module docstring)."""

    name = "ttir-decompose-ttmlir-ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        decompose(op)
