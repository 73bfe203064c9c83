"""The ttir dialect: tensor ops with value semantics, the input of meshc's pipelines.

Every op takes its input tensors and returns a new tensor (no destination operands, as
tt-mlir does today), so the generic form
`%2 = "ttir.matmul"(%0, %1) : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>`
is the whole op. Multi-device programs are SPMD after `ttir.mesh_shard` (docs/contracts.md):
ops compute on per-device shapes, collectives exchange along a `cluster_axis` of the mesh the
module's `#tt.device` describes (a module without one runs on a one-device mesh).

Op families share bases (elementwise unary and binary with numpy broadcasting, reductions,
collectives, resharding, MoE) whose verifiers check result shapes and name what is wrong; the
ttnn ops of the same names are these bases under ttnn names. The shape rules themselves are
plain functions in `shape_rules.py`.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    AnyTensorTypeConstr,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute, Data, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    attr_def,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException

from meshc.dialects import shape_rules as rules
from meshc.dialects.syntax import AngleBody

# ----------------------------------------------------------------------------- enum attributes


class WordEnumAttr(AngleBody, Data[str]):
    """An enum attribute printed `#dialect.name<word>`; subclasses list their `words`."""

    words: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def parse_body(cls, parser: AttrParser) -> str:
        pos = parser.pos
        word = parser.parse_optional_identifier()
        if word is None or word not in cls.words:
            parser.raise_error(f"{cls.name} must be one of {', '.join(cls.words)}", pos, parser.pos)
        return word

    def verify(self) -> None:
        if self.data not in self.words:
            raise VerifyException(f"{self.name} must be one of {', '.join(self.words)}, got '{self.data}'")


@irdl_attr_definition
class ShardTypeAttr(WordEnumAttr):
    """How `ttir.mesh_shard` treats the mesh: copy the whole tensor to every device, or split it."""

    name = "ttir.shard_type"
    words = ("replicate", "devices")


@irdl_attr_definition
class ShardDirectionAttr(WordEnumAttr):
    """Host tensor -> per-device pieces (`full_to_shard`) or back (`shard_to_full`)."""

    name = "ttir.shard_direction"
    words = ("full_to_shard", "shard_to_full")


@irdl_attr_definition
class ReduceTypeAttr(WordEnumAttr):
    """The reduction a collective applies across devices."""

    name = "ttir.reduce_type"
    words = ("sum", "mean", "max", "min")


# ----------------------------------------------------------------------------- helpers

_mesh_cache: dict[int, tuple[Attribute, tuple[int, ...]]] = {}


def device_mesh_shape(device_attr: Attribute) -> tuple[int, ...]:
    """The mesh shape of a `#tt.device` attribute (cached per attribute object)."""
    hit = _mesh_cache.get(id(device_attr))
    if hit is not None and hit[0] is device_attr:
        return hit[1]
    mesh = getattr(device_attr, "mesh_shape", None)
    if mesh is None or callable(mesh):
        mesh = device_attr.model().mesh_shape  # type: ignore[attr-defined]
    if isinstance(mesh, Attribute):
        mesh = rules.ints_of(mesh)
    shape = tuple(int(n) for n in mesh)
    _mesh_cache[id(device_attr)] = (device_attr, shape)
    return shape


def enclosing_module(op: Operation) -> ModuleOp | None:
    cur: Operation | None = op
    while cur is not None and not isinstance(cur, ModuleOp):
        cur = cur.parent_op()
    return cur


def mesh_shape_of(op: Operation) -> tuple[int, ...] | None:
    """The mesh an op is verified against: the `tt.device` of its module.

    None when the op is detached or its module has no device yet: the mesh-dependent checks
    wait until `tt-register-device` attaches one (at run time such a module runs on one
    device, docs/contracts.md).
    """
    module = enclosing_module(op)
    if module is None:
        return None
    device = module.attributes.get("tt.device")
    if device is None:
        return None
    return device_mesh_shape(device)


def tensor_shape(value: SSAValue | Attribute) -> tuple[int, ...]:
    """The static shape of a tensor value; a dynamic dim is a verifier error."""
    t = value.type if isinstance(value, SSAValue) else value
    assert isinstance(t, TensorType)
    shape = tuple(t.get_shape())
    if any(n < 0 for n in shape):
        raise VerifyException(f"{t} has a dynamic dim; meshc places static shapes only")
    return shape


def int_value(attr: Attribute | None, default: int | None = None) -> int | None:
    if attr is None:
        return default
    assert isinstance(attr, IntegerAttr)
    return int(attr.value.data)


def bool_value(attr: Attribute | None) -> bool:
    return attr is not None and isinstance(attr, IntegerAttr) and bool(attr.value.data)


def check_attr_name(op: Operation, field: str, expected: str) -> None:
    """An optional attribute held as a generic Attribute must, when present, be a #`expected`."""
    attr = op.attributes.get(field)
    if attr is not None and getattr(attr, "name", None) != expected:
        raise VerifyException(f"{field} must be a #{expected} attribute, got {attr}")


