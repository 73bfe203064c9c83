"""The JAX-against-meshc harness of the importer's op tests: a 2x4 mesh of host devices, a jitted
function imported with `meshc.from_jax`, run by meshc on a target and by JAX on the CPU."""

from __future__ import annotations

import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

jax = pytest.importorskip("jax")
from jax.sharding import NamedSharding  # noqa: E402

import meshc  # noqa: E402
from xdsl.dialects import func  # noqa: E402


def mesh_2x4():
    """JAX's 2x4 mesh of axes x and y (skips the test without 8 host devices)."""
    if len(jax.devices()) < 8:
        pytest.skip("needs 8 host devices (XLA_FLAGS set after jax started)")
    return jax.make_mesh((2, 4), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


def from_jax_exported(fn, xs, mesh, shardy: bool):
    """`meshc.from_jax(fn, *xs, mesh=mesh)` with JAX exporting through Shardy (`shardy`) or GSPMD,
    the partitioner setting restored after."""
    old = jax.config.jax_use_shardy_partitioner
    jax.config.update("jax_use_shardy_partitioner", shardy)
    try:
        return meshc.from_jax(fn, *xs, mesh=mesh)
    finally:
        jax.config.update("jax_use_shardy_partitioner", old)


def run_against_jax(fn, xs, in_specs, out_spec, target):
    """The imported module, meshc's run of it on `target` (outputs, link bytes) and JAX's outputs,
    for inputs sharded by `in_specs` and the result by `out_spec` (a tuple: one a result) on the
    2x4 mesh."""
    mesh = mesh_2x4()
    outs = tuple(NamedSharding(mesh, o) for o in out_spec) if isinstance(out_spec, tuple) \
        else NamedSharding(mesh, out_spec)
    jitted = jax.jit(fn, in_shardings=tuple(NamedSharding(mesh, s) for s in in_specs), out_shardings=outs)
    module = meshc.from_jax(jitted, *xs, mesh=mesh)
    (f,) = [op for op in module.walk() if isinstance(op, func.FuncOp)]
    names = [a.name_hint for a in f.body.blocks.first.args]
    got = meshc.run(module, dict(zip(names, xs)), target=target)
    return module, got, [np.asarray(w) for w in jax.tree.leaves(jitted(*xs))]


def ttir_names(module) -> list[str]:
    """The names of the module's ttir ops, in order."""
    return [op.name for op in module.walk() if op.name.startswith("ttir.")]
