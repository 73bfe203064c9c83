"""The ttnn dialect: memory configs, mesh distribution attributes and TTNN-level ops.

The file has three sections, each owned by one part of meshc; each appends its classes to
`_ATTRIBUTES` / `_OPS`, and the `Dialect` object at the end is built from those lists.
"""

from __future__ import annotations

from xdsl.ir import Dialect

_ATTRIBUTES: list = []
_OPS: list = []

# ---- memory attributes (issue 3) ----


# ---- mesh distribution attributes (issue 4) ----


# ---- ops (issue 5) ----
# TTNN-level ops: the mesh device, host <-> mesh transfers (distribute / aggregate with the
# mapper and its ShardedBufferConfig), layout and memory-config changes, compute ops (the
# ttir op families under ttnn names) and collectives along a cluster_axis of the mesh.

from xdsl.dialects.builtin import (  # noqa: E402
    AnyTensorTypeConstr as _AnyTensor,
    DenseArrayBase as _DenseArray,
    StringAttr as _StringAttr,
)
from xdsl.ir import Attribute as _Attribute, ParametrizedAttribute as _PAttr, TypeAttribute as _TypeAttr  # noqa: E402
from xdsl.irdl import (  # noqa: E402
    attr_def as _attr_def,
    irdl_attr_definition as _attr_definition,
    irdl_op_definition as _op_definition,
    operand_def as _operand_def,
    opt_attr_def as _opt_attr_def,
    opt_operand_def as _opt_operand_def,
    result_def as _result_def,
)
from xdsl.utils.exceptions import VerifyException as _VerifyException  # noqa: E402
from typing import ClassVar  # noqa: E402

from meshc.dialects import shape_rules as _rules  # noqa: E402
from meshc.dialects import ttir as _ttir  # noqa: E402


@_attr_definition
class DeviceType(_PAttr, _TypeAttr):
    """`!ttnn.device`: the mesh device handle `ttnn.get_device` returns."""

    name = "ttnn.device"


@_op_definition
class GetDeviceOp(_ttir.TTIROpBase):
    """Open (a submesh of) the mesh device: `mesh_shape` devices starting at `mesh_offset`."""

    name = "ttnn.get_device"
    device = _result_def(DeviceType)
    mesh_shape = _attr_def(_DenseArray)
    mesh_offset = _opt_attr_def(_DenseArray)

    def verify_(self) -> None:
        shape = _rules.ints_of(self.mesh_shape)
        if not shape or any(n < 1 for n in shape):
            raise _VerifyException(f"mesh_shape {list(shape)} must have at least one axis, each of at least one device")
        if self.mesh_offset is not None:
            off = _rules.ints_of(self.mesh_offset)
            if len(off) != len(shape) or any(o < 0 for o in off):
                raise _VerifyException(f"mesh_offset {list(off)} must be {len(shape)} non-negative integers, one per mesh axis")
        mesh = _ttir.mesh_shape_of(self)
        if mesh is not None and mesh != (1,) and _rules.prod(shape) > _rules.prod(mesh):
            raise _VerifyException(
                f"mesh_shape {list(shape)} has more devices than the module's mesh {_rules.fmt(mesh)}"
            )


def _check_attr_name(op, field: str, expected: str) -> None:
    attr = op.attributes.get(field)
    if attr is not None and getattr(attr, "name", None) != expected:
        raise _VerifyException(f"{field} must be a #{expected} attribute, got {attr}")


