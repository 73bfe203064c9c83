"""Which ttmetal program each ttir op lowers to: the op table of `convert-ttir-to-ttmetal`.

`TTIR_TO_TTMETAL` maps a ttir compute op class to the `Kernel` its `ttmetal.enqueue_program`
runs, from the compute-op registry (meshc.layout.compute_ops: an entry's `ttmetal`): the kernel
family (how the kernel reads its blocks and what it computes) and, for the elementwise and
reduction families, the tile op (`ttmetal.tile_unary` / `tile_binary` / `tile_reduce`
`op = ...`) it applies; ttir.to_layout copies its blocks. `ccl_kind` gives each ttir collective
the `kind` of its `ttmetal.enqueue_ccl`, read live from the one collective registry
(meshc.layout.collectives).
`ttir.mesh_shard`, `ttir.constant` and `ttir.empty` become buffers and transfers, not
programs (`BUFFER_OPS`); every other ttir op is a located error.
"""

from __future__ import annotations

from xdsl.ir import Operation

from meshc.dialects import ttir
from meshc.dialects.ttmetal import COPY
from meshc.layout.collectives import COLLECTIVES
from meshc.layout.compute_ops import COMPUTE_OPS, Kernel

__all__ = ["BUFFER_OPS", "TTIR_TO_TTMETAL", "Kernel", "ccl_kind", "lowers_to_ccl"]


TTIR_TO_TTMETAL: dict[type[Operation], Kernel] = {
    **{ttir.COMPUTE_OPS[kind]: e.ttmetal for kind, e in COMPUTE_OPS.items() if e.ttmetal is not None},
    ttir.ToLayoutOp: Kernel("copy", COPY),
}
"""ttir compute op -> the kernel of its `ttmetal.enqueue_program` (the registry's `ttmetal`)."""


def lowers_to_ccl(name: str) -> bool:
    """Whether the ttir op `name` is a collective, which lowers to `ttmetal.enqueue_ccl`: every kind
    of meshc.layout.collectives, read live (a new kind needs no edit here)."""
    return name.startswith("ttir.") and name[len("ttir."):] in COLLECTIVES


def ccl_kind(op: Operation) -> str | None:
    """The `kind` of the `ttmetal.enqueue_ccl` a ttir collective lowers to (its registry kind, the
    name its op carries: meshc.dialects.ttir.collectives.collective_op_table), `point_to_point` for
    a reshard's explicit moves, or None."""
    if isinstance(op, ttir.PointToPointOp):
        return "point_to_point"
    return op.name[len("ttir."):] if lowers_to_ccl(op.name) else None

BUFFER_OPS: tuple[type[Operation], ...] = (ttir.MeshShardOp, ttir.ConstantOp, ttir.EmptyOp)
"""The ttir ops that become buffers and host transfers, each with its own pattern."""
