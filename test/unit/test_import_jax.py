"""meshc.from_jax: JAX programs lowered by JAX itself, imported, run on the simulator and compared
with JAX's own output for the same inputs; shardings read from Shardy and GSPMD alike.

Skipped when jax is not installed (`pip install meshc[jax]`; the `test` extra installs it).
"""

import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=4")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

import meshc  # noqa: E402
from helpers_jax import from_jax_exported  # noqa: E402
from meshc.errors import DiagnosticError  # noqa: E402
from meshc.dialects.tt import ShardingAttr  # noqa: E402
from meshc.importers.source import op_name  # noqa: E402
from meshc.layout.mesh import Mesh, ShardingSpec  # noqa: E402
from meshc.layout.sharding_spec import parse_spec  # noqa: E402
from xdsl.dialects import func  # noqa: E402

RNG = np.random.default_rng(7)


def _randn(*shape, scale=0.3):
    return (RNG.standard_normal(shape) * scale).astype(np.float32)


def _run_both(fn, *args, rtol=1e-4, atol=1e-5):
    module = meshc.from_jax(fn, *args)
    got = meshc.run(module, {f"arg{i}": a for i, a in enumerate(args)})
    want = np.asarray(jax.jit(fn)(*args))
    np.testing.assert_allclose(got.outputs[0], want, rtol=rtol, atol=atol)
    return module


def _ops(module) -> set[str]:
    return {op.name for op in module.walk()}


def test_mlp_runs_and_matches_jax():
    x, w1, b1, w2 = _randn(32, 64), _randn(64, 128), _randn(128), _randn(128, 32)
    module = _run_both(lambda x, w1, b1, w2: jnp.tanh(jnp.maximum(x @ w1 + b1, 0.0) @ w2), x, w1, b1, w2)
    assert {"ttir.matmul", "ttir.add", "ttir.maximum", "ttir.tanh", "ttir.broadcast"} <= _ops(module)
    assert "tt.device" not in module.attributes  # no mesh: the default device


