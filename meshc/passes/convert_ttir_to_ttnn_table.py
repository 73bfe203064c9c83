"""Which ttnn op each ttir op lowers to: the op table of `convert-ttir-to-ttnn`.

`TTIR_TO_TTNN` maps a ttir op class to the ttnn op class that replaces it one for one (same
operands, same attributes, the result types' `#tt.metal_layout` turned into
`#ttnn.ttnn_layout`). The compute ops are paired by kind through the compute-op registry
(meshc.layout.compute_ops, with each dialect's `COMPUTE_OPS`: ttir.broadcast becomes
ttnn.repeat), the collectives through the collective registry (meshc.layout.collectives, with
each dialect's `COLLECTIVE_OPS`), so a new compute op or collective needs no line here. The ops the pass rewrites by hand (`ttir.mesh_shard` -> distribute / aggregate,
`ttir.to_layout` -> `ttnn.to_memory_config`) are in `SPECIAL_OPS`; a ttir op in neither
(e.g. `ttir.reshard`, which `reshard-to-collectives` must lower first) is a located error.
"""

from __future__ import annotations

from xdsl.ir import Operation

from meshc.dialects import ttir, ttnn
from meshc.layout.collectives import COLLECTIVES
from meshc.layout.compute_ops import COMPUTE_OPS as COMPUTE_REGISTRY

COMPUTE_OPS: dict[type[Operation], type[Operation]] = {
    **{ttir.COMPUTE_OPS[kind]: ttnn.COMPUTE_OPS[kind] for kind in COMPUTE_REGISTRY},
    # tensors made on the device
    ttir.EmptyOp: ttnn.EmptyOp,
    ttir.ConstantOp: ttnn.ConstantOp,
    # explicit reshard moves and mixture of experts
    ttir.PointToPointOp: ttnn.PointToPointOp,
    ttir.MoeRouteOp: ttnn.MoeRouteOp,
    ttir.MoeDispatchOp: ttnn.MoeDispatchOp,
    ttir.MoeCombineOp: ttnn.MoeCombineOp,
    # tt-mlir's MoE ops (meshc/dialects/ttir/moe_ttmlir.py), each to its ttnn twin
    **dict(zip(ttir.TTMLIR_MOE_OPS, ttnn.TTMLIR_MOE_OPS)),
    # tt-mlir's mesh_partition, update_cache, fill_cache (meshc/dialects/ttir/ttmlir_ops.py)
    **dict(zip(ttir.TTMLIR_OPS, ttnn.TTMLIR_OPS)),
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
