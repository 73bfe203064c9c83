"""`ttir-ttnn-result-shapes`: give the values tt-mlir's verifiers do not check the shapes TTNN yields.

tt-mlir's verifiers of `ttir.mesh_shard`, `ttir.all_gather`, `ttir.reduce_scatter` and
`ttir.all_reduce` (and their TTNN twins) never compare the declared result type with what the op
computes, and its conversion to TTNN reads a mesh_shard's `shard_dims` and the device's mesh,
never its `shard_shape`. So tt-mlir's own tests declare results TTNN does not produce: a
reduce_scatter over 2 devices declared `1x1x8192x256 -> 1x1x8192x256` (TTNN's reduce_scatter
yields `1x1x8192x128`, the scatter dim split over the devices of cluster_axis), a mesh_shard of
`shard_shape = [2, 4]` on a 1x2 mesh (TTNN splits by shard_dims on the mesh: `[1, 2]`).

meshc follows TTNN: once the module's mesh is known, each such op whose declared result shape is
not the one TTNN computes from its operand (the op's `ttnn_shape()`) gets that shape, and a
mesh_shard's shard_shape the pieces shard_dims make on the mesh; each change is a located warning
on stderr naming the declared and the computed shape. The ops run in program order, so a corrected
value flows into its users (a shard_to_full mesh_shard then assembles what the devices hold), and
the funcs' signatures follow their returned values. A user whose own declared types no longer
agree (an elementwise op typed for the declared shape) is then refused by its verifier.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, TensorType, i64
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import VerifyException

from meshc.dialects import shape_rules as rules
from meshc.dialects import ttir
from meshc.dialects.tt.module import mesh_shape_of
from meshc.dialects.ttir.base import tensor_shape
from meshc.errors import LocatedError, first_line, warn
from meshc.layout.shapes import fmt_shape
from meshc.passes.lowering_utils import fix_function_types

RETYPED = (ttir.MeshShardOp, ttir.AllGatherOp, ttir.ReduceScatterOp, ttir.AllReduceOp)
"""The ttir ops whose declared result shape TTNN's run overrides."""


def _why(op: Operation) -> str:
    """What TTNN computes, in words, for the warning."""
    if isinstance(op, ttir.MeshShardOp):
        verb = "distribute_tensor splits" if op.is_full_to_shard else "aggregate_tensor joins"
        return (f"TTNN's {verb} by shard_dims {list(rules.ints_of(op.shard_dims))} on the mesh "
                f"{fmt_shape(mesh_shape_of(op))} into pieces {list(op.pieces())}")
    kind = op.name.split(".", 1)[1]
    return f"TTNN's {kind} over the {op.axis_size()} devices of cluster_axis {op.cluster_axis.value.data}"  # type: ignore[attr-defined]


def _check_users(value) -> None:
    """Verify the ops that read a retyped value (a user typed for the declared shape is refused
    there, with its own verifier's words)."""
    for use in list(value.uses):
        user = use.operation
        if isinstance(user, RETYPED + (func.ReturnOp,)):
            continue  # its own result is settled when the walk reaches it; a func's type follows its return
        try:
            user.verify_()
        except VerifyException as e:
            raise LocatedError(f"{first_line(str(e))} (its operand took the shape TTNN yields)", user) from None


def settle_shapes(module: ModuleOp, warnings: bool = True) -> int:
    """Retype the results (and mesh_shards' shard_shape) of the module's RETYPED ops to what TTNN
    yields; return how many ops changed. Nothing changes while the module's mesh is unknown."""
    changed = 0
    for op in list(module.walk()):
        if not isinstance(op, RETYPED) or mesh_shape_of(op) is None:
            continue
        try:
            want = op.ttnn_shape()
        except VerifyException as e:
            raise LocatedError(str(e), op) from None
        said = []
        if isinstance(op, ttir.MeshShardOp) and not op.is_identity and not op.is_replicate and not op.splits_nothing:
            pieces = list(op.pieces())
            if list(rules.ints_of(op.shard_shape)) != pieces:
                said.append(f"shard_shape {list(rules.ints_of(op.shard_shape))} is not the pieces {pieces} shard_dims make; "
                            f"it becomes {pieces}")
                op.shard_shape = DenseArrayBase.from_list(i64, pieces)
        t = op.results[0].type
        got = tensor_shape(t)
        retype = want is not None and got != want
        if retype:
            said.append(f"result shape {fmt_shape(got)} is not the {fmt_shape(want)} that {_why(op)} yields; "
                        f"the result takes TTNN's shape")
        if said:
            changed += 1
            if warnings:
                warn(op, "; ".join(said))
        if retype:
            new = Rewriter.replace_value_with_new_type(op.results[0], TensorType(t.element_type, want, t.encoding))  # type: ignore[attr-defined]
            _check_users(new)
    if changed:
        fix_function_types(module)
    return changed


@dataclass(frozen=True)
class TTIRTTNNResultShapesPass(ModulePass):
    name = "ttir-ttnn-result-shapes"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        settle_shapes(op)