def check_form(form: str) -> None:
    """The `form` of a host <-> mesh transfer (ttnn, ttmetal): TT-Mesh's 2D or ND sharding."""
    if form not in ("2d", "nd"):
        raise VerifyException(f"form must be \"2d\" or \"nd\", got \"{form}\"")


def _check_same_shape(what: str, got: tuple[int, ...], expected: tuple[int, ...]) -> None:
    if got != expected:
        raise VerifyException(f"{what} {rules.fmt(got)} does not match the expected shape {rules.fmt(expected)}")


def _check_same_element_type(operand: SSAValue, result: SSAValue, advice: str = "") -> None:
    a, b = operand.type, result.type
    assert isinstance(a, TensorType) and isinstance(b, TensorType)
    if a.element_type != b.element_type:
        raise VerifyException(f"result element type {b.element_type} differs from the operand's {a.element_type}{advice}")


# ----------------------------------------------------------------------------- op bases


class TTIROpBase(IRDLOperation):
    """Common base of ttir ops (and ttnn's mirrored compute ops)."""

    def result_shape(self) -> tuple[int, ...]:
        return tensor_shape(self.results[0])

    def expect_result(self, expected: tuple[int, ...]) -> None:
        _check_same_shape("result shape", self.result_shape(), expected)


class ElementwiseUnaryBase(TTIROpBase):
    """y = f(x) elementwise: the result has the operand's shape and element type."""

    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    traits = traits_def(NoMemoryEffect())
    SAME_ELEMENT_TYPE: ClassVar[bool] = True

    def __init__(self, input: SSAValue | Operation, result_type: Attribute):
        super().__init__(operands=[input], result_types=[result_type])

    def verify_(self) -> None:
        self.expect_result(tensor_shape(self.input))
        if self.SAME_ELEMENT_TYPE:
            _check_same_element_type(self.input, self.result)


class ElementwiseBinaryBase(TTIROpBase):
    """z = f(x, y) elementwise with numpy broadcasting of the two operand shapes."""

    lhs = operand_def(AnyTensorTypeConstr)
    rhs = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    traits = traits_def(NoMemoryEffect())

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation, result_type: Attribute):
        super().__init__(operands=[lhs, rhs], result_types=[result_type])

    def verify_(self) -> None:
        self.expect_result(rules.broadcast_shapes(tensor_shape(self.lhs), tensor_shape(self.rhs)))


class ReductionBase(TTIROpBase):
    """Reduce over `dim_arg` (all dims when absent), keeping them as size 1 if `keep_dim`."""

    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    dim_arg = opt_attr_def(ArrayAttr)
    keep_dim = opt_attr_def(BoolAttr)
    traits = traits_def(NoMemoryEffect())

    def reduced_dims(self) -> tuple[int, ...]:
        shape = tensor_shape(self.input)
        if self.dim_arg is None:
            return tuple(range(len(shape)))
        return rules.normalize_dims(rules.ints_of(self.dim_arg), len(shape), "dim_arg")

    def verify_(self) -> None:
        shape = tensor_shape(self.input)
        self.expect_result(rules.reduce_shape(shape, self.reduced_dims(), bool_value(self.keep_dim)))