def transformer_block(x, wq, wk, wv, wo, w1, w2, g):
    b, s, d = x.shape
    heads = 2

    def norm(h):
        mu = h.mean(-1, keepdims=True)
        var = ((h - mu) ** 2).mean(-1, keepdims=True)
        return (h - mu) * jax.lax.rsqrt(var + 1e-5) * g

    def split(t):
        return t.reshape(b, s, heads, d // heads).transpose(0, 2, 1, 3)

    h = norm(x)
    q, k, v = split(h @ wq), split(h @ wk), split(h @ wv)
    scores = jnp.einsum("bhqd,bhkd->bhqk", q, k) / np.float32(np.sqrt(d // heads))
    att = jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(scores, axis=-1), v)
    x = x + att.transpose(0, 2, 1, 3).reshape(b, s, d) @ wo
    h = norm(x)
    return x + jax.nn.gelu(h @ w1, approximate=True) @ w2 * jax.lax.logistic(-x)


def test_transformer_block_runs_and_matches_jax():
    d = 32
    args = [_randn(2, 8, d), _randn(d, d), _randn(d, d), _randn(d, d), _randn(d, d), _randn(d, 2 * d),
            _randn(2 * d, d), _randn(d)]
    module = _run_both(transformer_block, *args)
    names = _ops(module)
    for op in ("ttir.matmul", "ttir.permute", "ttir.reshape", "ttir.sum", "ttir.max", "ttir.exp", "ttir.rsqrt",
               "ttir.div", "ttir.tanh", "ttir.subtract", "ttir.constant"):
        assert op in names, op


def test_bf16_convert_runs_and_matches_jax():
    x = _randn(16, 32)
    fn = lambda x: (x.astype(jnp.bfloat16) * 2).astype(jnp.float32)  # noqa: E731
    module = _run_both(fn, x, rtol=1e-2, atol=1e-2)
    assert "ttir.typecast" in _ops(module)


def _mesh():
    auto = (jax.sharding.AxisType.Auto,) * 2
    return jax.make_mesh((2, 2), ("x", "y"), axis_types=auto)


def _sharded(mesh):
    from jax.sharding import NamedSharding
    from jax.sharding import PartitionSpec as P

    def fn(x, w):
        h = jax.lax.with_sharding_constraint(x @ w, NamedSharding(mesh, P("y", "x")))
        return h.sum(axis=-1)

    shard = lambda *s: NamedSharding(mesh, P(*s))  # noqa: E731
    return jax.jit(fn, in_shardings=(shard("x", None), shard(None, "y")), out_shardings=shard(("x", "y")))


def _annotations(module):
    (f,) = [op for op in module.walk() if isinstance(op, func.FuncOp)]
    args = [d.data["tt.sharding"].spec for d in f.arg_attrs.data]
    results = [d.data["tt.sharding"].spec for d in f.res_attrs.data]
    constraints = [op.attributes["sharding"].spec for op in module.walk() if op_name(op) == "ttir.sharding_constraint"]
    return args, results, constraints


# Expected specs written by hand from the PartitionSpecs: mesh axis "x" is S0, "y" is S1.
EXPECTED = ([parse_spec("[S0, R]", (2, 2)), parse_spec("[R, S1]", (2, 2))], [parse_spec("[S01]", (2, 2))],
            [parse_spec("[S1, S0]", (2, 2))])


@pytest.mark.parametrize("shardy", [True, False], ids=["shardy", "gspmd"])
def test_shardings_become_tt_sharding_annotations(shardy):
    if len(jax.devices()) < 4:
        pytest.skip("needs 4 host devices (XLA_FLAGS set after jax started)")
    mesh = _mesh()
    xs = (np.ones((8, 16), np.float32), np.ones((16, 32), np.float32))
    module = from_jax_exported(_sharded(mesh), xs, mesh, shardy)
    assert _annotations(module) == EXPECTED
    assert module.attributes["tt.device"].model().mesh_shape == (2, 2)
    assert isinstance(next(op for op in module.walk() if op_name(op) == "ttir.sharding_constraint")
                      .attributes["sharding"], ShardingAttr)
    assert ShardingSpec(Mesh((2, 2)), ((0,), ())) == EXPECTED[0][0]


def test_unsupported_op_is_located_at_the_python_line():
    def fn(x):
        return jnp.cbrt(x)  # the line the error names

    with pytest.raises(DiagnosticError) as err:
        meshc.from_jax(fn, np.ones((4,), np.float32))
    (d,) = err.value.diagnostics
    assert d.file == __file__
    assert "'stablehlo.cbrt' op has no ttir translation in meshc" in d.message
    with open(__file__, encoding="utf-8") as f:
        assert "the line the error names" in f.read().split("\n")[d.line - 1]


def test_booleans_minimum_power_erf_match_jax():
    a, b = _randn(32, 64, scale=1.0), _randn(32, 64, scale=1.0)

    def fn(a, b):
        both = jnp.logical_and(a > 0, b < 0.5)
        one = jnp.logical_xor(a > 0, jnp.logical_not(b > 0))
        either = jnp.logical_or(a > 0.3, b > 0.3).astype(jnp.float32)
        return jnp.where(both, jnp.minimum(a, b), jnp.power(jnp.exp(a), b)) + jax.lax.erf(a) * one - either

    module = _run_both(fn, a, b)
    assert {"ttir.minimum", "ttir.pow", "ttir.erf", "ttir.ne", "ttir.where"} <= _ops(module)


def _shard_map_program(mesh):
    from jax.sharding import PartitionSpec as P

    def body(a, b):
        s = a @ b
        g = jax.lax.all_gather(s, "x", axis=0, tiled=True)
        r = jax.lax.psum_scatter(g, "x", scatter_dimension=0, tiled=True)
        p = jax.lax.ppermute(r, "y", perm=[(0, 1), (1, 0)])
        return jax.lax.psum(s + p, ("x", "y")), jax.lax.pmin(s, "y")

    return jax.jit(jax.shard_map(body, mesh=mesh, in_specs=(P("x", "y"), P("y", None)),
                                 out_specs=(P("x", None), P("x", None))))


@pytest.mark.parametrize("target", ["ttnn", "ttmetal"])
def test_shard_map_collectives_match_jax(target):
    mesh = _mesh()
    f = _shard_map_program(mesh)
    x, w = _randn(128, 128), _randn(128, 64)
    module = meshc.from_jax(f, x, w)
    assert {"ttir.mesh_shard", "ttir.all_gather", "ttir.reduce_scatter", "ttir.collective_permute",
            "ttir.all_reduce"} <= _ops(module)
    got = meshc.run(module, {"arg0": x, "arg1": w}, target=target)
    for g, want in zip(got.outputs, f(x, w)):
        np.testing.assert_allclose(g, np.asarray(want), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("target", ["ttnn", "ttmetal"])
def test_shard_map_all_to_all_matches_jax(target):
    from jax.sharding import PartitionSpec as P

    mesh = _mesh()

    def body(a, b):
        return jax.lax.all_to_all(a, "y", 0, 1, tiled=True), jax.lax.all_to_all(b, "x", 1, 0, tiled=True)

    f = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=(P("x", "y"), P("x", "y")), out_specs=(P("x", "y"), P("x", "y"))))
    a, b = _randn(64, 64), _randn(32, 64)
    module = meshc.from_jax(f, a, b)
    assert "ttir.all_to_all" in _ops(module)
    got = meshc.run(module, {"arg0": a, "arg1": b}, target=target)
    for g, want in zip(got.outputs, f(a, b)):
        np.testing.assert_array_equal(g, np.asarray(want))


@pytest.mark.parametrize("target", ["ttnn", "ttmetal"])
def test_shard_map_gathers_and_scatters_over_both_axes_match_jax(target):
    """all_gather / psum_scatter / pmax over ("x", "y") and ("y", "x"): the groups list the
    devices x-major or y-major, which orders the pieces."""
    from jax.sharding import PartitionSpec as P

    mesh = _mesh()

    def body(a):
        g = jax.lax.all_gather(a, ("x", "y"), axis=0, tiled=True)
        h = jax.lax.all_gather(a, ("y", "x"), axis=1, tiled=True)
        r = jax.lax.psum_scatter(g, ("x", "y"), scatter_dimension=1, tiled=True)
        q = jax.lax.psum_scatter(h, ("y", "x"), scatter_dimension=0, tiled=True)
        return g, h, r, q, jax.lax.pmax(a, ("y", "x"))

    f = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P("x", "y"), check_vma=False,
                              out_specs=(P(), P(), P(None, ("x", "y")), P(("x", "y"), None), P("x", "y"))))
    a = _randn(64, 64)
    module = meshc.from_jax(f, a)
    got = meshc.run(module, {"arg0": a}, target=target)
    for g, want in zip(got.outputs, f(a)):
        np.testing.assert_allclose(g, np.asarray(want), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("axis_type", ["Auto", "Explicit"])
@pytest.mark.parametrize("target", ["ttnn", "ttmetal"])
def test_shard_map_over_some_axes_matches_jax(axis_type, target):
    """shard_map manual over x only (`axis_names={"x"}`): the body sees whole tensors along y,
    which meshc holds replicated; with Explicit axes the entry's argument shardings (how JAX laid
    the arrays out) and the body's sharding constraints on y come along and are dropped."""
    from jax.sharding import NamedSharding
    from jax.sharding import PartitionSpec as P

    kind = getattr(jax.sharding.AxisType, axis_type)
    mesh = jax.make_mesh((2, 2), ("x", "y"), axis_types=(kind, kind))

    def body(a, w):
        s = a @ w
        return jax.lax.psum(s, "x"), jax.lax.all_gather(s, "x", axis=1, tiled=True), s

    fn = jax.shard_map(body, mesh=mesh, in_specs=(P(None, "x"), P("x", None)), axis_names={"x"},
                       out_specs=(P(), P(), P(None, "x")), check_vma=False)

    a, w = _randn(64, 64), _randn(64, 32)
    args = (a, w)
    if axis_type == "Explicit":
        args = (jax.device_put(a, NamedSharding(mesh, P("y", "x"))), jax.device_put(w, NamedSharding(mesh, P("x", None))))
    f = jax.jit(fn)
    module = meshc.from_jax(f, *args)
    got = meshc.run(module, {"arg0": a, "arg1": w}, target=target)
    for g, want in zip(got.outputs, f(*args)):
        np.testing.assert_allclose(g, np.asarray(want), rtol=1e-4, atol=1e-4)


def test_ops_around_a_shard_map():
    """Ops around a shard_map compute on whole tensors, through both lowerings, matching JAX: one
    whose result the shard_map distributes is computed on every device and one copy read back to
    be distributed (tt-mlir's runtime distributes host tensors); one on its results computes on
    the result read back whole (TTMetal writes it to every device again: a host round trip,
    counted as host traffic)."""
    from jax.sharding import PartitionSpec as P

    mesh = _mesh()
    sm = jax.shard_map(lambda a, w: jax.lax.psum(a @ w, "x"), mesh=mesh, in_specs=(P(None, "x"), P("x", None)),
                       out_specs=P(), axis_names={"x"}, check_vma=False)
    a, w = _randn(64, 64), _randn(64, 32)
    g = jax.jit(lambda a, w: sm(a * 2.0, w))
    before = meshc.from_jax(g, a, w)
    for target in ("ttnn", "ttmetal"):
        got = meshc.run(before, {"arg0": a, "arg1": w}, target=target)
        np.testing.assert_allclose(got.outputs[0], np.asarray(g(a, w)), rtol=1e-4, atol=1e-4)
    f = jax.jit(lambda a, w: sm(a, w) + 1.0)
    after = meshc.from_jax(f, a, w)
    for target in ("ttnn", "ttmetal"):
        got = meshc.run(after, {"arg0": a, "arg1": w}, target=target)
        np.testing.assert_allclose(got.outputs[0], np.asarray(f(a, w)), rtol=1e-4, atol=1e-4)


def test_shard_map_unsupported_collective_is_located():
    from jax.sharding import PartitionSpec as P

    mesh = _mesh()

    def body(a):
        return jax.lax.all_to_all(a, ("x", "y"), 0, 1, tiled=True)  # the all_to_all line

    f = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P("x", "y"), out_specs=P("x", "y")))
    with pytest.raises(DiagnosticError) as err:
        meshc.from_jax(f, np.ones((64, 64), np.float32))
    (d,) = err.value.diagnostics
    assert "runs over mesh axes [0, 1] at once; meshc imports all_to_all over one mesh axis" in d.message
    with open(__file__, encoding="utf-8") as fh:
        assert "the all_to_all line" in fh.read().split("\n")[d.line - 1]
