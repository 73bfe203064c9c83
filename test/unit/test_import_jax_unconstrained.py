"""Results JAX leaves unconstrained (`jax.jit` without out_shardings) against results it is told
to replicate or place, through both of JAX's export paths (Shardy, GSPMD with Shardy off) and
both backends: what the importer writes (`tt.unconstrained`, or the annotation), the sharding
each result leaves in, the link bytes (derived by hand below), and the values, equal to JAX's
byte for byte (integer-valued f32 data: every sum is exact in any order).

Skipped when jax is not installed (`pip install meshc[jax]`; the `test` extra installs it).
"""

from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=32")
jax = pytest.importorskip("jax")

from jax.sharding import NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402
from helpers_jax import from_jax_exported, mesh_2x4  # noqa: E402
from xdsl.dialects import func  # noqa: E402

import meshc  # noqa: E402
from meshc.passes.propagate_sharding import propagate_module  # noqa: E402
from meshc.passes.sharding_ir import UNCONSTRAINED  # noqa: E402

F32 = 4


def _inputs():
    rng = np.random.default_rng(3)
    x = rng.integers(-3, 4, (8, 16)).astype(np.float32)
    w = rng.integers(-3, 4, (16, 32)).astype(np.float32)
    return x, w


def _layer(x, w):
    return jax.numpy.maximum(x @ w, 0.0)


def _import(mesh, out_spec, shardy: bool):
    """The jit of `_layer` with x [x, -] and w [-, y] (the product is [x, y]), its result left
    unconstrained (`out_spec` None) or placed by `out_spec`; the imported module and the jit."""
    outs = None if out_spec is None else NamedSharding(mesh, out_spec)
    fn = jax.jit(_layer, in_shardings=(NamedSharding(mesh, P("x", None)), NamedSharding(mesh, P(None, "y"))),
                 out_shardings=outs)
    module = from_jax_exported(fn, _inputs(), mesh, shardy)
    return module, fn


def _result_attrs(module) -> dict:
    (entry,) = [op for op in module.body.ops if isinstance(op, func.FuncOp)]
    (attrs,) = entry.res_attrs.data
    return dict(attrs.data)


# (out_shardings, the mark the importer writes, the result's spec after propagation as meshc
# dims, link bytes). By hand: the product is [S0, S1], an 4 x 8 f32 piece (128 B) a chip.
# Replicating it gathers over y (a T3K row is a line of 4 chips: each piece crosses 3 links,
# 2 rows x 4 x 3 x 128 = 3,072 B) then over x (each chip receives the other row's 4 x 32 f32,
# 512 B, over one link: 8 x 512 = 4,096 B): 7,168 B. [x, y] as placed: nothing moves.
CASES = {
    "unconstrained": (None, UNCONSTRAINED, ((0,), (1,)), 0),
    "replicated": (P(), "tt.sharding", ((), ()), 2 * 4 * 3 * 128 + 8 * 512),
    "placed": (P("x", "y"), "tt.sharding", ((0,), (1,)), 0),
}


@pytest.mark.parametrize("shardy", [True, False], ids=["shardy", "gspmd"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_import_marks_only_what_jax_left_unconstrained(case, shardy):
    out_spec, key, dims, _ = CASES[case]
    module, _ = _import(mesh_2x4(), out_spec, shardy)
    attrs = _result_attrs(module)
    assert set(attrs) == {key}
    propagate_module(module)
    assert _result_attrs(module)["tt.sharding"].spec.dims == dims


@pytest.mark.parametrize("target", ["ttnn", "ttmetal"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_each_result_equals_jax_and_moves_its_derived_bytes(case, target):
    out_spec, _, _, link_bytes = CASES[case]
    module, fn = _import(mesh_2x4(), out_spec, shardy=True)
    x, w = _inputs()
    got = meshc.run(module, {"x": x, "w": w}, target=target)
    want = np.asarray(fn(x, w))
    assert got.outputs[0].dtype == want.dtype
    np.testing.assert_array_equal(got.outputs[0], want)
    assert got.traffic.link_bytes == link_bytes
    # the host reads the result's pieces: 8 chips' 4 x 8 f32 unconstrained or placed (each one
    # 32 x 32 tile in TTNN's tile layout), every chip's whole 8 x 32 (one tile) replicated
    assert sum(got.traffic.device_to_host.values()) == 8 * 32 * 32 * F32
