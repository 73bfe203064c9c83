"""jnp.min, jnp.amin and lax.reduce_min (a StableHLO reduce by `stablehlo.minimum` from its
identity, +inf or the largest integer) imported as ttir.min, written as JAX users write them, the
input split over a 2x4 mesh, run on TTNN and TTMetal and compared with JAX. A reduced dim split
over devices is partitioned as each device's minimum and a `reduce_type = min` all_reduce over the
splitting axes (meshc/passes/partition_select.py): only the minima cross the links.

Link bytes by hand on the T3K's 2x4 mesh (rows of 4 chips in a line, columns of 2): TTNN runs the
min all_reduce as ttir-decompose-ccl-reductions makes it, an all_gather of each device's B bytes
of minima, k devices in a line crossing k (k - 1) B of links; TTMetal as a ring all-reduce of the B
bytes, 2 (k - 1) B. A result JAX leaves replicated is then gathered over the axes still splitting
it: k (k - 1) x the piece.

Skipped when jax is not installed."""

import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
from jax import lax  # noqa: E402
from jax.sharding import NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import meshc  # noqa: E402
from xdsl.dialects import func  # noqa: E402

TARGETS = ["ttnn", "ttmetal"]
RNG = np.random.default_rng(2411)


def _run(fn, x, spec, target):
    """The imported module and meshc's run of `fn` on x split by `spec` over the 2x4 mesh, the
    result replicated (JAX's default)."""
    if len(jax.devices()) < 8:
        pytest.skip("needs 8 host devices (XLA_FLAGS set after jax started)")
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
    jitted = jax.jit(fn, in_shardings=(NamedSharding(mesh, spec),), out_shardings=NamedSharding(mesh, P()))
    module = meshc.from_jax(jitted, x, mesh=mesh)
    (f,) = [op for op in module.walk() if isinstance(op, func.FuncOp)]
    got = meshc.run(module, {f.body.blocks.first.args[0].name_hint: x}, target=target)
    return module, got


def _reductions(module) -> list[str]:
    return [op.name for op in module.walk() if op.name in ("ttir.min", "ttir.max", "ttir.neg")]


def _all_reduce(target: str, k: int, piece: int, groups: int) -> int:
    """The min all_reduce of `piece` bytes among k chips in a line, `groups` lines."""
    return groups * (k * (k - 1) if target == "ttnn" else 2 * (k - 1)) * piece


@pytest.mark.parametrize("target", TARGETS)
def test_min_over_a_split_dim_moves_the_minima_only(target):
    """jnp.min along dim 1 of x [x, y] 8x16 f32 (4x4 a device): each device's 4 row minima
    (16 B) all-reduced over its row of 4 (2 rows: TTNN 2 x 4 x 3 x 16 = 384 B, TTMetal 2 x 2 x 3
    x 16 = 192 B), then the result, split over x (4 rows a device), gathered over each column of
    2: 4 columns x 2 x 1 x 16 = 128 B. Gathering x first would move 4 KiB over the rows alone."""
    x = RNG.standard_normal((8, 16)).astype(np.float32)
    module, got = _run(lambda x: jnp.min(x, axis=1), x, P("x", "y"), target)
    assert _reductions(module) == ["ttir.min"]
    lowered = [op for op in meshc.compile(module.clone(), f"ttir-to-{target}-pipeline").walk()]
    if target == "ttnn":
        assert "ttnn.min" in {op.name for op in lowered}
    else:  # a kernel reducing its block by TT-Metal's reduce min
        assert any(op.name == "ttmetal.tile_reduce" and op.op.data == "min" for op in lowered)
    np.testing.assert_array_equal(got.outputs[0], np.min(x, axis=1))
    assert got.traffic.link_bytes == _all_reduce(target, 4, 16, 2) + 4 * 2 * 1 * 16
    assert got.traffic.link_bytes == {"ttnn": 512, "ttmetal": 320}[target]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("spelling", ["jnp.amin", "lax.reduce_min"])
def test_amin_and_reduce_min_over_both_split_dims(target, spelling):
    """jnp.amin and lax.reduce_min over both dims of x [x, y] 8x16 f32 (ties at the minimum on two
    devices): one ttir.min; each device's minimum (4 B) all-reduced over x (4 columns of 2) then
    over y (2 rows of 4). TTNN: 4 x 2 x 1 x 4 + 2 x 4 x 3 x 4 = 32 + 96 = 128 B. TTMetal pads the
    4 B to one element a chip of the group (8 B over 2, 16 B over 4): 4 x 2 x 1 x 8 + 2 x 2 x 3 x
    16 = 64 + 192 = 256 B."""
    x = np.round(RNG.standard_normal((8, 16)), 1).astype(np.float32)
    x[1, 2] = x[6, 13] = -7.0
    fn = (lambda x: jnp.amin(x)) if spelling == "jnp.amin" else (lambda x: lax.reduce_min(x, (0, 1)))
    module, got = _run(fn, x, P("x", "y"), target)
    assert _reductions(module) == ["ttir.min"]
    assert got.outputs[0].shape == () and float(got.outputs[0]) == -7.0
    assert got.traffic.link_bytes == {"ttnn": 32 + 96, "ttmetal": 64 + 192}[target]


@pytest.mark.parametrize("target", TARGETS)
def test_min_propagates_nan_as_jax(target):
    """A NaN among the reduced elements is the minimum, as jnp.min on one device (and np.min):
    row 1's NaN on device y=1, row 5's beside a -inf on another device, row 6 -inf alone. The
    all_reduce carries it (TTNN's gather-and-max of the negated minima and TTMetal's CCL min
    both keep a NaN). JAX's own CPU run of the sharded program drops the NaN in its cross-device
    min, so the reference is JAX on one device."""
    x = RNG.standard_normal((8, 16)).astype(np.float32)
    x[1, 5] = np.nan
    x[5, 2], x[5, 14] = -np.inf, np.nan
    x[6, 9] = -np.inf
    module, got = _run(lambda x: jnp.min(x, axis=1), x, P("x", "y"), target)
    want = np.asarray(jax.jit(lambda x: jnp.min(x, axis=1))(x))
    np.testing.assert_array_equal(got.outputs[0], want)
    assert np.isnan(got.outputs[0][[1, 5]]).all() and got.outputs[0][6] == -np.inf


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dtype, size", [("int32", 4), ("bfloat16", 2)])
def test_integer_and_bf16_min_over_a_split_dim(target, dtype, size):
    """jnp.min along dim 0 of x [x, y] 8x16 in i32 (JAX starts it from 2**31 - 1; values over the
    whole range, the smallest i32 in one column) or bf16 (from +inf): exact against JAX. Each
    device's 4 column minima (4 x size B) all-reduced over each column of 2 (4 columns: TTNN 4 x 2
    x 1 x 4 size, TTMetal 4 x 2 x 1 x 4 size), then gathered over each row of 4 (2 rows: 2 x 4 x
    3 x 4 size)."""
    if dtype == "int32":
        x = RNG.integers(-(2 ** 31), 2 ** 31 - 1, (8, 16), dtype=np.int64).astype(np.int32)
        x[7, 3] = -(2 ** 31)
    else:
        x = RNG.standard_normal((8, 16)).astype(jnp.bfloat16)
    module, got = _run(lambda x: jnp.min(x, axis=0), x, P("x", "y"), target)
    assert _reductions(module) == ["ttir.min"]
    want = np.min(x, axis=0)
    np.testing.assert_array_equal(got.outputs[0], want)
    piece = 4 * size
    assert got.traffic.link_bytes == _all_reduce(target, 2, piece, 4) + 2 * 4 * 3 * piece
