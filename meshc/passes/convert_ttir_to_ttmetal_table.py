"""Which ttmetal program each ttir op lowers to: the op table of `convert-ttir-to-ttmetal`.

`TTIR_TO_TTMETAL` maps a ttir compute op class to the `Kernel` its `ttmetal.enqueue_program`
runs: the kernel family (how the kernel reads its blocks and what it computes) and, for the
elementwise and reduction families, the tile op (`ttmetal.tile_unary` / `tile_binary` /
`tile_reduce` `op = ...`) it applies. `ccl_kind` gives each ttir collective the `kind` of its
`ttmetal.enqueue_ccl`, read live from the one collective registry (meshc.layout.collectives).
`ttir.mesh_shard`, `ttir.constant` and `ttir.empty` become buffers and transfers, not
programs (`BUFFER_OPS`); every other ttir op is a located error.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation

from meshc.dialects import ttir
from meshc.layout.collectives import COLLECTIVES


@dataclass(frozen=True)
class Kernel:
    """The program a ttir op runs on every core of its result's grid."""

    family: str
    """unary | binary | where | reduce | matmul | transpose | softmax | copy."""
    tile_op: str = ""
    """The `op` of the tile op an elementwise or reduction kernel applies."""


TTIR_TO_TTMETAL: dict[type[Operation], Kernel] = {
    # elementwise unary: every core maps its block
    ttir.ExpOp: Kernel("unary", "exp"),
    ttir.LogOp: Kernel("unary", "log"),
    ttir.ReluOp: Kernel("unary", "relu"),
    ttir.SigmoidOp: Kernel("unary", "sigmoid"),
    ttir.TanhOp: Kernel("unary", "tanh"),
    ttir.GeluOp: Kernel("unary", "gelu"),
    ttir.NegOp: Kernel("unary", "neg"),
    ttir.SqrtOp: Kernel("unary", "sqrt"),
    ttir.ErfOp: Kernel("unary", "erf"),
    ttir.TypecastOp: Kernel("unary", "typecast"),
    # elementwise binary: a row, a column or a scalar operand is broadcast
    ttir.AddOp: Kernel("binary", "add"),
    ttir.SubtractOp: Kernel("binary", "subtract"),
    ttir.MultiplyOp: Kernel("binary", "multiply"),
    ttir.DivOp: Kernel("binary", "div"),
    ttir.MaximumOp: Kernel("binary", "maximum"),
    ttir.MinimumOp: Kernel("binary", "minimum"),
    ttir.PowOp: Kernel("binary", "pow"),
    # comparisons (1 / 0 in the block's type) and select
    ttir.EqualOp: Kernel("binary", "eq"),
    ttir.NotEqualOp: Kernel("binary", "ne"),
    ttir.GreaterThanOp: Kernel("binary", "gt"),
    ttir.GreaterEqualOp: Kernel("binary", "ge"),
    ttir.LessThanOp: Kernel("binary", "lt"),
    ttir.LessEqualOp: Kernel("binary", "le"),
    ttir.WhereOp: Kernel("where"),
    # reductions over the last dim (or the first of a 2-d tensor), keep_dim
    ttir.SumOp: Kernel("reduce", "sum"),
    ttir.MeanOp: Kernel("reduce", "mean"),
    ttir.MaxOp: Kernel("reduce", "max"),
    # the rest
    ttir.MatmulOp: Kernel("matmul"),
    ttir.TransposeOp: Kernel("transpose"),
    ttir.SoftmaxOp: Kernel("softmax"),
    ttir.ToLayoutOp: Kernel("copy", "copy"),
}  # fmt: skip
"""ttir compute op -> the kernel of its `ttmetal.enqueue_program`."""

def lowers_to_ccl(name: str) -> bool:
    """Whether the ttir op `name` is a collective, which lowers to `ttmetal.enqueue_ccl`: every kind
    of meshc.layout.collectives, read live (a new kind needs no edit here)."""
    return name.startswith("ttir.") and name[len("ttir."):] in COLLECTIVES


def ccl_kind(op: Operation) -> str | None:
    """The `kind` of the `ttmetal.enqueue_ccl` a ttir collective lowers to (its registry kind, the
    name its op carries: meshc.dialects.ttir.collectives.collective_op_table), or None."""
    return op.name[len("ttir."):] if lowers_to_ccl(op.name) else None

BUFFER_OPS: tuple[type[Operation], ...] = (ttir.MeshShardOp, ttir.ConstantOp, ttir.EmptyOp)
"""The ttir ops that become buffers and host transfers, each with its own pattern."""