class CollectiveBase(TTIROpBase):
    """An exchange between the devices along one `cluster_axis` of the module's mesh."""

    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    cluster_axis = attr_def(IntegerAttr)

    def axis_size(self) -> int | None:
        """Devices along cluster_axis (None while the mesh is unknown)."""
        mesh = mesh_shape_of(self)
        if mesh is None:
            return None
        return rules.mesh_axis_size(mesh, int_value(self.cluster_axis))

    def verify_(self) -> None:
        n = self.axis_size()
        if n is None:
            self.expected_shape(tensor_shape(self.input), 1)  # the dims are checked even without a mesh
        else:
            self.expect_result(self.expected_shape(tensor_shape(self.input), n))

    def expected_shape(self, shape: tuple[int, ...], n: int) -> tuple[int, ...]:
        return shape


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
            _check_same_shape("result shape", self.result_shape(), tuple(rules.ints_of(self.shape)))


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


class ConstantBase(TTIROpBase):
    """A tensor given by a dense elements attribute of the result's shape and element type."""

    result = result_def(AnyTensorTypeConstr)
    value = attr_def(DenseIntOrFPElementsAttr)

    def verify_(self) -> None:
        vt = self.value.type
        rt = self.result.type
        assert isinstance(rt, TensorType)
        _check_same_shape("value shape", tuple(vt.get_shape()), self.result_shape())
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
        _check_same_element_type(self.input, self.result, "; use ttir.typecast to change it")


# ----------------------------------------------------------------------------- multi-device


@irdl_op_definition
class MeshShardOp(TTIROpBase):
    """Host tensor <-> per-device pieces over the module's mesh (SPMD entry and exit).

    `shard_dims[a]` is the tensor dim mesh axis `a` splits (-1: none); `shard_shape[d]` is the
    number of pieces of tensor dim d (the product of the mesh axes splitting it, major axis
    first). full_to_shard: result = operand / shard_shape per dim (the pieces must be equal);
    shard_to_full: result = operand * shard_shape. `replicate` copies the whole tensor.
    """

    name = "ttir.mesh_shard"
    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    shard_type = attr_def(ShardTypeAttr)
    shard_direction = attr_def(ShardDirectionAttr)
    shard_shape = attr_def(DenseArrayBase)
    shard_dims = attr_def(DenseArrayBase)

    @property
    def is_full_to_shard(self) -> bool:
        return self.shard_direction.data == "full_to_shard"

    @property
    def is_replicate(self) -> bool:
        return self.shard_type.data == "replicate"

    def spec_dims(self) -> tuple[tuple[int, ...], ...]:
        """Per tensor dim, the mesh axes splitting it (major first): a ShardingSpec's `dims`."""
        rank = len(tensor_shape(self.input))
        dims = rules.ints_of(self.shard_dims)
        out: list[list[int]] = [[] for _ in range(rank)]
        if not self.is_replicate:
            for axis, d in enumerate(dims):
                if d >= 0:
                    out[d].append(axis)
        return tuple(tuple(a) for a in out)

    def verify_(self) -> None:
        full = tensor_shape(self.input) if self.is_full_to_shard else self.result_shape()
        local = self.result_shape() if self.is_full_to_shard else tensor_shape(self.input)
        pieces = rules.check_mesh_shard(
            full,
            self.is_replicate,
            rules.ints_of(self.shard_shape),
            rules.ints_of(self.shard_dims),
            mesh_shape_of(self),
        )
        expected_local = rules.local_shape(full, pieces)
        if self.is_full_to_shard:
            self.expect_result(expected_local)
        else:
            _check_same_shape("operand shape", local, expected_local)


