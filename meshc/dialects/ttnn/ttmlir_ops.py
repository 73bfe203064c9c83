"""tt-mlir's mesh_partition, update_cache and fill_cache in ttnn: the ttir ops of
meshc/dialects/ttir/ttmlir_ops.py under their ttnn names (TTNN's verifiers are TTIR's)."""

from __future__ import annotations

from xdsl.irdl import irdl_op_definition, traits_def
from xdsl.traits import NoMemoryEffect

from meshc.dialects.ttir import ttmlir_ops as ttir_ops


@irdl_op_definition
class MeshPartitionOp(ttir_ops.MeshPartitionBase):
    name = "ttnn.mesh_partition"
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class UpdateCacheOp(ttir_ops.UpdateCacheBase):
    name = "ttnn.update_cache"


@irdl_op_definition
class FillCacheOp(ttir_ops.FillCacheBase):
    name = "ttnn.fill_cache"


TTMLIR_OPS = (MeshPartitionOp, UpdateCacheOp, FillCacheOp)
"""These ops in ttnn, in the order of meshc.dialects.ttir.ttmlir_ops.TTMLIR_OPS."""
