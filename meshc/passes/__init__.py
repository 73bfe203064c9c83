"""meshc's passes (installed as `meshc.passes`), one pass a module, pipelines in pipelines.py.

`get_all_passes()` is the lazy registry the tools use: pass name -> pass class factory.
Each module listed in `_PASS_MODULES` defines the pass classes named beside it.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the registry's names are read without loading xDSL (meshc-opt --help lists them)
    from xdsl.passes import ModulePass

# pass name -> (module under meshc.passes, class name)
_PASSES: dict[str, tuple[str, str]] = {
    # device registration, layouts, lowering passes and pipelines
    "tt-register-device": ("register_device", "RegisterDevicePass"),
    "ttir-ttnn-result-shapes": ("ttnn_result_shapes", "TTIRTTNNResultShapesPass"),
    "inline": ("inline_calls", "InlinePass"),
    "ttir-layout": ("ttir_layout", "TTIRLayoutPass"),
    "ttir-reinterpret-grid": ("ttir_reinterpret_grid", "TTIRReinterpretGridPass"),
    "convert-ttir-to-ttnn": ("convert_ttir_to_ttnn", "ConvertTTIRToTTNNPass"),
    "convert-ttir-to-ttmetal": ("convert_ttir_to_ttmetal", "ConvertTTIRToTTMetalPass"),
    "ttir-to-ttnn-pipeline": ("pipelines", "TTIRToTTNNPipeline"),
    "ttir-to-ttmetal-pipeline": ("pipelines", "TTIRToTTMetalPipeline"),
    # resharding
    "reshard-to-collectives": ("reshard_to_collectives", "ReshardToCollectivesPass"),
    "ttir-decompose-ccl-reductions": ("decompose_ccl_reductions", "DecomposeCCLReductionsPass"),
    "ttir-decompose-selections": ("decompose_selections", "DecomposeSelectionsPass"),
    "ttir-decompose-ttmlir-ops": ("decompose_ttmlir_ops", "DecomposeTTMLIROpsPass"),
    # the compile-time L1 check
    "ttnn-check-l1": ("ttnn_check_l1", "TTNNCheckL1Pass"),
    "ttnn-optimize-memory": ("ttnn_optimize_memory", "TTNNOptimizeMemoryPass"),
    "ttmetal-optimize-memory": ("ttmetal_optimize_memory", "TTMetalOptimizeMemoryPass"),
    # global-view programs: sharding propagation, partitioning, the auto-sharder
    "ttir-propagate-sharding": ("propagate_sharding", "PropagateShardingPass"),
    "ttir-partition": ("partition", "PartitionPass"),
    "ttir-auto-shard": ("auto_shard", "AutoShardPass"),
    # pipeline parallelism: a chain of layers cut into stages on submeshes
    "ttir-split-stages": ("split_stages", "SplitStagesPass"),
}


def pass_names() -> list[str]:
    """Every registered pass name, sorted (no pass module is loaded)."""
    return sorted(_PASSES)


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    def factory(module: str, cls: str) -> Callable[[], type[ModulePass]]:
        return lambda: getattr(import_module(f"meshc.passes.{module}"), cls)

    return {name: factory(mod, cls) for name, (mod, cls) in _PASSES.items()}