class AllGatherBase(CollectiveBase):
    """Concatenate the pieces of the devices along cluster_axis on `all_gather_dim`."""

    all_gather_dim = attr_def(IntegerAttr)

    def expected_shape(self, shape: tuple[int, ...], n: int) -> tuple[int, ...]:
        d = rules.normalize_dim(int_value(self.all_gather_dim), len(shape), "all_gather_dim")
        return shape[:d] + (shape[d] * n,) + shape[d + 1 :]


@irdl_op_definition
class AllGatherOp(AllGatherBase):
    name = "ttir.all_gather"


class ReduceScatterBase(CollectiveBase):
    """Reduce across cluster_axis, each device keeping its piece of `scatter_dim`."""

    scatter_dim = attr_def(IntegerAttr)
    reduce_type = attr_def(ReduceTypeAttr)

    def expected_shape(self, shape: tuple[int, ...], n: int) -> tuple[int, ...]:
        d = rules.normalize_dim(int_value(self.scatter_dim), len(shape), "scatter_dim")
        return shape[:d] + (rules.divide(shape[d], n, f"scatter_dim {d}"),) + shape[d + 1 :]


@irdl_op_definition
class ReduceScatterOp(ReduceScatterBase):
    name = "ttir.reduce_scatter"


class AllReduceBase(CollectiveBase):
    """Reduce across cluster_axis; every device gets the whole reduced tensor."""

    reduce_type = attr_def(ReduceTypeAttr)


@irdl_op_definition
class AllReduceOp(AllReduceBase):
    name = "ttir.all_reduce"


class AllToAllBase(CollectiveBase):
    """Split `split_dim` into one piece per device of cluster_axis, exchange, concat on `concat_dim`."""

    split_dim = attr_def(IntegerAttr)
    concat_dim = attr_def(IntegerAttr)

    def expected_shape(self, shape: tuple[int, ...], n: int) -> tuple[int, ...]:
        s = rules.normalize_dim(int_value(self.split_dim), len(shape), "split_dim")
        c = rules.normalize_dim(int_value(self.concat_dim), len(shape), "concat_dim")
        out = list(shape)
        out[s] = rules.divide(out[s], n, f"split_dim {s}")
        out[c] = out[c] * n
        return tuple(out)


@irdl_op_definition
class AllToAllOp(AllToAllBase):
    name = "ttir.all_to_all"


class CollectivePermuteBase(TTIROpBase):
    """Device `src` sends its tensor to device `dst` for each (src, dst) pair (flat device ids);
    a device that receives nothing gets zeros."""

    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    source_target_pairs = attr_def(DenseIntOrFPElementsAttr)

    def pairs(self) -> list[tuple[int, int]]:
        return rules.pairs_of(self.source_target_pairs)

    def verify_(self) -> None:
        self.expect_result(tensor_shape(self.input))
        mesh = mesh_shape_of(self)
        rules.check_permute_pairs(self.pairs(), None if mesh is None else rules.prod(mesh))


@irdl_op_definition
class CollectivePermuteOp(CollectivePermuteBase):
    name = "ttir.collective_permute"


_ATTRIBUTES: list[type[Attribute]] = [ShardTypeAttr, ShardDirectionAttr, ReduceTypeAttr]
_OPS: list[type[Operation]] = [
    ExpOp, LogOp, ReluOp, SigmoidOp, TanhOp, GeluOp, NegOp, SqrtOp, TypecastOp,
    AddOp, SubtractOp, MultiplyOp, DivOp, MaximumOp,
    MatmulOp, TransposeOp, PermuteOp, ReshapeOp, BroadcastOp, ConcatOp,
    SumOp, MeanOp, MaxOp, SoftmaxOp, EmbeddingOp, EmptyOp, ConstantOp, ToLayoutOp,
    MeshShardOp, AllGatherOp, ReduceScatterOp, AllReduceOp, AllToAllOp, CollectivePermuteOp,
]  # fmt: skip

# ---- resharding and MoE ops (issue 7) ----
# A placement change (`ttir.reshard`, lowered by `reshard-to-collectives` into the collectives
# above plus `ttir.all_slice`, or into `ttir.point_to_point` when no walk of them meets the lower
# bound) and the mixture-of-experts steps. What they compute is defined once in
# meshc/layout/reshard.py and meshc/layout/moe.py; `reference` / `spmd` below call it.

