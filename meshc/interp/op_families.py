"""The op families every interpreter of meshc implements: one `@impl` an op, in one class a
family and dialect, each naming the kernel or collective kind the op runs.

- `TTIRComputeImpls` / `TTNNComputeImpls`: the compute ops (elementwise, comparisons, matmul,
  data movement, reductions, softmax, embedding, typecast). Every one calls
  `self.compute(kind, op, args)` with its kernel kind of meshc/sim/compute.py; the golden
  interpreter runs the kernel on numpy, the simulator on every device's buffers.
- `TTIRCollectiveImpls` / `TTNNCollectiveImpls`: the collectives, one `@impl` an op of the
  dialect's `COLLECTIVE_OPS` (kind -> op, derived from the collective registry
  meshc.layout.collectives), each calling `self.collective(kind, op, args)`.

An interpreter derives from the families it runs and defines `compute` / `collective`; xDSL's
`register_impls` on it collects the `@impl` methods of all its bases.
"""

from __future__ import annotations

from xdsl.interpreter import InterpreterFunctions, impl

from meshc.dialects import ttir, ttnn

# ----------------------------------------------------------------------------- compute ops


class TTIRComputeImpls(InterpreterFunctions):
    """ttir compute ops: each runs its kernel through `self.compute(kind, op, args)`."""

    @impl(ttir.ExpOp)
    def run_exp(self, interpreter, op, args):
        return self.compute("exp", op, args)

    @impl(ttir.LogOp)
    def run_log(self, interpreter, op, args):
        return self.compute("log", op, args)

    @impl(ttir.ReluOp)
    def run_relu(self, interpreter, op, args):
        return self.compute("relu", op, args)

    @impl(ttir.SigmoidOp)
    def run_sigmoid(self, interpreter, op, args):
        return self.compute("sigmoid", op, args)

    @impl(ttir.TanhOp)
    def run_tanh(self, interpreter, op, args):
        return self.compute("tanh", op, args)

    @impl(ttir.GeluOp)
    def run_gelu(self, interpreter, op, args):
        return self.compute("gelu", op, args)

    @impl(ttir.NegOp)
    def run_neg(self, interpreter, op, args):
        return self.compute("neg", op, args)

    @impl(ttir.SqrtOp)
    def run_sqrt(self, interpreter, op, args):
        return self.compute("sqrt", op, args)

    @impl(ttir.ErfOp)
    def run_erf(self, interpreter, op, args):
        return self.compute("erf", op, args)

    @impl(ttir.TypecastOp)
    def run_typecast(self, interpreter, op, args):
        return self.compute("typecast", op, args)

    @impl(ttir.AddOp)
    def run_add(self, interpreter, op, args):
        return self.compute("add", op, args)

    @impl(ttir.SubtractOp)
    def run_subtract(self, interpreter, op, args):
        return self.compute("subtract", op, args)

    @impl(ttir.MultiplyOp)
    def run_multiply(self, interpreter, op, args):
        return self.compute("multiply", op, args)

    @impl(ttir.DivOp)
    def run_div(self, interpreter, op, args):
        return self.compute("div", op, args)

    @impl(ttir.MaximumOp)
    def run_maximum(self, interpreter, op, args):
        return self.compute("maximum", op, args)

    @impl(ttir.MinimumOp)
    def run_minimum(self, interpreter, op, args):
        return self.compute("minimum", op, args)

    @impl(ttir.PowOp)
    def run_pow(self, interpreter, op, args):
        return self.compute("pow", op, args)

    @impl(ttir.MatmulOp)
    def run_matmul(self, interpreter, op, args):
        return self.compute("matmul", op, args)

    @impl(ttir.TransposeOp)
    def run_transpose(self, interpreter, op, args):
        return self.compute("transpose", op, args)

    @impl(ttir.PermuteOp)
    def run_permute(self, interpreter, op, args):
        return self.compute("permute", op, args)

    @impl(ttir.ReshapeOp)
    def run_reshape(self, interpreter, op, args):
        return self.compute("reshape", op, args)

    @impl(ttir.BroadcastOp)
    def run_broadcast(self, interpreter, op, args):
        return self.compute("broadcast", op, args)

    @impl(ttir.ConcatOp)
    def run_concat(self, interpreter, op, args):
        return self.compute("concat", op, args)

    @impl(ttir.SumOp)
    def run_sum(self, interpreter, op, args):
        return self.compute("sum", op, args)

    @impl(ttir.MeanOp)
    def run_mean(self, interpreter, op, args):
        return self.compute("mean", op, args)

    @impl(ttir.MaxOp)
    def run_max(self, interpreter, op, args):
        return self.compute("max", op, args)

    @impl(ttir.SoftmaxOp)
    def run_softmax(self, interpreter, op, args):
        return self.compute("softmax", op, args)

    @impl(ttir.EmbeddingOp)
    def run_embedding(self, interpreter, op, args):
        return self.compute("embedding", op, args)

    @impl(ttir.EqualOp)
    def run_eq(self, interpreter, op, args):
        return self.compute("eq", op, args)

    @impl(ttir.NotEqualOp)
    def run_ne(self, interpreter, op, args):
        return self.compute("ne", op, args)

    @impl(ttir.GreaterThanOp)
    def run_gt(self, interpreter, op, args):
        return self.compute("gt", op, args)

    @impl(ttir.GreaterEqualOp)
    def run_ge(self, interpreter, op, args):
        return self.compute("ge", op, args)

    @impl(ttir.LessThanOp)
    def run_lt(self, interpreter, op, args):
        return self.compute("lt", op, args)

    @impl(ttir.LessEqualOp)
    def run_le(self, interpreter, op, args):
        return self.compute("le", op, args)

    @impl(ttir.WhereOp)
    def run_where(self, interpreter, op, args):
        return self.compute("where", op, args)


