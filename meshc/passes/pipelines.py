"""The pipelines from ttir to each backend, with their options passed through.

`ttir-to-ttnn-pipeline{system=t3k mesh-shape=2,4}` = tt-register-device{...},
ttir-ttnn-result-shapes (results tt-mlir declares unlike TTNN's get TTNN's shape), inline (every
func.call replaced by its callee's body), ttir-propagate-sharding and ttir-partition (a global-view program becomes SPMD; an SPMD one is
left alone), reshard-to-collectives, ttir-decompose-ccl-reductions (ttnn only: max / min
collectives on all_gather and a max reduction), ttir-layout{...}, ttir-reinterpret-grid, convert-ttir-to-ttnn,
ttnn-optimize-memory (each device tensor's place chosen by modelled time within L1; left out
with `optimize-memory=false`, `spill-to-dram=false`, `memory-space=dram` or a `memory-layout`),
ttnn-check-l1{spill-to-dram=...} (`check-l1=false` leaves the L1 check out; by default it moves
tensors to DRAM interleaved until the program fits, `spill-to-dram=false` fails instead);
`ttir-to-ttmetal-pipeline{...}` ends with convert-ttir-to-ttmetal, ttmetal-optimize-memory (each
mesh buffer's place, on the same terms) and the same L1 check over the mesh buffers instead. Both keep the ttir program they lower as the
module's reference (meshc/dialects/reference.py), for `meshc-run --check` of the lowered file
alone, unless `keep-reference=false`; a reference whose program named no device is given the one
the pipeline registered (an SPMD program means something only on its mesh). Without `system`
a module that already carries `tt.device` keeps it (no tt-register-device step). A pipelined module
(`tt.devices`) is lowered stage by stage, each stage on its virtual device, values between stages
sent over the links (meshc/passes/pipeline_stages.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from meshc.dialects.reference import attach_reference, make_reference
from meshc.dialects.tt import DEVICES_ATTR, module_device, module_system, set_module_device
from meshc.passes.convert_ttir_to_ttmetal import ConvertTTIRToTTMetalPass
from meshc.passes.convert_ttir_to_ttnn import ConvertTTIRToTTNNPass
from meshc.passes.decompose_ccl_reductions import DecomposeCCLReductionsPass
from meshc.passes.decompose_selections import DecomposeSelectionsPass
from meshc.passes.decompose_ttmlir_ops import DecomposeTTMLIROpsPass
from meshc.passes.inline_calls import InlinePass
from meshc.passes.observe import run_pass
from meshc.passes.partition import PartitionPass
from meshc.passes.pipeline_stages import lower_stages
from meshc.passes.propagate_sharding import PropagateShardingPass
from meshc.passes.register_device import RegisterDevicePass
from meshc.passes.reshard_to_collectives import ReshardToCollectivesPass
from meshc.passes.refuse_storage import RefuseStoragePass
from meshc.passes.ttir_layout import TTIRLayoutPass
from meshc.passes.ttir_reinterpret_grid import TTIRReinterpretGridPass
from meshc.passes.ttmetal_optimize_memory import TTMetalOptimizeMemoryPass
from meshc.passes.ttnn_check_l1 import TTNNCheckL1Pass
from meshc.passes.ttnn_optimize_memory import TTNNOptimizeMemoryPass
from meshc.passes.ttnn_result_shapes import TTIRTTNNResultShapesPass, settle_shapes


@dataclass(frozen=True)
class _PipelineBase(ModulePass):
    system: str | None = None
    mesh_shape: tuple[int, ...] | None = None
    memory_space: str = "l1"
    memory_layout: str | None = None
    """sharded | interleaved; unset: sharded, but interleaved in DRAM on ttnn (`dram_layout`)."""
    tiled: bool = True
    reinterpret_grid: bool = True
    check_l1: bool = True
    spill_to_dram: bool = True
    optimize_memory: bool = True
    """run ttnn- / ttmetal-optimize-memory before the L1 check, unless the layouts were asked for
    (memory-space=dram, memory-layout=...) or the check is strict (spill-to-dram=false)."""
    keep_reference: bool = True

    def front(self, op: ModuleOp) -> list[ModulePass]:
        passes: list[ModulePass] = []
        if self.system is not None or self.mesh_shape is not None or module_device(op) is None:
            passes.append(RegisterDevicePass(self.system, self.mesh_shape))
        passes += [TTIRTTNNResultShapesPass(), InlinePass(), PropagateShardingPass(), PartitionPass(), ReshardToCollectivesPass()]
        if self.name == "ttir-to-ttnn-pipeline":  # TTNN's collectives reduce by sum only
            passes.append(DecomposeCCLReductionsPass())
        else:  # TTMetal has no cumsum / argmax / top_k kernel: the ops it has compute them
            passes += [DecomposeSelectionsPass(), DecomposeTTMLIROpsPass()]  # and no linear / mesh_partition
        layout = self.memory_layout or (self.dram_layout if self.memory_space == "dram" else "sharded")
        passes.append(TTIRLayoutPass(self.memory_space, layout, self.tiled))
        if self.reinterpret_grid:
            passes.append(TTIRReinterpretGridPass())
        return passes

    dram_layout = "sharded"
    """The layout of `memory-space=dram` when `memory-layout` is not given."""

    def backend(self) -> list[ModulePass]:
        raise NotImplementedError

    def optimizing(self) -> bool:
        """Whether the memory-layout optimizer runs: unless `optimize-memory=false`, the places were
        asked for (memory-space=dram, a memory-layout) or the L1 check is strict (spill-to-dram=false)."""
        chosen = self.memory_space != "l1" or self.memory_layout is not None or not self.spill_to_dram
        return self.optimize_memory and not chosen

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.name == "ttir-to-ttmetal-pipeline":
            RefuseStoragePass().apply(ctx, op)
        keep = self.keep_reference and any(o.dialect_name() == "ttir" for o in op.walk())
        ref = make_reference(op) if keep else None
        if DEVICES_ATTR in op.attributes:  # several virtual devices: stage by stage (pipeline_stages.py)
            lower_stages(ctx, op, self.front, self.backend(), run_pass,
                         self.system is not None or self.mesh_shape is not None)
        else:
            for p in [*self.front(op), *self.backend()]:
                run_pass(p, ctx, op)  # meshc-opt's per-pass dumps and timings see the passes inside
        if ref is not None:
            device = module_device(op)
            if module_device(ref) is None and device is not None:
                set_module_device(ref, device, module_system(op))
            settle_shapes(ref, warnings=False)  # the reference computes what the lowered module does
            attach_reference(op, ref)


@dataclass(frozen=True)
class TTIRToTTNNPipeline(_PipelineBase):
    """ttir -> TTNN's API level (ttnn ops on device tensors with #ttnn.ttnn_layout): the front passes
    (the device, sharding propagation and partitioning, reshards, layouts), convert-ttir-to-ttnn,
    then the compile-time check that every chip's L1 holds the program (ttnn-check-l1)."""

    name = "ttir-to-ttnn-pipeline"
    dram_layout = "interleaved"  # TTNN keeps DRAM tensors interleaved over the banks, whatever the grid
    reshard: bool = True
    """ttnn-optimize-memory's reshard phase (copies into the place one op reads fastest from)."""

    def backend(self) -> list[ModulePass]:
        check = [TTNNCheckL1Pass(self.spill_to_dram)] if self.check_l1 else []
        optimize = [TTNNOptimizeMemoryPass(self.reshard)] if self.optimizing() else []
        return [ConvertTTIRToTTNNPass(), *optimize, *check]


@dataclass(frozen=True)
class TTIRToTTMetalPipeline(_PipelineBase):
    """ttir -> TTMetal's level (mesh buffers, programs of kernels over core grids, enqueued reads
    and writes): the front passes of ttir-to-ttnn-pipeline, convert-ttir-to-ttmetal,
    ttmetal-optimize-memory (each mesh buffer's place, unless `optimizing()` says no), then the same
    compile-time L1 check as the ttnn pipeline's (ttnn-check-l1 over the mesh buffers, from
    create_buffer to deallocate_buffer; it refused over-L1 and huge tensors only at run time)."""

    name = "ttir-to-ttmetal-pipeline"

    def backend(self) -> list[ModulePass]:
        check = [TTNNCheckL1Pass(self.spill_to_dram)] if self.check_l1 else []
        optimize = [TTMetalOptimizeMemoryPass()] if self.optimizing() else []
        return [ConvertTTIRToTTMetalPass(), *optimize, *check]