from xdsl.dialects.builtin import IntegerType, StringAttr  # noqa: E402

from meshc.layout.errors import LayoutError  # noqa: E402


def _on_devices(args, fn) -> tuple:
    """Apply `fn` (host arrays -> tuple of arrays) on every device when an argument is per-device
    (a list of arrays in device order); results are then per-device lists too."""
    n = max((len(a) for a in args if isinstance(a, list)), default=0)
    if n == 0:
        return tuple(fn(list(args)))
    outs = [tuple(fn([a[i] if isinstance(a, list) else a for a in args])) for i in range(n)]
    return tuple(list(r) for r in zip(*outs))


def _device_values(x, mesh_shape) -> list:
    """A `spmd` argument as one array per device (device order): a host array is on every device."""
    return x if isinstance(x, list) else [x] * rules.prod(mesh_shape)


def _dtype_name(value: SSAValue) -> str:
    """The meshc data type name of a tensor value's elements, as the reshard plans take it."""
    t = value.type
    assert isinstance(t, TensorType)
    elem = str(t.element_type)
    return {"i32": "si32", "i16": "u16", "i8": "u8"}.get(elem, elem)


def _spec_on_mesh(op: Operation, attr: Attribute, what: str):
    """A placement of `op` (a spec string or a `#tt.sharding`) written over the op's mesh (the
    module's `#tt.device`); a spec string without a mesh is on that mesh."""
    from meshc.layout.mesh import Mesh
    from meshc.layout.reshard import as_view
    from meshc.layout.sharding_spec import parse_spec

    mesh_shape = mesh_shape_of(op)
    mesh = Mesh(mesh_shape if mesh_shape is not None else (1,))
    try:
        if isinstance(attr, StringAttr):
            try:
                spec = parse_spec(attr.data)
            except LayoutError as e:
                if "names no mesh" not in str(e):
                    raise
                spec = parse_spec(attr.data, mesh)
        elif attr.name == "tt.sharding":
            spec = attr.spec  # type: ignore[attr-defined]
        else:
            raise VerifyException(f"{what} must be a sharding-spec string or a #tt.sharding attribute, got {attr}")
        return as_view(spec, mesh)
    except LayoutError as e:
        raise VerifyException(f"{what}: {e}") from None


