"""The link bytes ttir-auto-shard's cost model predicts for a program, for the sharded-op tests
that hold the prediction against what the simulator delivers."""

from __future__ import annotations

import meshc
from meshc.dialects.tt import module_device
from meshc.layout.mesh import Mesh
from meshc.passes.auto_shard import estimate
from meshc.passes.propagate_sharding import propagate_function
from meshc.passes.sharding_ir import function_specs


def predicted_bytes(text: str, mesh_shape: str) -> float:
    """The bytes ttir-auto-shard's cost model says the program's moves deliver, under the
    shardings ttir-propagate-sharding chooses (what the pipelines partition), on a T3K."""
    module = meshc.compile(text, f"tt-register-device{{system=t3k mesh-shape={mesh_shape}}}")
    f = next(o for o in module.walk() if o.name == "func.func")
    mesh = Mesh(tuple(module_device(module).mesh_shape))
    ins, outs = function_specs(f, mesh)
    return estimate(f, mesh, ins, outs, propagate_function(f, mesh)).link_bytes
