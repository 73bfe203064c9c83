"""`ttnn.pipeline_transfer`: a device tensor of one pipeline stage's virtual device sent to the
next stage's device over the ethernet links joining their chips (docs/pipeline.md)."""

from __future__ import annotations

from xdsl.dialects.builtin import AnyTensorTypeConstr, DenseArrayBase, IntegerAttr
from xdsl.ir import Attribute
from xdsl.irdl import attr_def, irdl_op_definition, operand_def, opt_attr_def, result_def

from meshc.dialects import shape_rules as rules, ttir
from meshc.dialects.tt.pipeline import check_stage_transfer


@irdl_op_definition
class PipelineTransferOp(ttir.TTIROpBase):
    """Send each device's piece of a `shape` tensor, sharded over stage `source_stage`'s mesh by
    `source_shard_dims`, to the devices of stage `target_stage`, which hold it sharded by
    `target_shard_dims` in `memory_config` (and the result's layout): point-to-point sends along
    the fewest-bytes plan (meshc.layout.stage_transfer)."""

    name = "ttnn.pipeline_transfer"
    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    source_stage = attr_def(IntegerAttr)
    target_stage = attr_def(IntegerAttr)
    shape = attr_def(DenseArrayBase)
    source_shard_dims = attr_def(DenseArrayBase)
    target_shard_dims = attr_def(DenseArrayBase)
    memory_config = opt_attr_def(Attribute)

    def verify_(self) -> None:
        ttir.check_attr_name(self, "memory_config", "ttnn.memory_config")
        check_stage_transfer(self, int(self.source_stage.value.data), int(self.target_stage.value.data),
                             rules.ints_of(self.shape), rules.ints_of(self.source_shard_dims),
                             rules.ints_of(self.target_shard_dims), ttir.tensor_shape(self.input),
                             ttir.tensor_shape(self.result))