class TTNNComputeImpls(InterpreterFunctions):
    """ttnn compute ops: each runs its kernel through `self.compute(kind, op, args)`."""

    @impl(ttnn.ExpOp)
    def run_exp(self, interpreter, op, args):
        return self.compute("exp", op, args)

    @impl(ttnn.LogOp)
    def run_log(self, interpreter, op, args):
        return self.compute("log", op, args)

    @impl(ttnn.ReluOp)
    def run_relu(self, interpreter, op, args):
        return self.compute("relu", op, args)

    @impl(ttnn.SigmoidOp)
    def run_sigmoid(self, interpreter, op, args):
        return self.compute("sigmoid", op, args)

    @impl(ttnn.TanhOp)
    def run_tanh(self, interpreter, op, args):
        return self.compute("tanh", op, args)

    @impl(ttnn.GeluOp)
    def run_gelu(self, interpreter, op, args):
        return self.compute("gelu", op, args)

    @impl(ttnn.NegOp)
    def run_neg(self, interpreter, op, args):
        return self.compute("neg", op, args)

    @impl(ttnn.SqrtOp)
    def run_sqrt(self, interpreter, op, args):
        return self.compute("sqrt", op, args)

    @impl(ttnn.AddOp)
    def run_add(self, interpreter, op, args):
        return self.compute("add", op, args)

    @impl(ttnn.SubtractOp)
    def run_subtract(self, interpreter, op, args):
        return self.compute("subtract", op, args)

    @impl(ttnn.MultiplyOp)
    def run_multiply(self, interpreter, op, args):
        return self.compute("multiply", op, args)

    @impl(ttnn.DivOp)
    def run_div(self, interpreter, op, args):
        return self.compute("div", op, args)

    @impl(ttnn.MaximumOp)
    def run_maximum(self, interpreter, op, args):
        return self.compute("maximum", op, args)

    @impl(ttnn.MinimumOp)
    def run_minimum(self, interpreter, op, args):
        return self.compute("minimum", op, args)

    @impl(ttnn.PowOp)
    def run_pow(self, interpreter, op, args):
        return self.compute("pow", op, args)

    @impl(ttnn.ErfOp)
    def run_erf(self, interpreter, op, args):
        return self.compute("erf", op, args)

    @impl(ttnn.MatmulOp)
    def run_matmul(self, interpreter, op, args):
        return self.compute("matmul", op, args)

    @impl(ttnn.TransposeOp)
    def run_transpose(self, interpreter, op, args):
        return self.compute("transpose", op, args)

    @impl(ttnn.PermuteOp)
    def run_permute(self, interpreter, op, args):
        return self.compute("permute", op, args)

    @impl(ttnn.ReshapeOp)
    def run_reshape(self, interpreter, op, args):
        return self.compute("reshape", op, args)

    @impl(ttnn.RepeatOp)
    def run_repeat(self, interpreter, op, args):
        return self.compute("repeat", op, args)

    @impl(ttnn.ConcatOp)
    def run_concat(self, interpreter, op, args):
        return self.compute("concat", op, args)

    @impl(ttnn.SumOp)
    def run_sum(self, interpreter, op, args):
        return self.compute("sum", op, args)

    @impl(ttnn.MeanOp)
    def run_mean(self, interpreter, op, args):
        return self.compute("mean", op, args)

    @impl(ttnn.MaxOp)
    def run_max(self, interpreter, op, args):
        return self.compute("max", op, args)

    @impl(ttnn.SoftmaxOp)
    def run_softmax(self, interpreter, op, args):
        return self.compute("softmax", op, args)

    @impl(ttnn.EmbeddingOp)
    def run_embedding(self, interpreter, op, args):
        return self.compute("embedding", op, args)

    @impl(ttnn.TypecastOp)
    def run_typecast(self, interpreter, op, args):
        return self.compute("typecast", op, args)

    @impl(ttnn.EqualOp)
    def run_eq(self, interpreter, op, args):
        return self.compute("eq", op, args)

    @impl(ttnn.NotEqualOp)
    def run_ne(self, interpreter, op, args):
        return self.compute("ne", op, args)

    @impl(ttnn.GreaterThanOp)
    def run_gt(self, interpreter, op, args):
        return self.compute("gt", op, args)

    @impl(ttnn.GreaterEqualOp)
    def run_ge(self, interpreter, op, args):
        return self.compute("ge", op, args)

    @impl(ttnn.LessThanOp)
    def run_lt(self, interpreter, op, args):
        return self.compute("lt", op, args)

    @impl(ttnn.LessEqualOp)
    def run_le(self, interpreter, op, args):
        return self.compute("le", op, args)

    @impl(ttnn.WhereOp)
    def run_where(self, interpreter, op, args):
        return self.compute("where", op, args)


# ----------------------------------------------------------------------------- collectives


def collective_impls(ops: dict):
    """A class decorator: one `@impl` for every op of `ops` (a dialect's `COLLECTIVE_OPS`, kind ->
    op class, derived from the collective registry), calling `self.collective(kind, op, args)`.
    So a new collective kind needs no line here (docs/contracts.md: four files)."""

    def run_kind(kind: str):
        def run(self, interpreter, op, args):
            return self.collective(kind, op, args)

        run.__name__ = f"run_{kind}"
        return run

    def add(cls):
        for kind, op in ops.items():
            setattr(cls, f"run_{kind}", impl(op)(run_kind(kind)))
        return cls

    return add


@collective_impls(ttir.COLLECTIVE_OPS)
class TTIRCollectiveImpls(InterpreterFunctions):
    """ttir collectives (`ttir.COLLECTIVE_OPS`): each runs through `self.collective(kind, op, args)`."""


@collective_impls(ttnn.COLLECTIVE_OPS)
class TTNNCollectiveImpls(InterpreterFunctions):
    """ttnn collectives (`ttnn.COLLECTIVE_OPS`): each runs through `self.collective(kind, op, args)`."""
