"""Run one zoo case: a model of examples/zoo on a 2x4 or 8x4 mesh, in f32 or bf16, through the
ttnn or the ttmetal pipeline.

`run_case` builds the model's JAX function on a JAX mesh of CPU devices with its in_specs, runs it
on JAX (the reference), imports it with `meshc.from_jax`, lowers it with `meshc.lower` (the
ttir-to-<backend>-pipeline on the system from_jax registers: a T3K for 2x4, a Galaxy for 8x4),
runs the lowered module on the simulator with `meshc.run` and returns what it measured. The
jit has no out_shardings (as its users write it): each result leaves the devices in the sharding
propagation gives it (`tt.unconstrained`, docs/propagation.md), the host reading its pieces.
`check` asserts the case matches JAX: f32 within 1e-4 (relative and absolute), bf16 within the
bf16 tolerance below, every output finite where JAX's is. JAX needs as many CPU devices as the
mesh has: set XLA_FLAGS=--xla_force_host_platform_device_count=32 before jax is imported.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import lru_cache

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding
from xdsl.dialects import func

import meshc
from meshc.dialects.tt import module_device

from examples.zoo import MODELS

MESHES = {"2x4": (2, 4), "8x4": (8, 4)}
BACKENDS = ("ttnn", "ttmetal")
DTYPES = {"f32": np.float32, "bf16": jnp.bfloat16}
TOLERANCE = {"f32": (1e-4, 1e-4), "bf16": (2 ** -5, 2 ** -5)}
"""(rtol, atol) a dtype; atol is scaled by the largest |JAX output| when that is over 1. bf16
keeps 8 significant bits: a relative 2 ** -8 an op's rounding; a block of a few dozen ops, whose
outputs JAX and meshc each round to bf16 at different points, stays within a few such steps of
the result's scale."""


@dataclass
class CaseResult:
    model: str
    mesh: str
    backend: str
    dtype: str
    ops: int
    """Ops the lowered module ran on the simulator."""
    link_bytes: int
    """Bytes over the ethernet links between chips."""
    sim_time: float
    """Seconds, the simulator's time estimate."""
    compile_time: float
    """Wall seconds of meshc.from_jax (JAX's own trace and lowering to StableHLO, then meshc's import)
    plus the lowering pipeline."""
    max_error: float
    """Largest |meshc - JAX| over every output element (in f32)."""
    link_bytes_by_op: dict = field(default_factory=dict, repr=False)
    """Link bytes by the name of the op that moved them (ttnn.all_reduce, ttmetal.enqueue_ccl, ...)."""
    outputs: list = field(default_factory=list, repr=False)
    expected: list = field(default_factory=list, repr=False)
    device_to_host_bytes: int = 0
    """Bytes the host read from the devices (the results' pieces, over PCIe), not link bytes."""


def jax_mesh(shape: tuple[int, int]):
    """A JAX mesh of CPU devices with the zoo's axis names."""
    if len(jax.devices()) < shape[0] * shape[1]:
        raise RuntimeError(f"a {shape[0]}x{shape[1]} mesh needs {shape[0] * shape[1]} JAX devices, "
                           f"JAX has {len(jax.devices())}: set XLA_FLAGS="
                           f"--xla_force_host_platform_device_count=32 before importing jax")
    devices = np.asarray(jax.devices()[: shape[0] * shape[1]]).reshape(shape)
    return jax.sharding.Mesh(devices, ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


@lru_cache(maxsize=None)
def reference(model: str, mesh: str, dtype: str):
    """The JAX side of a case, shared by both backends: the JAX mesh, the jitted function with
    its input shardings, the example arguments and JAX's outputs (run on the CPU devices)."""
    module_of = MODELS[model]
    shape = MESHES[mesh]
    jmesh = jax_mesh(shape)
    args = module_of.example_inputs(DTYPES[dtype])
    shardings = tuple(NamedSharding(jmesh, s) for s in module_of.in_specs(shape))
    fn = jax.jit(module_of.model(jmesh), in_shardings=shardings)
    return jmesh, fn, args, tuple(np.asarray(w) for w in jax.tree_util.tree_leaves(fn(*args)))


def run_case(model: str, mesh: str, backend: str, dtype: str) -> CaseResult:
    """Run one case and measure it (raises meshc's DiagnosticError when a step refuses it)."""
    jmesh, fn, args, want = reference(model, mesh, dtype)
    start = time.perf_counter()
    ttir = meshc.from_jax(fn, *args, mesh=jmesh)
    lowered = meshc.lower(ttir, target=backend)
    compile_time = time.perf_counter() - start
    entry = next(op for op in ttir.body.ops if isinstance(op, func.FuncOp))  # the one meshc.run runs
    names = [a.name_hint for a in entry.body.blocks.first.args]
    got = meshc.run(lowered, dict(zip(names, jax.tree_util.tree_leaves(args))), target=backend,
                    source_device=module_device(ttir))
    outputs = [np.asarray(o, dtype=np.float32) for o in got.outputs]
    expected = [np.asarray(w, dtype=np.float32) for w in want]
    errors = [float(np.max(np.abs(o - w), initial=0.0)) for o, w in zip(outputs, expected) if o.shape == w.shape]
    by_op: dict[str, int] = {}
    for o in got.ops:
        if o.traffic.link_bytes:
            by_op[o.name] = by_op.get(o.name, 0) + o.traffic.link_bytes
    return CaseResult(model, mesh, backend, dtype, len(got.ops), got.traffic.link_bytes, got.time_estimate,
                      compile_time, max(errors, default=float("nan")), by_op, outputs, expected,
                      sum(got.traffic.device_to_host.values()))


def compile_seconds(model: str, mesh: str, backend: str, dtype: str) -> float:
    """Wall seconds of one more meshc.from_jax + lowering of the case (bench/zoo.py repeats it)."""
    jmesh, fn, args, _ = reference(model, mesh, dtype)
    start = time.perf_counter()
    meshc.lower(meshc.from_jax(fn, *args, mesh=jmesh), target=backend)
    return time.perf_counter() - start


def check(result: CaseResult) -> None:
    """Assert the case matches JAX: same shapes, within the dtype's tolerance, no NaN or inf
    where JAX's output is finite."""
    rtol, atol = TOLERANCE[result.dtype]
    assert len(result.outputs) == len(result.expected), (len(result.outputs), len(result.expected))
    for got, want in zip(result.outputs, result.expected):
        assert got.shape == want.shape, (got.shape, want.shape)
        finite = np.isfinite(want)
        assert np.isfinite(got[finite]).all(), "meshc gives NaN or inf where JAX's output is finite"
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol * max(1.0, float(np.abs(want).max(initial=0))),
                                   err_msg=f"{result.model} {result.mesh} {result.backend} {result.dtype}")
