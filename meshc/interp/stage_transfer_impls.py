"""The simulators' implementations of the transfers between pipeline stages
(`ttnn.pipeline_transfer`, `ttmetal.enqueue_transfer`). A transfer needs the machines of both
stages: the interpreter of a stage runs it through `stages` (meshc.interp.pipeline_run's
StageMachines, which a pipelined run gives each stage's functions); an interpreter over one machine
has none and refuses the op, located."""

from __future__ import annotations

from xdsl.interpreter import InterpreterFunctions, impl

from meshc.dialects import ttmetal, ttnn
from meshc.errors import LocatedError


class _StageTransfer(InterpreterFunctions):
    stages = None
    """The StageMachines of a pipelined run (set by meshc.interp.pipeline_run.simulate)."""

    def send(self, op, value):
        if self.stages is None:
            raise LocatedError(f"'{op.name}' sends a value between pipeline stages, which needs the machines of a "
                               "pipelined module's devices (tt.devices); this run has one machine", op)
        return (self.stages.transfer(op, value),)


class TTNNStageTransferImpls(_StageTransfer):
    @impl(ttnn.PipelineTransferOp)
    def run_pipeline_transfer(self, interpreter, op, args):
        return self.send(op, args[0])


class TTMetalStageTransferImpls(_StageTransfer):
    @impl(ttmetal.EnqueueTransferOp)
    def run_enqueue_transfer(self, interpreter, op, args):
        return self.send(op, args[0])
