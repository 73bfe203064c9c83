"""Which ttnn op each ttir op lowers to: the op table of `convert-ttir-to-ttnn`.

`TTIR_TO_TTNN` maps a ttir op class to the ttnn op class that replaces it one for one (same
operands, same attributes, the result types' `#tt.metal_layout` turned into
`#ttnn.ttnn_layout`). The compute ops are listed one by one, as tt-mlir's TTIRToTTNN lists its
conversion patterns; the collectives are paired by kind through the one collective registry
(meshc.layout.collectives, with each dialect's `COLLECTIVE_OPS`), so a new collective needs no
line here. The ops the pass rewrites by hand (`ttir.mesh_shard` -> distribute / aggregate,
`ttir.to_layout` -> `ttnn.to_memory_config`) are in `SPECIAL_OPS`; a ttir op in neither
(e.g. `ttir.reshard`, which `reshard-to-collectives` must lower first) is a located error.
"""

from __future__ import annotations

from xdsl.ir import Operation

from meshc.dialects import ttir, ttnn
from meshc.layout.collectives import COLLECTIVES

COMPUTE_OPS: dict[type[Operation], type[Operation]] = {
    # elementwise unary
    ttir.ExpOp: ttnn.ExpOp,
    ttir.LogOp: ttnn.LogOp,
    ttir.ReluOp: ttnn.ReluOp,
    ttir.SigmoidOp: ttnn.SigmoidOp,
    ttir.TanhOp: ttnn.TanhOp,
    ttir.GeluOp: ttnn.GeluOp,
    ttir.NegOp: ttnn.NegOp,
    ttir.SqrtOp: ttnn.SqrtOp,
    ttir.ErfOp: ttnn.ErfOp,
    ttir.TypecastOp: ttnn.TypecastOp,
    # elementwise binary
    ttir.AddOp: ttnn.AddOp,
    ttir.SubtractOp: ttnn.SubtractOp,
    ttir.MultiplyOp: ttnn.MultiplyOp,
    ttir.DivOp: ttnn.DivOp,
    ttir.MaximumOp: ttnn.MaximumOp,
    ttir.MinimumOp: ttnn.MinimumOp,
    ttir.PowOp: ttnn.PowOp,
    # comparisons and select
    ttir.EqualOp: ttnn.EqualOp,
    ttir.NotEqualOp: ttnn.NotEqualOp,
    ttir.GreaterThanOp: ttnn.GreaterThanOp,
    ttir.GreaterEqualOp: ttnn.GreaterEqualOp,
    ttir.LessThanOp: ttnn.LessThanOp,
    ttir.LessEqualOp: ttnn.LessEqualOp,
    ttir.WhereOp: ttnn.WhereOp,
    # matmul and data movement
    ttir.MatmulOp: ttnn.MatmulOp,
    ttir.TransposeOp: ttnn.TransposeOp,
    ttir.PermuteOp: ttnn.PermuteOp,
    ttir.ReshapeOp: ttnn.ReshapeOp,
    ttir.BroadcastOp: ttnn.RepeatOp,
    ttir.ConcatOp: ttnn.ConcatOp,
    ttir.EmbeddingOp: ttnn.EmbeddingOp,
    # reductions and softmax
    ttir.SumOp: ttnn.SumOp,
    ttir.MeanOp: ttnn.MeanOp,
    ttir.MaxOp: ttnn.MaxOp,
    ttir.SoftmaxOp: ttnn.SoftmaxOp,
    # tensors made on the device
    ttir.EmptyOp: ttnn.EmptyOp,
    ttir.ConstantOp: ttnn.ConstantOp,
    # explicit reshard moves and mixture of experts
    ttir.PointToPointOp: ttnn.PointToPointOp,
    ttir.MoeRouteOp: ttnn.MoeRouteOp,
    ttir.MoeDispatchOp: ttnn.MoeDispatchOp,
    ttir.MoeCombineOp: ttnn.MoeCombineOp,
}  # fmt: skip
"""ttir compute / data-movement op -> its ttnn op."""

COLLECTIVE_OPS: dict[type[Operation], type[Operation]] = {
    ttir.COLLECTIVE_OPS[kind]: ttnn.COLLECTIVE_OPS[kind] for kind in COLLECTIVES
}
"""ttir collective -> the ttnn collective of the same kind (meshc.layout.collectives)."""

TTIR_TO_TTNN: dict[type[Operation], type[Operation]] = {**COMPUTE_OPS, **COLLECTIVE_OPS}
"""Every ttir op `convert-ttir-to-ttnn` replaces one for one, with its ttnn op."""

SPECIAL_OPS: tuple[type[Operation], ...] = (ttir.MeshShardOp, ttir.ToLayoutOp)
"""The ttir ops the pass rewrites with their own pattern."""
