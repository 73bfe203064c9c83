"""An einsum contracting a sharded dim leaves partial sums and one all_reduce of its output,
instead of gathering both operands (issue 23).

`bqhd,bkhd->bqk` with the heads dim h split over the mesh's y axis (JAX's
`with_sharding_constraint(P(None, None, "y", None))`): the importer turns the dot_general into
reshapes to (b, q, K) x (b, K, k) with K = (h, d) merged, h major, so K stays split over y and
the matmul's sum factor gives partial sums over y (docs/propagation.md's matmul rule). The byte
counts are derived by hand below from the simulator's collective moves (docs/simulator.md) on a
T3K's 2x4 mesh, whose rows and columns are lines of links."""

from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

from jax.sharding import NamedSharding, PartitionSpec as P  # noqa: E402
from xdsl.dialects import func  # noqa: E402

import meshc  # noqa: E402
from meshc.passes.propagate_sharding import propagate_module  # noqa: E402
from meshc.passes.sharding_ir import chosen_specs  # noqa: E402

B, Q, H, D = 2, 16, 8, 16
F32 = 4


def _mesh():
    if len(jax.devices()) < 8:
        pytest.skip("needs 8 host devices (XLA_FLAGS set after jax started)")
    return jax.make_mesh((2, 4), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


def _scores(mesh):
    heads = NamedSharding(mesh, P(None, None, "y", None))

    def scores(q, k):
        q = jax.lax.with_sharding_constraint(q, heads)
        k = jax.lax.with_sharding_constraint(k, heads)
        return jnp.einsum("bqhd,bkhd->bqk", q, k)
    return scores


def _inputs():
    rng = np.random.default_rng(0)
    return (rng.standard_normal((B, Q, H, D)).astype(np.float32),
            rng.standard_normal((B, Q, H, D)).astype(np.float32))


def test_the_contraction_leaves_partial_sums_over_y():
    mesh = _mesh()
    module = meshc.from_jax(_scores(mesh), *_inputs(), mesh=mesh)
    assert propagate_module(module)
    (f,) = [op for op in module.walk() if isinstance(op, func.FuncOp)]
    (mm,) = [op for op in f.walk() if op.name == "ttir.matmul"]
    (spec,) = chosen_specs(mm)
    # K = (h, d) split over mesh axis 1 (y) on both operands: the output is whole on every
    # device (no dim split), a partial sum over y
    assert spec.dims == ((), (), ()) and spec.partial == (1,)


@pytest.mark.parametrize("target", ["ttnn", "ttmetal"])
def test_link_bytes_are_one_all_reduce_of_the_output(target):
    mesh = _mesh()
    q, k = _inputs()
    fn = _scores(mesh)
    module = meshc.from_jax(fn, q, k, mesh=mesh)
    got = meshc.run(module, {"q": q, "k": k}, target=target)
    np.testing.assert_allclose(got.outputs[0], np.einsum("bqhd,bkhd->bqk", q, k), rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(got.outputs[0], np.asarray(jax.jit(fn)(q, k)), rtol=1e-5, atol=1e-4)

    # By hand. The output b x q x k is 2 x 16 x 16 f32 = 2048 B, a partial sum over y on every
    # device; it is returned replicated. The cheapest reduction: each mesh row keeps its batch
    # (a slice over x, no bytes: 1024 B a device), all_reduce over y, all_gather over x.
    out = B * Q * Q * F32
    half = out // 2
    # all_reduce over a line of 4 chips (a mesh row) = reduce_scatter + all_gather of 4 pieces
    # of half / 4 = 256 B. reduce_scatter: piece j is reduced along chains from both ends
    # towards chip j, 3 hops for every j; all_gather on a line: every piece travels 3 hops
    piece = half // 4
    all_reduce = 2 * 4 * 3 * piece * 2          # both phases, 4 pieces, 3 hops, 2 mesh rows
    # all_gather over x: each of the 4 columns is a line of 2 chips; each sends its 1024 B half
    all_gather = 4 * 2 * half
    assert all_reduce == 12288 and all_gather == 8192
    assert got.traffic.link_bytes == all_reduce + all_gather == 20480

    # What gathering both operands moved before (the heads merged minor in K, so the reshape
    # needed h whole): each of q and k (2 x 16 x 8 x 16 f32 = 16384 B) all_gathered over y,
    # four 4096 B pieces travelling 3 hops on each of the 2 mesh rows
    gathered = 2 * (4 * 3 * (B * Q * H * D * F32 // 4) * 2)
    assert gathered == 196608 and got.traffic.link_bytes * 9 < gathered