class ReshardBase(TTIROpBase):
    """Change the placement of a tensor from `source` to `target` (sharding-spec strings, e.g.
    `"[S0, R]"` on the module's mesh or `"[E=8/EP=8, B, C, M]"` on another view of its devices).
    Operand and result are the per-device pieces; the splits must be even. Each op of the
    family says how in its `plan()` (a meshc.layout.reshard ReshardPlan)."""

    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    source = attr_def(Attribute)
    """A sharding-spec string or a `#tt.sharding` attribute."""
    target = attr_def(Attribute)

    def specs(self):
        return (_spec_on_mesh(self, self.source, "source"), _spec_on_mesh(self, self.target, "target"))

    def global_shape(self) -> tuple[int, ...]:
        src, _ = self.specs()
        local = tensor_shape(self.input)
        if len(local) != src.rank:
            raise VerifyException(f"source spec {src} has {src.rank} dims but the operand has rank {len(local)}")
        return tuple(n * src.num_pieces(d) for d, n in enumerate(local))

    def verify_(self) -> None:
        if mesh_shape_of(self) is None:
            return
        src, tgt = self.specs()
        full = self.global_shape()
        if tgt.rank != len(full):
            raise VerifyException(f"target spec {tgt} has {tgt.rank} dims but the tensor has rank {len(full)}")
        for d, n in enumerate(full):
            k = tgt.num_pieces(d)
            if n % k:
                raise VerifyException(f"target spec {tgt} splits dim {d} of the {rules.fmt(full)} tensor "
                                      f"into {k} pieces, which do not divide {n}")
        for spec, what in ((src, "source"), (tgt, "target")):
            for d, (decl, n) in enumerate(zip(spec.dim_sizes, full)):
                if decl is not None and decl != n:
                    raise VerifyException(f"{what} spec declares dim {d} of size {decl}, but the operand makes it {n}")
        self.expect_result(tuple(n // tgt.num_pieces(d) for d, n in enumerate(full)))

    def spmd(self, args, mesh_shape):
        """Run on per-device arrays (device order): execute the plan, every device its target piece."""
        from meshc.layout.reshard import execute_plan

        (x,) = args
        return (execute_plan(self.plan(), _device_values(x, mesh_shape)),)


@irdl_op_definition
class ReshardOp(ReshardBase):
    name = "ttir.reshard"

    def plan(self, system=None):
        """The fewest-bytes plan of this reshard (meshc.layout.reshard.plan_reshard)."""
        from meshc.layout.reshard import plan_reshard

        src, tgt = self.specs()
        return plan_reshard(self.global_shape(), _dtype_name(self.input), src, tgt, system=system)


class PointToPointBase(ReshardBase):
    """A reshard written as its explicit moves (what `reshard-to-collectives` emits when no walk
    of uniform collectives meets the lower bound). `source` / `target` are as on `ttir.reshard`;
    `transfers` is an `array<i64: ...>` of rows of 3 + 2r numbers (r: the rank), one row a
    move: `step, src, dst, lo_0, hi_0, ..., lo_r-1, hi_r-1` sends the global index box
    `[lo, hi)` of the tensor from device `src` into device
    `dst`. Every device first keeps what it holds of its target piece; the moves of one step all
    read before any writes, and a later step may forward what an earlier one delivered."""

    transfers = attr_def(DenseArrayBase)

    def rows(self) -> list[tuple[int, ...]]:
        width = 3 + 2 * len(tensor_shape(self.input))
        vals = rules.ints_of(self.transfers)
        if len(vals) % width:
            raise VerifyException(f"transfers holds {len(vals)} numbers, not a whole number of rows of {width} "
                                  f"([step, src, dst] then lo, hi per dim of the rank-{width // 2 - 1} tensor)")
        return [tuple(vals[i:i + width]) for i in range(0, len(vals), width)]

    def verify_(self) -> None:
        if mesh_shape_of(self) is None:
            return
        super().verify_()
        src, tgt = self.specs()
        full = self.global_shape()
        n = src.mesh.size
        last = 0
        for i, r in enumerate(self.rows()):
            step, s, d = r[:3]
            if step < last:
                raise VerifyException(f"transfer {i}: steps must not decrease (step {step} after step {last})")
            last = step
            if not (0 <= s < n and 0 <= d < n) or s == d:
                raise VerifyException(f"transfer {i}: ({s} -> {d}) must join two different devices of the {n}")
            box = tuple(zip(r[3::2], r[4::2]))
            piece = tgt.local_bounds(full, tgt.mesh.coord_of(d))
            if any(not (plo <= lo < hi <= phi) for (lo, hi), (plo, phi) in zip(box, piece)):
                raise VerifyException(f"transfer {i}: box {list(box)} is empty or lies outside device {d}'s "
                                      f"target piece {list(piece)}")

    def plan(self):
        """The moves as a `ReshardPlan` (meshc.layout.reshard), to run with `execute_plan`."""
        import numpy as np

        from meshc.layout.dtypes import get_dtype
        from meshc.layout.reshard import ReshardPlan, Step, Transfer, lower_bound_bytes

        src, tgt = self.specs()
        full = self.global_shape()
        dtype = get_dtype(_dtype_name(self.input))
        n = src.mesh.size
        steps: dict[int, list] = {}
        for r in self.rows():
            box = tuple(zip(r[3::2], r[4::2]))
            nbytes = rules.prod(tuple(hi - lo for lo, hi in box)) * dtype.itemsize
            steps.setdefault(r[0], []).append(Transfer(r[1], r[2], box, nbytes))
        plan_steps = tuple(Step("point_to_point", (), (tuple(range(n)),), tuple(steps[k])) for k in sorted(steps))
        return ReshardPlan(full, dtype, src, tgt, None, plan_steps, lower_bound_bytes(full, dtype, src, tgt),
                           np.zeros((n, n), dtype=np.int64), stage_mesh=src.mesh)


@irdl_op_definition
class PointToPointOp(PointToPointBase):
    name = "ttir.point_to_point"


class AllSliceBase(CollectiveBase):
    """Each device keeps piece i of `slice_dim`, i being its coordinate on `cluster_axis`
    (the R -> S step of a reshard; moves nothing)."""

    slice_dim = attr_def(IntegerAttr)

    def expected_shape(self, shape: tuple[int, ...], n: int) -> tuple[int, ...]:
        d = rules.normalize_dim(int_value(self.slice_dim), len(shape), "slice_dim")
        return shape[:d] + (rules.divide(shape[d], n, f"slice_dim {d}"),) + shape[d + 1 :]

    def spmd(self, args, mesh_shape):
        """The device at position i along cluster_axis keeps piece i of slice_dim."""
        import numpy as np

        (x,) = args
        n_dev = rules.prod(mesh_shape)
        vals = _device_values(x, mesh_shape)
        axis = int_value(self.cluster_axis)
        d = rules.normalize_dim(int_value(self.slice_dim), vals[0].ndim, "slice_dim")
        coords = np.array(np.unravel_index(np.arange(n_dev), tuple(mesh_shape))).T
        return ([np.split(v, mesh_shape[axis], axis=d)[int(c[axis])].copy() for v, c in zip(vals, coords)],)


@irdl_op_definition
class AllSliceOp(AllSliceBase):
    name = "ttir.all_slice"


def _int_tensor(value: SSAValue | Attribute, what: str) -> None:
    t = value.type if isinstance(value, SSAValue) else value
    assert isinstance(t, TensorType)
    if not isinstance(t.element_type, IntegerType):
        raise VerifyException(f"{what} must be a tensor of integers, got element type {t.element_type}")


def _need_rank(shape: tuple[int, ...], rank: int, what: str, layout: str) -> None:
    if len(shape) != rank:
        raise VerifyException(f"{what} must be {layout} (rank {rank}), got {rules.fmt(shape)}")


class MoeRouteBase(TTIROpBase):
    """Top-k routing: logits [..., E] -> expert ids [..., k] (integers) and weights [..., k]
    (softmax of the chosen logits). See docs/moe.md."""

    logits = operand_def(AnyTensorTypeConstr)
    experts = result_def(AnyTensorTypeConstr)
    weights = result_def(AnyTensorTypeConstr)
    k = attr_def(IntegerAttr)

    def verify_(self) -> None:
        shape = tensor_shape(self.logits)
        k = int_value(self.k)
        if not shape:
            raise VerifyException("logits need at least one dim (the experts)")
        if not 1 <= k <= shape[-1]:
            raise VerifyException(f"k = {k} must lie in [1, {shape[-1]}] (the number of experts)")
        want = shape[:-1] + (k,)
        _check_same_shape("expert ids shape", tensor_shape(self.experts), want)
        _check_same_shape("weights shape", tensor_shape(self.weights), want)
        _int_tensor(self.experts, "expert ids")

    def reference(self, logits):
        from meshc.layout.moe import moe_route

        return moe_route(logits, int_value(self.k))

    def spmd(self, args, mesh_shape):
        def one(xs):
            e, w = self.reference(*xs)
            return e.astype("int32"), w.astype(xs[0].dtype)

        return _on_devices(args, one)


@irdl_op_definition
class MoeRouteOp(MoeRouteBase):
    name = "ttir.moe_route"
    traits = traits_def(NoMemoryEffect())


class MoeDispatchBase(TTIROpBase):
    """Tokens [B, S, M] and expert ids [B, S, k] -> dispatched [E, G, C, M] and slots [B, S, k]
    (-1: dropped). E, G (DP groups of the batch) and C (capacity) are read off the result type.
    Top-1 choices claim slots before top-2 choices, then by token position (docs/moe.md)."""

    tokens = operand_def(AnyTensorTypeConstr)
    experts = operand_def(AnyTensorTypeConstr)
    dispatched = result_def(AnyTensorTypeConstr)
    slots = result_def(AnyTensorTypeConstr)

    def verify_(self) -> None:
        tok, ex, out = tensor_shape(self.tokens), tensor_shape(self.experts), tensor_shape(self.dispatched)
        _need_rank(tok, 3, "tokens", "[B, S, M]")
        _need_rank(ex, 3, "expert ids", "[B, S, k]")
        _need_rank(out, 4, "the dispatched result", "[E, G, C, M]")
        _int_tensor(self.experts, "expert ids")
        _int_tensor(self.slots, "slots")
        if ex[:2] != tok[:2]:
            raise VerifyException(f"expert ids {rules.fmt(ex)} and tokens {rules.fmt(tok)} disagree on [B, S]")
        e, g, _, m = out
        if g < 1 or tok[0] % g:
            raise VerifyException(f"the batch ({tok[0]}) does not split into G = {g} DP groups")
        if m != tok[2]:
            raise VerifyException(f"dispatched model dim {m} differs from the tokens' {tok[2]}")
        if ex[2] > e:
            raise VerifyException(f"{ex[2]} choices a token but only {e} experts")
        _check_same_shape("slots shape", tensor_shape(self.slots), ex)

    def reference(self, tokens, experts):
        from meshc.layout.moe import moe_dispatch

        e, g, c, _ = tensor_shape(self.dispatched)
        d = moe_dispatch(tokens, experts, e, c, g)
        return d.dispatched, d.slot

    def spmd(self, args, mesh_shape):
        def one(xs):
            out, slot = self.reference(*xs)
            return out, slot.astype("int32")

        return _on_devices(args, one)


@irdl_op_definition
class MoeDispatchOp(MoeDispatchBase):
    name = "ttir.moe_dispatch"
    traits = traits_def(NoMemoryEffect())


class MoeCombineBase(TTIROpBase):
    """Expert outputs [E, G, C, N] back to the tokens: [B, S, N], each token the sum of its
    choices' outputs times their router weights; a dropped choice (slot -1) adds zero."""

    expert_out = operand_def(AnyTensorTypeConstr)
    experts = operand_def(AnyTensorTypeConstr)
    weights = operand_def(AnyTensorTypeConstr)
    slots = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)

    def verify_(self) -> None:
        out, ex = tensor_shape(self.expert_out), tensor_shape(self.experts)
        _need_rank(out, 4, "expert outputs", "[E, G, C, N]")
        _need_rank(ex, 3, "expert ids", "[B, S, k]")
        _int_tensor(self.experts, "expert ids")
        _int_tensor(self.slots, "slots")
        _check_same_shape("weights shape", tensor_shape(self.weights), ex)
        _check_same_shape("slots shape", tensor_shape(self.slots), ex)
        if out[1] < 1 or ex[0] % out[1]:
            raise VerifyException(f"the batch ({ex[0]}) does not split into G = {out[1]} DP groups")
        self.expect_result((ex[0], ex[1], out[3]))

    def reference(self, expert_out, experts, weights, slots):
        from meshc.layout.moe import moe_combine

        return moe_combine(expert_out, experts, weights, slots, tensor_shape(self.expert_out)[1])

    def spmd(self, args, mesh_shape):
        return _on_devices(args, lambda xs: (self.reference(*xs).astype(xs[0].dtype),))


@irdl_op_definition
class MoeCombineOp(MoeCombineBase):
    name = "ttir.moe_combine"
    traits = traits_def(NoMemoryEffect())


_OPS += [ReshardOp, PointToPointOp, AllSliceOp, MoeRouteOp, MoeDispatchOp, MoeCombineOp]


TTIR = Dialect("ttir", _OPS, _ATTRIBUTES)
