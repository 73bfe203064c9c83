"""Two StableHLO forms the model zoo's programs write (issue 23, item 5), imported with
meshc.from_jax on a 2x4 mesh with the operand split over both axes, lowered to TTNN and to
TTMetal, run on the simulator and compared with JAX's own output:

- `stablehlo.is_finite` (jax.nn.logsumexp guards its max with it): |x| < inf, on inputs holding
  inf, -inf and NaN;
- the gather of `jnp.take_along_axis(x, ids[..., None], axis)` (optax's cross-entropy picks the
  label's logit with it): a one-hot select summed over the dim, with a negative index (JAX wraps
  it) and one past the end (JAX's fill mode gives NaN there).

Skipped when jax is not installed (`pip install meshc[jax]`; the `test` extra installs it).
"""

import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
from jax.sharding import NamedSharding, PartitionSpec as P  # noqa: E402
from xdsl.dialects import func  # noqa: E402

import meshc  # noqa: E402


def _run(fn, xs, specs, target):
    if len(jax.devices()) < 8:
        pytest.skip("needs 8 host devices (XLA_FLAGS set after jax started)")
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
    jitted = jax.jit(fn, in_shardings=tuple(NamedSharding(mesh, P(*s)) for s in specs))
    module = meshc.from_jax(jitted, *xs, mesh=mesh)
    (f,) = [op for op in module.walk() if isinstance(op, func.FuncOp)]
    names = [a.name_hint for a in f.body.blocks.first.args]
    got = meshc.run(module, dict(zip(names, xs)), target=target)
    return got, np.asarray(jitted(*xs))


@pytest.mark.parametrize("target", ["ttnn", "ttmetal"])
def test_is_finite_and_logsumexp(target):
    x = np.random.default_rng(1).standard_normal((8, 16)).astype(np.float32)
    x[0, 3], x[5, 0], x[7, 15] = np.inf, -np.inf, np.nan
    got, want = _run(lambda x: jnp.where(jnp.isfinite(x), x, 7.0), [x], [("x", "y")], target)
    # by hand: the three non-finite entries become 7, the rest stay
    expect = x.copy()
    expect[0, 3] = expect[5, 0] = expect[7, 15] = 7.0
    np.testing.assert_array_equal(want, expect)
    np.testing.assert_array_equal(np.asarray(got.outputs[0]), expect)
    finite = np.where(np.isfinite(x), x, 0.0).astype(np.float32)
    got, want = _run(lambda x: jax.nn.logsumexp(x, axis=-1), [finite], [("x", "y")], target)
    np.testing.assert_allclose(np.asarray(got.outputs[0]), want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(want, np.log(np.exp(finite).sum(-1)), rtol=1e-5)


@pytest.mark.parametrize("target", ["ttnn", "ttmetal"])
@pytest.mark.parametrize("dtype", [np.float32, jnp.bfloat16])
def test_take_along_axis_over_a_split_dim(target, dtype):
    rng = np.random.default_rng(2)
    x = rng.standard_normal((8, 4, 16)).astype(np.float32).astype(dtype)
    ids = rng.integers(0, 16, (8, 4)).astype(np.int32)
    ids[1, 2], ids[6, 0] = -1, 16  # wraps to 15; past the end (NaN in JAX's fill mode)

    def pick(x, ids):
        return jnp.take_along_axis(x, ids[..., None], axis=-1)[..., 0]

    got, want = _run(pick, [x, ids], [("x", None, "y"), ("x", None)], target)
    # by hand: x[b, s, ids[b, s]], the negative index counted from the end, NaN past it
    rows = np.arange(8)[:, None], np.arange(4)[None, :]
    expect = np.asarray(x, np.float32)[rows[0], rows[1], ids % 16]
    expect[6, 0] = np.nan
    np.testing.assert_array_equal(np.asarray(want, np.float32), expect)
    np.testing.assert_array_equal(np.asarray(got.outputs[0], np.float32), expect)
