"""Shared pieces of the ttir ops: the helpers their verifiers use (the module's mesh, static
shapes, attribute values), the op-family bases (elementwise, reductions, collectives), the
`PerDevice` trait of the ops written per device, and `compute_op_classes`, which makes the op
classes of the compute-op registry (meshc/layout/compute_ops.py) for a dialect."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import AnyTensorTypeConstr, ArrayAttr, BoolAttr, IntegerAttr, IntegerType, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation, attr_def, irdl_op_definition, operand_def, opt_attr_def, result_def, traits_def
from xdsl.traits import NoMemoryEffect, OpTrait
from xdsl.utils.exceptions import VerifyException

from meshc.dialects import shape_rules as rules
from meshc.dialects.tt.module import mesh_shape_of
from meshc.layout.collectives import Collective, CollectiveArgs
from meshc.layout.compute_ops import COMPUTE_OPS, ComputeOp
from meshc.layout.mesh import ShardingSpec, spec_from_shard_dims


# ----------------------------------------------------------------------------- helpers

def tensor_shape(value: SSAValue | Attribute) -> tuple[int, ...]:
    """The static shape of a tensor value or type (a ttmetal mesh buffer's too): the one place
    meshc reads it. A dynamic dim, or a value that has no shape, is a verifier error."""
    t = value.type if isinstance(value, SSAValue) else value
    get_shape = getattr(t, "get_shape", None)
    if get_shape is None:
        raise VerifyException(f"expected a tensor, got {t}")
    shape = tuple(int(n) for n in get_shape())
    if any(n < 0 for n in shape):
        raise VerifyException(f"{t} has a dynamic dim; meshc places static shapes only")
    return shape


class HostTransfer:
    """An op that moves a host tensor to or from the mesh by `shard_dims` (per mesh axis, the
    tensor dim it splits, or -1): `ttir.mesh_shard`, and the transfers of ttnn and ttmetal.
    `sharding` is the one reading of `shard_dims` as a ShardingSpec (the currency every layer
    after the parser computes with)."""

    def host_shape(self) -> tuple[int, ...]:
        """The shape of the host (whole) tensor."""
        raise NotImplementedError

    def sharding(self, mesh_shape=None) -> ShardingSpec:
        """How the host tensor spreads over `mesh_shape` (default: the module's mesh, else one device)."""
        if mesh_shape is None:
            mesh_shape = mesh_shape_of(self) or (1,)  # type: ignore[arg-type]
        return spec_from_shard_dims(rules.ints_of(self.shard_dims), len(self.host_shape()), mesh_shape)  # type: ignore[attr-defined]

    def verify_transfer(self, local: tuple[int, ...], what: str) -> None:
        """The checks of a ttnn / ttmetal transfer whose devices hold `local` pieces (`what`: the
        result, operand or buffer): no `form` / `mapper`, a `#ttnn.sharded_buffer_config` `config`,
        shard_dims that split the host tensor evenly into `local` pieces on the module's mesh (the
        dims no axis splits whole while the mesh is not known yet), and the config's blocks."""
        rules.check_transfer_attributes(self)
        check_attr_name(self, "config", "ttnn.sharded_buffer_config")  # type: ignore[arg-type]
        full, dims, mesh = self.host_shape(), rules.ints_of(self.shard_dims), mesh_shape_of(self)  # type: ignore[attr-defined,arg-type]
        if mesh is None:  # the mesh is not known yet
            rules.check_unsharded_dims(full, local, dims, what)
            return
        pieces = rules.mesh_pieces(len(full), dims, mesh)
        rules.check_even_split(full, pieces)
        expected = rules.local_shape(full, pieces)
        if local != expected:
            raise VerifyException(f"{what} shape {rules.fmt(local)} does not match the per-device shape "
                                  f"{rules.fmt(expected)} of the host tensor {rules.fmt(full)}")
        rules.check_transfer_config(self)


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


def check_same_shape(what: str, got: tuple[int, ...], expected: tuple[int, ...]) -> None:
    if got != expected:
        raise VerifyException(f"{what} {rules.fmt(got)} does not match the expected shape {rules.fmt(expected)}")


def check_same_element_type(operand: SSAValue, result: SSAValue, advice: str = "") -> None:
    a, b = operand.type, result.type
    assert isinstance(a, TensorType) and isinstance(b, TensorType)
    if a.element_type != b.element_type:
        raise VerifyException(f"result element type {b.element_type} differs from the operand's {a.element_type}{advice}")


# ----------------------------------------------------------------------------- op bases


@dataclass(frozen=True)
class PerDevice(OpTrait):
    """An op written per device (SPMD): `mesh_shard`, the collectives, the reshards. The sharding
    passes take a module holding one as placed by hand and leave it alone."""


class TTIROpBase(IRDLOperation):
    """Common base of ttir ops (and ttnn's mirrored compute ops)."""

    def result_shape(self) -> tuple[int, ...]:
        return tensor_shape(self.results[0])

    def expect_result(self, expected: tuple[int, ...]) -> None:
        check_same_shape("result shape", self.result_shape(), expected)


def _check_integer_only(op: Operation) -> None:
    """An op whose registry entry is `integer_only` (bitwise ops, shifts) takes integer tensors only."""
    entry = getattr(type(op), "COMPUTE", None)
    if entry is None or not entry.integer_only:
        return
    for v in op.operands:
        t = v.type
        if isinstance(t, TensorType) and not isinstance(t.element_type, IntegerType):
            raise VerifyException(f"takes integer tensors (it works on their bits), got {t}")


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
            check_same_element_type(self.input, self.result)
        _check_integer_only(self)


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
        _check_integer_only(self)


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
        """tt-mlir's verifyReduceOp (every TTIR reduction's), in its words, each naming what it
        expected: the dims in range and unique, the result shape the reduction gives."""
        shape = tensor_shape(self.input)
        rank = len(shape)
        dims = [] if self.dim_arg is None else list(rules.ints_of(self.dim_arg))
        for d in dims:
            if not -rank <= d < rank:
                raise VerifyException(f"Reduce dimension {d} is out of range for input tensor of rank {rank} "
                                      f"(expected {-rank} <= dim_arg < {rank})")
        if len({d % rank for d in dims}) != len(dims):
            raise VerifyException(f"Reduce dimensions are not unique: dim_arg {dims} names a dim twice")
        expected = rules.reduce_shape(shape, self.reduced_dims(), bool_value(self.keep_dim))
        if self.result_shape() != expected:
            raise VerifyException(f"Expected output shape ({', '.join(map(str, expected))}), got "
                                  f"({', '.join(map(str, self.result_shape()))})")


class CollectiveBase(TTIROpBase):
    """An exchange between the devices along one `cluster_axis` of the module's mesh."""

    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    cluster_axis = attr_def(IntegerAttr)
    traits = traits_def(PerDevice())

    def axis_size(self) -> int | None:
        """Devices along cluster_axis (None while the mesh is unknown)."""
        mesh = mesh_shape_of(self)
        if mesh is None:
            return None
        return rules.mesh_axis_size(mesh, int_value(self.cluster_axis))

    TTNN_SHAPE_WINS: ClassVar[bool] = False
    """True on the ttir collectives whose declared result shape tt-mlir's verifier does not read
    (all_gather, reduce_scatter, all_reduce): the verifier checks the dims and the split, and
    `ttir-ttnn-result-shapes` retypes a result that is not what TTNN yields, with a warning."""

    def verify_(self) -> None:
        n = self.axis_size()
        if n is None or self.TTNN_SHAPE_WINS:  # the dims (and the split, on a known mesh) are checked
            self.expected_shape(tensor_shape(self.input), n or 1)
        else:
            self.expect_result(self.expected_shape(tensor_shape(self.input), n))

    def ttnn_shape(self) -> tuple[int, ...] | None:
        """The result shape TTNN computes from the operand on the module's mesh (None while the
        mesh is unknown)."""
        n = self.axis_size()
        return None if n is None else self.expected_shape(tensor_shape(self.input), n)

    def expected_shape(self, shape: tuple[int, ...], n: int) -> tuple[int, ...]:
        return shape


def collective_args(op: Operation, kind: Collective, rank: int) -> CollectiveArgs:
    """The attributes of a collective op of `kind` (ttir, ttnn or ttmetal.enqueue_ccl) as the
    registry's CollectiveArgs, negative tensor dims resolved against `rank`."""
    attrs = op.attributes
    dims = tuple(rules.normalize_dim(int_value(attrs[name]), rank, name) for name in kind.dim_attrs)
    axis = int_value(attrs["cluster_axis"]) if kind.cluster_axis else None
    rt = attrs.get("reduce_type")
    reduce = "sum" if rt is None else rt.data  # type: ignore[attr-defined]
    pairs = tuple(rules.pairs_of(attrs["source_target_pairs"])) if kind.pairs else ()
    return CollectiveArgs(dims, axis, reduce, pairs)


# ----------------------------------------------------------------------------- registry ops


def _class_name(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_")) + "Op"


def compute_op_classes(dialect: str, bases: dict[str, type[TTIROpBase]], module: str,
                       entries: dict[str, ComputeOp] | None = None) -> dict[str, type[TTIROpBase]]:
    """One op class an entry of the compute-op registry (default: all of `COMPUTE_OPS`), kind ->
    class: `<dialect>.<name>` (ttnn: the entry's TTNN name) on the base of the entry's family,
    its docstring the entry's `doc`, the entry itself its `COMPUTE` ClassVar. A family without
    a base in `bases` is an AssertionError naming it (each dialect gives every family one)."""
    out: dict[str, type[TTIROpBase]] = {}
    for kind, entry in (COMPUTE_OPS if entries is None else entries).items():
        base = bases.get(entry.family)
        assert base is not None, f"{dialect} has no base class for the '{entry.family}' family of '{kind}'"
        name = entry.ttnn_name if dialect == "ttnn" else entry.name
        body = {"name": f"{dialect}.{name}", "COMPUTE": entry, "__module__": module,
                "__qualname__": _class_name(name), "__doc__": f"{entry.doc}.",
                "__annotations__": {"COMPUTE": ClassVar[ComputeOp]}}
        out[kind] = irdl_op_definition(type(_class_name(name), (base,), body))
    return out
