"""The op families every interpreter of meshc implements: one `@impl` an op, in one class a
family and dialect, each naming the kernel or collective kind the op runs.

- `TTIRComputeImpls` / `TTNNComputeImpls`: the compute ops, one `@impl` an op of the dialect's
  `COMPUTE_OPS` (kind -> op, made from the compute-op registry meshc.layout.compute_ops), each
  calling `self.compute(kind, op, args)` with its kernel kind (meshc/sim/compute.py runs the
  registry's meaning); the golden interpreter runs the kernel on numpy, the simulator on every
  device's buffers.
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


def _family_impls(kinds, method: str):
    """A class decorator: for each (kind, op class) of `kinds` one `@impl` of the op calling
    `self.<method>(kind, op, args)`."""

    def run_kind(kind: str):
        def run(self, interpreter, op, args):
            return getattr(self, method)(kind, op, args)

        run.__name__ = f"run_{kind}"
        return run

    def add(cls):
        for kind, op in kinds:
            setattr(cls, f"run_{kind}", impl(op)(run_kind(kind)))
        return cls

    return add


def compute_impls(ops: dict):
    """A class decorator: one `@impl` for every op of `ops` (a dialect's `COMPUTE_OPS`, registry
    kind -> op class, made from the compute-op registry), calling `self.compute(kind, op, args)`
    with the kind the op's name gives (ttnn.repeat runs `repeat`). So a new compute op needs no
    line here."""
    return _family_impls([(op.name.split(".", 1)[1], op) for op in ops.values()], "compute")


@compute_impls(ttir.COMPUTE_OPS)
class TTIRComputeImpls(InterpreterFunctions):
    """ttir compute ops (`ttir.COMPUTE_OPS`): each runs its kernel through `self.compute(kind, op, args)`."""


@compute_impls(ttnn.COMPUTE_OPS)
class TTNNComputeImpls(InterpreterFunctions):
    """ttnn compute ops (`ttnn.COMPUTE_OPS`): each runs its kernel through `self.compute(kind, op, args)`."""


# ----------------------------------------------------------------------------- collectives


def collective_impls(ops: dict):
    """A class decorator: one `@impl` for every op of `ops` (a dialect's `COLLECTIVE_OPS`, kind ->
    op class, derived from the collective registry), calling `self.collective(kind, op, args)`.
    So a new collective kind needs no line here (docs/contracts.md: four files)."""
    return _family_impls(list(ops.items()), "collective")


@collective_impls(ttir.COLLECTIVE_OPS)
class TTIRCollectiveImpls(InterpreterFunctions):
    """ttir collectives (`ttir.COLLECTIVE_OPS`): each runs through `self.collective(kind, op, args)`."""


@collective_impls(ttnn.COLLECTIVE_OPS)
class TTNNCollectiveImpls(InterpreterFunctions):
    """ttnn collectives (`ttnn.COLLECTIVE_OPS`): each runs through `self.collective(kind, op, args)`."""
