"""JAX programs through both backends (issue 23, items 2 and 3): what JAX writes for a bias add,
attention's head split, reductions that drop their dims, batched matmuls, scalars, boolean masks and
ops on a shard_map's results, imported with meshc.from_jax, lowered to TTNN and to TTMetal, run on
the simulator and compared with JAX's own output.

Skipped when jax is not installed (`pip install meshc[jax]`; the `test` extra installs it).
"""

import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=4")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

import meshc  # noqa: E402

RNG = np.random.default_rng(23)
TARGETS = ("ttnn", "ttmetal")


def _randn(*shape):
    return (RNG.standard_normal(shape) * 0.5).astype(np.float32)


def _mesh():
    return jax.make_mesh((2, 2), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


def _sharded(fn, mesh, *specs):
    from jax.sharding import NamedSharding, PartitionSpec as P

    return jax.jit(fn, in_shardings=tuple(NamedSharding(mesh, P(*s)) for s in specs))


def _matches_jax(fn, *args, mesh=None, atol=1e-4):
    """Import `fn`, run it on both backends and compare every result with JAX's; the results."""
    want = jax.jit(fn)(*args) if not hasattr(fn, "lower") else fn(*args)
    want = [np.asarray(w) for w in (want if isinstance(want, tuple) else (want,))]
    runs = {}
    for target in TARGETS:
        module = meshc.from_jax(fn, *args, mesh=mesh)
        got = meshc.run(module, {f"arg{i}": a for i, a in enumerate(args)}, target=target)
        for g, w in zip(got.outputs, want):
            assert np.shape(g) == w.shape, (target, np.shape(g), w.shape)
            np.testing.assert_allclose(g, w, rtol=1e-4, atol=atol, err_msg=target)
        runs[target] = got
    return runs


def test_bias_add_reshape_and_broadcast():
    """x @ w + b: JAX reshapes the bias to 1x128 and broadcasts it; on one device and on a 2x2 mesh
    with the bias split over y."""
    x, w, b = _randn(32, 64), _randn(64, 128), _randn(128)
    _matches_jax(lambda x, w, b: jnp.maximum(x @ w + b, 0.0), x, w, b)
    mesh = _mesh()
    f = _sharded(lambda x, w, b: x @ w + b, mesh, ("x", None), (None, "y"), ("y",))
    _matches_jax(f, x, w, b, mesh=mesh)


def test_attention_heads_split_and_merge():
    """(b, s, d) -> (b, s, h, dh) -> (b, h, s, dh), scores, and back: reshape, permute and batched
    matmuls with both operands batched (one transposed)."""
    def attend(x, wq, wk):
        bsz, s, d = x.shape
        q = (x @ wq).reshape(bsz, s, 2, d // 2).transpose(0, 2, 1, 3)
        k = (x @ wk).reshape(bsz, s, 2, d // 2).transpose(0, 2, 1, 3)
        att = jax.nn.softmax(jnp.einsum("bhqd,bhkd->bhqk", q, k), axis=-1)
        return jnp.einsum("bhqk,bhkd->bhqd", att, q).transpose(0, 2, 1, 3).reshape(bsz, s, d)

    _matches_jax(attend, _randn(2, 32, 64), _randn(64, 64), _randn(64, 64))


@pytest.mark.parametrize("name, fn, shape", [
    ("sum last", lambda x: jnp.sum(x, axis=-1), (32, 64)),
    ("max axis 1", lambda x: jnp.max(x, axis=1), (32, 64)),
    ("sum axis 0", lambda x: jnp.sum(x, axis=0), (32, 64)),
    ("mean last 3-d", lambda x: jnp.mean(x, axis=-1), (4, 32, 64)),
    ("mean middle", lambda x: jnp.mean(x, axis=1), (4, 32, 64)),
    ("max two dims", lambda x: jnp.max(x, axis=(0, 2)), (4, 32, 64)),
    ("mean all", lambda x: jnp.mean(x), (32, 64)),
], ids=lambda v: v if isinstance(v, str) else "")
def test_reductions_that_drop_their_dims(name, fn, shape):
    _matches_jax(fn, _randn(*shape))


def test_scalar_results_come_back_0d():
    """jnp.mean(loss) on one device and of a tensor split over both mesh axes: a one-element
    tensor on the devices, a 0-d array back (the mesh mean's partial sums all-reduced)."""
    x = _randn(32, 64)
    runs = _matches_jax(lambda x: jnp.mean((x - 1.0) ** 2), x)
    assert all(np.ndim(r.outputs[0]) == 0 for r in runs.values())
    mesh = _mesh()
    runs = _matches_jax(_sharded(lambda x: jnp.mean(x * x), mesh, ("x", "y")), x, mesh=mesh)
    assert all(np.ndim(r.outputs[0]) == 0 for r in runs.values())


def test_causal_mask():
    """jnp.tril(jnp.ones((S, S), bool)) masking attention scores: the mask is a bf16 1 / 0 tensor
    on the devices; the masked softmax matches JAX (its -1e9 entries give exact zeros)."""
    s = 32

    def masked(q, k):
        scores = q @ k.T
        mask = jnp.tril(jnp.ones((s, s), bool))
        return jax.nn.softmax(jnp.where(mask, scores, -1e9), axis=-1)

    runs = _matches_jax(masked, _randn(s, 64), _randn(s, 64))
    # the upper triangle is masked out: exactly 0 after the softmax, by hand
    upper = np.triu(np.ones((s, s), bool), 1)
    assert all(np.all(np.asarray(r.outputs[0])[upper] == 0) for r in runs.values())
    module = meshc.from_jax(masked, _randn(s, 64), _randn(s, 64))
    assert "bf16" in str(module)


def test_boolean_reductions_and_bounds_checks():
    """jnp.all of a bounds check (a reduce with an `and` body) and jnp.any (an `or` body) as
    masks, with indices chosen so that some rows are out of bounds and some values are large."""
    idx = np.array([[0, 5, 63, 7]] * 24 + [[0, 64, 3, 1], [-1, 2, 3, 4]] * 4, dtype=np.int32)
    x = _randn(32, 64)
    x[3, 10] = 5.0

    def masks(x, i):
        ok = jnp.all((i >= 0) & (i < 64), axis=-1, keepdims=True)
        big = jnp.any(x > 2.0, axis=-1, keepdims=True)
        return jnp.where(ok & ~big, x, 0.0)

    runs = _matches_jax(masks, x, idx)
    # rows 24..31 have an index out of [0, 64), row 3 a value over 2: zero; row 0 kept (by hand)
    for r in runs.values():
        out = np.asarray(r.outputs[0])
        assert np.all(out[24:] == 0) and np.all(out[3] == 0)
        np.testing.assert_allclose(out[0], x[0], rtol=1e-6)


def test_op_on_a_shard_map_result_is_a_counted_host_round_trip_on_ttmetal():
    """tanh of a shard_map's psum: TTMetal reads the result back whole and writes it to every
    device again, a host transfer the simulator counts: 64x32 f32 = 8192 B to each of 4 devices."""
    from jax.sharding import PartitionSpec as P

    mesh = _mesh()
    sm = jax.shard_map(lambda a: jax.lax.psum(a * 2.0, "y"), mesh=mesh, in_specs=P("x", "y"),
                       out_specs=P("x", None), check_vma=False)
    runs = _matches_jax(jax.jit(lambda a: jnp.tanh(sm(a)) + 1.0), _randn(64, 64), mesh=mesh)
    metal = runs["ttmetal"]
    writes = [o for o in metal.ops if o.name == "ttmetal.enqueue_write_buffer"]
    assert len(writes) == 2  # the argument, and the shard_map's result going back
    assert sum(writes[1].traffic.host_to_device.values()) == 4 * 64 * 32 * 4