class _DistributionBase(_ttir.TTIROpBase):
    """Host tensor <-> per-device pieces, as ttir.mesh_shard but carrying TTNN's description.

    `shard_dims` (per mesh axis, the tensor dim it splits or -1) is the placement; `mapper` is
    the TTNN mesh mapper that expresses it and `config` the TT-Mesh ShardedBufferConfig it
    lowers to, in the `form` "2d" (faithful to the seed's 2D sharding infra) or "nd".
    """

    input = _operand_def(_AnyTensor)
    result = _result_def(_AnyTensor)
    shard_dims = _attr_def(_DenseArray)
    form = _attr_def(_StringAttr)
    mapper = _opt_attr_def(_Attribute)
    config = _opt_attr_def(_Attribute)
    memory_config = _opt_attr_def(_Attribute)
    FULL_IS_INPUT: ClassVar[bool] = True

    def pieces(self) -> tuple[int, ...]:
        full = _ttir.tensor_shape(self.input) if self.FULL_IS_INPUT else self.result_shape()
        dims = _rules.ints_of(self.shard_dims)
        mesh = _ttir.mesh_shape_of(self)
        if mesh is not None and len(dims) != len(mesh):
            raise _VerifyException(f"shard_dims has {len(dims)} entries, expected one per mesh axis of {_rules.fmt(mesh)}")
        want = [1] * len(full)
        for a, d in enumerate(dims):
            if d != -1 and not 0 <= d < len(full):
                raise _VerifyException(f"shard_dims[{a}] = {d} is not a dim of the rank-{len(full)} tensor")
            if d >= 0 and mesh is not None:
                want[d] *= mesh[a]
        return tuple(want)

    def verify_(self) -> None:
        if self.form.data not in ("2d", "nd"):
            raise _VerifyException(f"form must be \"2d\" or \"nd\", got \"{self.form.data}\"")
        _check_attr_name(self, "mapper", "ttnn.mesh_mapper")
        _check_attr_name(self, "config", "ttnn.sharded_buffer_config")
        _check_attr_name(self, "memory_config", "ttnn.memory_config")
        full = _ttir.tensor_shape(self.input) if self.FULL_IS_INPUT else self.result_shape()
        local = self.result_shape() if self.FULL_IS_INPUT else _ttir.tensor_shape(self.input)
        pieces = self.pieces()
        for d, (n, k) in enumerate(zip(full, pieces)):
            if n % k:
                raise _VerifyException(f"tensor dim {d} of size {n} does not split into {k} equal pieces")
        expected = _rules.local_shape(full, pieces)
        if local != expected:
            what = "result" if self.FULL_IS_INPUT else "operand"
            raise _VerifyException(f"{what} shape {_rules.fmt(local)} does not match the per-device shape {_rules.fmt(expected)}")


@_op_definition
class DistributeTensorOp(_DistributionBase):
    """Write a host tensor to the mesh: the result is each device's piece."""

    name = "ttnn.distribute_tensor"
    input = _operand_def(_AnyTensor)
    device = _opt_operand_def(DeviceType)


@_op_definition
class AggregateTensorOp(_DistributionBase):
    """Read the devices' pieces back into one host tensor (the mapper's inverse composer)."""

    name = "ttnn.aggregate_tensor"
    FULL_IS_INPUT: ClassVar[bool] = False


class _SameShapeBase(_ttir.TTIROpBase):
    input = _operand_def(_AnyTensor)
    result = _result_def(_AnyTensor)

    def verify_(self) -> None:
        self.expect_result(_ttir.tensor_shape(self.input))


@_op_definition
class ToDeviceOp(_SameShapeBase):
    """Move a host tensor to the device, into `memory_config`."""

    name = "ttnn.to_device"
    input = _operand_def(_AnyTensor)
    device = _operand_def(DeviceType)
    memory_config = _opt_attr_def(_Attribute)


@_op_definition
class FromDeviceOp(_SameShapeBase):
    """Move a device tensor back to the host."""

    name = "ttnn.from_device"


@_op_definition
class ToLayoutOp(_SameShapeBase):
    """Convert between row-major and tiled layout (`layout` = "tile" | "row_major")."""

    name = "ttnn.to_layout"
    layout = _attr_def(_StringAttr)

    def verify_(self) -> None:
        super().verify_()
        if self.layout.data not in ("tile", "row_major"):
            raise _VerifyException(f"layout must be \"tile\" or \"row_major\", got \"{self.layout.data}\"")


@_op_definition
class ToMemoryConfigOp(_SameShapeBase):
    """Move a device tensor into another memory config (buffer type, interleaved / sharded)."""

    name = "ttnn.to_memory_config"
    memory_config = _attr_def(_Attribute)

    def verify_(self) -> None:
        super().verify_()
        _check_attr_name(self, "memory_config", "ttnn.memory_config")


def _mirror(base: type, op_name: str, doc: str) -> type:
    cls = type(op_name.split(".")[1].title().replace("_", "") + "Op", (base,), {"name": op_name, "__doc__": doc})
    return _op_definition(cls)


