"""ttnn device and transfer ops: the mesh device, host <-> mesh transfers (distribute /
aggregate by their shard_dims and ShardedBufferConfig), and layout / memory-config changes."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import AnyTensorTypeConstr, DenseArrayBase, StringAttr
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (
    attr_def,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    opt_operand_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

from meshc.dialects import shape_rules as rules, ttir


@irdl_attr_definition
class DeviceType(ParametrizedAttribute, TypeAttribute):
    """`!ttnn.device`: the mesh device handle `ttnn.get_device` returns."""

    name = "ttnn.device"


@irdl_op_definition
class GetDeviceOp(ttir.TTIROpBase):
    """Open (a submesh of) the mesh device: `mesh_shape` devices starting at `mesh_offset`."""

    name = "ttnn.get_device"
    device = result_def(DeviceType)
    mesh_shape = attr_def(DenseArrayBase)
    mesh_offset = opt_attr_def(DenseArrayBase)

    def verify_(self) -> None:
        shape = rules.ints_of(self.mesh_shape)
        if not shape or any(n < 1 for n in shape):
            raise VerifyException(f"mesh_shape {list(shape)} must have at least one axis, each of at least one device")
        if self.mesh_offset is not None:
            off = rules.ints_of(self.mesh_offset)
            if len(off) != len(shape) or any(o < 0 for o in off):
                raise VerifyException(f"mesh_offset {list(off)} must be {len(shape)} non-negative integers, one per mesh axis")
        mesh = ttir.mesh_shape_of(self)
        if mesh is not None and rules.prod(shape) > rules.prod(mesh):
            raise VerifyException(
                f"mesh_shape {list(shape)} has more devices than the module's mesh {rules.fmt(mesh)}"
            )


class _DistributionBase(ttir.HostTransfer, ttir.TTIROpBase):
    """Host tensor <-> per-device pieces, as ttir.mesh_shard but carrying TTNN's description.

    `shard_dims` (per mesh axis, the tensor dim it splits or -1) is the placement, the one source
    the op states; `config` is the TT-Mesh ShardedBufferConfig the simulator executes (2D, as the
    TT-Mesh sharding spec's 2D infra, or ND: its class says which), which must give every device
    the block `shard_dims` give it. Without a `config`, the one `shard_dims` lower to is executed.
    """

    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    shard_dims = attr_def(DenseArrayBase)
    config = opt_attr_def(Attribute)
    memory_config = opt_attr_def(Attribute)
    FULL_IS_INPUT: ClassVar[bool] = True

    def host_shape(self) -> tuple[int, ...]:
        return ttir.tensor_shape(self.input) if self.FULL_IS_INPUT else self.result_shape()

    def verify_(self) -> None:
        ttir.check_attr_name(self, "memory_config", "ttnn.memory_config")
        local = self.result_shape() if self.FULL_IS_INPUT else ttir.tensor_shape(self.input)
        self.verify_transfer(local, "result" if self.FULL_IS_INPUT else "operand")


@irdl_op_definition
class DistributeTensorOp(_DistributionBase):
    """Write a host tensor to the mesh: the result is each device's piece."""

    name = "ttnn.distribute_tensor"
    input = operand_def(AnyTensorTypeConstr)
    device = opt_operand_def(DeviceType)


@irdl_op_definition
class AggregateTensorOp(_DistributionBase):
    """Read the devices' pieces back into one host tensor (the mapper's inverse composer)."""

    name = "ttnn.aggregate_tensor"
    FULL_IS_INPUT: ClassVar[bool] = False


class _SameShapeBase(ttir.TTIROpBase):
    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)

    def verify_(self) -> None:
        self.expect_result(ttir.tensor_shape(self.input))


@irdl_op_definition
class ToDeviceOp(_SameShapeBase):
    """Move a host tensor to the device, into `memory_config`."""

    name = "ttnn.to_device"
    input = operand_def(AnyTensorTypeConstr)
    device = operand_def(DeviceType)
    memory_config = opt_attr_def(Attribute)


@irdl_op_definition
class FromDeviceOp(_SameShapeBase):
    """Move a device tensor back to the host."""

    name = "ttnn.from_device"


@irdl_op_definition
class ToLayoutOp(_SameShapeBase):
    """Convert between row-major and tiled layout (`layout` = "tile" | "row_major")."""

    name = "ttnn.to_layout"
    layout = attr_def(StringAttr)

    def verify_(self) -> None:
        super().verify_()
        if self.layout.data not in ("tile", "row_major"):
            raise VerifyException(f"layout must be \"tile\" or \"row_major\", got \"{self.layout.data}\"")


@irdl_op_definition
class ToMemoryConfigOp(_SameShapeBase):
    """Move a device tensor into another memory config (buffer type, interleaved / sharded)."""

    name = "ttnn.to_memory_config"
    memory_config = attr_def(Attribute)

    def verify_(self) -> None:
        super().verify_()
        ttir.check_attr_name(self, "memory_config", "ttnn.memory_config")
