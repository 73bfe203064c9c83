"""Running sums and products as JAX users write them (`jnp.cumprod`, `lax.cumprod(reverse=True)`,
`lax.cumsum(reverse=True)`), lowered by JAX with the input split over a 2x4 mesh along the
scanned dim, imported with meshc.from_jax (a reduce_window over the whole prefix or suffix:
ttir.cumsum / ttir.cumprod, `reverse` for a suffix), partitioned as a local scan and the pieces'
totals (meshc/passes/partition_select.py), run on TTNN and TTMetal and compared with JAX's own
output; link bytes by hand. Skipped when jax is not installed (the `test` extra installs it).
"""

import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
from jax.sharding import NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import meshc  # noqa: E402
from meshc.errors import DiagnosticError  # noqa: E402

TARGETS = ["ttnn", "ttmetal"]
RNG = np.random.default_rng(37)

# x 8x16 split [x, y] (4x4 a device), scanned along dim 1 (split over y): each device's 4 row
# totals (4 x 4 B = 16 B) reach its 3 y-neighbours, 8 devices x 3 x 16 B = 384 B; the result
# leaves [x, y] where it lies. Along dim 0 (split over x): 1 neighbour, 8 x 1 x 16 = 128 B.
ALONG_Y, ALONG_X = 8 * 3 * 16, 8 * 1 * 16


def _run(fn, x, target):
    if len(jax.devices()) < 8:
        pytest.skip("needs 8 host devices (XLA_FLAGS set after jax started)")
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
    split = NamedSharding(mesh, P("x", "y"))
    jitted = jax.jit(fn, in_shardings=(split,), out_shardings=split)
    module = meshc.from_jax(jitted, x, mesh=mesh)
    names = [op.name for op in module.walk() if op.name.startswith("ttir.")]
    return names, meshc.run(module, {"x": x}, target=target), np.asarray(jitted(x))


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("reverse", [False, True])
def test_cumprod_over_a_split_dim_matches_jax(target, reverse):
    """jnp.cumprod / lax.cumprod(reverse=True) of f32 values near 1 along dim 1: ttir.cumprod,
    each device's product scaled by the earlier (later) pieces' products, within f32 rounding of
    JAX's sequential product."""
    x = (1.0 + 0.1 * RNG.standard_normal((8, 16))).astype(np.float32)
    names, got, want = _run(lambda x: jax.lax.cumprod(x, axis=1, reverse=reverse), x, target)
    assert "ttir.cumprod" in names and "ttir.matmul" not in names
    np.testing.assert_allclose(got.outputs[0], want, rtol=2e-6)
    assert got.traffic.link_bytes == ALONG_Y


@pytest.mark.parametrize("target", TARGETS)
def test_integer_cumprod_along_each_split_dim_is_exact(target):
    """jnp.cumprod of i32 in [-3, 3] along dim 1 (split over y) and dim 0 (split over x): exact,
    as JAX (products of integers wrap alike in any order; these stay below 2**31 anyway: at most
    3**16)."""
    x = RNG.integers(-3, 4, (8, 16)).astype(np.int32)
    names, got, want = _run(lambda x: jnp.cumprod(x, axis=1), x, target)
    np.testing.assert_array_equal(got.outputs[0], want)
    assert got.traffic.link_bytes == ALONG_Y
    names, got, want = _run(lambda x: jnp.cumprod(x, axis=0), x, target)
    np.testing.assert_array_equal(got.outputs[0], want)
    assert got.traffic.link_bytes == ALONG_X


@pytest.mark.parametrize("target", TARGETS)
def test_reverse_integer_cumsum_is_exact(target):
    """lax.cumsum(x, axis=1, reverse=True) of i32: the suffix of the totals, exact as JAX."""
    x = RNG.integers(-50, 50, (8, 16)).astype(np.int32)
    names, got, want = _run(lambda x: jax.lax.cumsum(x, axis=1, reverse=True), x, target)
    assert "ttir.cumsum" in names
    np.testing.assert_array_equal(got.outputs[0], want)
    assert got.traffic.link_bytes == ALONG_Y


@pytest.mark.parametrize("target", TARGETS)
def test_a_scan_between_two_reverses_is_a_reverse_scan(target):
    """jnp.cumsum(x[:, ::-1], axis=1)[:, ::-1] (a reverse, the scan in JAX's private function, a
    reverse) and jnp.flip(jnp.cumprod(jnp.flip(x, 0), axis=0), 0): one ttir.cumsum / cumprod with
    reverse each, no reverse of the split tensor (which would move every piece across the mesh):
    the same 384 B / 128 B as the scans themselves, exact on small integers as JAX."""
    x = RNG.integers(-4, 5, (8, 16)).astype(np.float32)
    names, got, want = _run(lambda x: jnp.cumsum(x[:, ::-1], axis=1)[:, ::-1], x, target)
    assert names == ["ttir.cumsum"]
    np.testing.assert_array_equal(got.outputs[0], want)
    assert got.traffic.link_bytes == ALONG_Y
    x = RNG.integers(-2, 3, (8, 16)).astype(np.float32)
    names, got, want = _run(lambda x: jnp.flip(jnp.cumprod(jnp.flip(x, 0), axis=0), 0), x, target)
    assert names == ["ttir.cumprod"]
    np.testing.assert_array_equal(got.outputs[0], want)
    assert got.traffic.link_bytes == ALONG_X


def test_a_reverse_read_by_another_op_is_refused_at_the_reverse():
    """jnp.flip(x, 1) * 2: a reverse of a computed tensor that no scan or reverse undoes."""
    with pytest.raises(DiagnosticError) as e:
        meshc.from_jax(lambda x: jnp.flip(x, 1) * 2.0, np.ones((8, 16), np.float32))
    assert "'stablehlo.reverse' op reverses dims [1] of a tensor computed when the program runs" in str(e.value)
    assert "around a cumsum or cumprod along the same dim" in str(e.value)