_TTNN_COMPUTE = {
    "ttnn.exp": _ttir.ElementwiseUnaryBase, "ttnn.log": _ttir.ElementwiseUnaryBase,
    "ttnn.relu": _ttir.ElementwiseUnaryBase, "ttnn.sigmoid": _ttir.ElementwiseUnaryBase,
    "ttnn.tanh": _ttir.ElementwiseUnaryBase, "ttnn.gelu": _ttir.ElementwiseUnaryBase,
    "ttnn.neg": _ttir.ElementwiseUnaryBase, "ttnn.sqrt": _ttir.ElementwiseUnaryBase,
    "ttnn.add": _ttir.ElementwiseBinaryBase, "ttnn.subtract": _ttir.ElementwiseBinaryBase,
    "ttnn.multiply": _ttir.ElementwiseBinaryBase, "ttnn.div": _ttir.ElementwiseBinaryBase,
    "ttnn.maximum": _ttir.ElementwiseBinaryBase,
    "ttnn.matmul": _ttir.MatmulBase, "ttnn.transpose": _ttir.TransposeBase,
    "ttnn.permute": _ttir.PermuteBase, "ttnn.reshape": _ttir.ReshapeBase,
    "ttnn.repeat": _ttir.BroadcastBase, "ttnn.concat": _ttir.ConcatBase,
    "ttnn.sum": _ttir.ReductionBase, "ttnn.mean": _ttir.ReductionBase, "ttnn.max": _ttir.ReductionBase,
    "ttnn.softmax": _ttir.SoftmaxBase, "ttnn.embedding": _ttir.EmbeddingBase,
}  # fmt: skip
"""ttnn compute op -> the ttir family base it shares (same operands, attributes and verifier)."""


@_op_definition
class TypecastOp(_ttir.ElementwiseUnaryBase):
    """Convert the element type; the shape is kept."""

    name = "ttnn.typecast"
    SAME_ELEMENT_TYPE: ClassVar[bool] = False


@_op_definition
class EmptyOp(_ttir.TTIROpBase):
    """A device tensor with unspecified contents."""

    name = "ttnn.empty"
    result = _result_def(_AnyTensor)


@_op_definition
class ConstantOp(_ttir.TTIROpBase):
    """A host tensor given by a dense elements attribute."""

    name = "ttnn.constant"
    result = _result_def(_AnyTensor)
    value = _attr_def(_ttir.DenseIntOrFPElementsAttr)

    verify_ = _ttir.ConstantOp.verify_


@_op_definition
class AllGatherOp(_ttir.CollectiveBase):
    name = "ttnn.all_gather"
    all_gather_dim = _attr_def(_ttir.IntegerAttr)
    expected_shape = _ttir.AllGatherOp.expected_shape


@_op_definition
class ReduceScatterOp(_ttir.CollectiveBase):
    name = "ttnn.reduce_scatter"
    scatter_dim = _attr_def(_ttir.IntegerAttr)
    reduce_type = _attr_def(_ttir.ReduceTypeAttr)
    expected_shape = _ttir.ReduceScatterOp.expected_shape


@_op_definition
class AllReduceOp(_ttir.CollectiveBase):
    name = "ttnn.all_reduce"
    reduce_type = _attr_def(_ttir.ReduceTypeAttr)


@_op_definition
class AllToAllOp(_ttir.CollectiveBase):
    name = "ttnn.all_to_all"
    split_dim = _attr_def(_ttir.IntegerAttr)
    concat_dim = _attr_def(_ttir.IntegerAttr)
    expected_shape = _ttir.AllToAllOp.expected_shape


@_op_definition
class CollectivePermuteOp(_ttir.TTIROpBase):
    name = "ttnn.collective_permute"
    input = _operand_def(_AnyTensor)
    result = _result_def(_AnyTensor)
    source_target_pairs = _attr_def(_ttir.DenseIntOrFPElementsAttr)
    pairs = _ttir.CollectivePermuteOp.pairs
    verify_ = _ttir.CollectivePermuteOp.verify_


COMPUTE_OPS: dict[str, type] = {name: _mirror(base, name, f"TTNN's {name[5:]}, as ttir's.") for name, base in _TTNN_COMPUTE.items()}
COMPUTE_OPS["ttnn.typecast"] = TypecastOp

_ATTRIBUTES += [DeviceType]
_OPS += [
    GetDeviceOp, DistributeTensorOp, AggregateTensorOp, ToDeviceOp, FromDeviceOp, ToLayoutOp,
    ToMemoryConfigOp, EmptyOp, ConstantOp, *COMPUTE_OPS.values(),
    AllGatherOp, ReduceScatterOp, AllReduceOp, AllToAllOp, CollectivePermuteOp,
]  # fmt: skip



TTNN = Dialect("ttnn", _OPS, _ATTRIBUTES)
