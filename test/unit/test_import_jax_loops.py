"""Loops as JAX users write them (`jax.lax.scan` over a stack of layer weights, `lax.fori_loop`,
`lax.while_loop`), lowered by JAX with the inputs sharded over a 2x4 mesh, imported with
meshc.from_jax (a `stablehlo.while` with a trip count known at import is unrolled), lowered to
TTNN and to TTMetal, run on the simulator and compared with JAX's own output. The link bytes are
derived by hand in each test. A data-dependent loop is refused at its line of Python. Skipped
when jax is not installed (the `test` extra installs it).
"""

import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import inspect  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
from jax.sharding import NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import meshc  # noqa: E402
from helpers_jax import mesh_2x4 as _mesh, run_against_jax as _run, ttir_names as _names  # noqa: E402
from meshc.errors import DiagnosticError  # noqa: E402
from meshc.importers.stablehlo_loops import MAX_UNROLLED_OPS  # noqa: E402

TARGETS = ["ttnn", "ttmetal"]
RNG = np.random.default_rng(31)


def _layers():
    x = RNG.standard_normal((8, 16)).astype(np.float32)
    w = (RNG.standard_normal((4, 16, 16)) / 4).astype(np.float32)
    return x, w


# x [x, -] (4 rows a device, whole along y), every layer's w [-, -, y] (4 output columns a
# device): layer 1's matmul needs nothing (x's rows times the device's columns: [x, y]); each
# later layer contracts x's 16 columns, split over y by the layer before, so x is gathered along
# y first: each device receives its 3 y-neighbours' 4 x 4 f32 pieces (64 B), 8 x 3 x 64 =
# 1,536 B a layer, for layers 2, 3 and 4. The result leaves [x, y] as it is.
LAYER_BYTES = 8 * 3 * 4 * 4 * 4
SPECS = [P("x", None), P(None, None, "y")]


@pytest.mark.parametrize("target", TARGETS)
def test_scan_over_a_stack_of_sharded_layer_weights_matches_jax(target):
    """x = tanh(x @ w[i]) for the 4 layers of a stacked w, by jax.lax.scan (as Flax / MaxText
    repeat layers): the while unrolled into 4 static slices of w, 4 matmuls, 4 tanhs; no
    dynamic_slice is left (its start, the counter, is a constant in each copy)."""
    x, w = _layers()

    def scan(x, w):
        return jax.lax.scan(lambda c, wi: (jnp.tanh(c @ wi), None), x, w)[0]

    module, got, want = _run(scan, [x, w], SPECS, P("x", "y"), target)
    names = _names(module)
    assert names.count("ttir.matmul") == names.count("ttir.tanh") == names.count("ttir.slice") == 4
    assert not {"ttir.eq", "ttir.where", "ttir.sum"} & set(names)
    np.testing.assert_allclose(got.outputs[0], want[0], rtol=1e-6, atol=1e-6)
    assert got.traffic.link_bytes == 3 * LAYER_BYTES == 4608


@pytest.mark.parametrize("target", TARGETS)
def test_fori_loop_with_a_sharding_constraint_in_its_body_matches_jax(target):
    """lax.fori_loop(0, 4, ...) over the same layers, w[i] at the loop index (JAX wraps a
    negative index: compare, add, select on the index, folded at import) and a
    with_sharding_constraint [x, y] in the body: each of the 4 unrolled copies keeps it (the
    layer's output is [x, y] already, so the same 3 gathers and bytes as the scan)."""
    x, w = _layers()
    mesh = _mesh()

    def fori(x, w):
        def layer(i, x):
            return jax.lax.with_sharding_constraint(jnp.tanh(x @ w[i]), NamedSharding(mesh, P("x", "y")))
        return jax.lax.fori_loop(0, 4, layer, x)

    module, got, want = _run(fori, [x, w], SPECS, P("x", "y"), target)
    names = _names(module)
    assert names.count("ttir.sharding_constraint") == 4 and names.count("ttir.matmul") == 4
    assert not {"ttir.select", "ttir.where", "ttir.eq"} & set(names)
    np.testing.assert_allclose(got.outputs[0], want[0], rtol=1e-6, atol=1e-6)
    assert got.traffic.link_bytes == 3 * LAYER_BYTES


@pytest.mark.parametrize("target", TARGETS)
def test_scan_stacking_its_outputs_and_reversed_matches_jax(target):
    """A scan with outputs (ys stacked at the index: dynamic_update_slice at a constant start in
    each copy) and reverse=True (the index JAX computes as 3 - i, folded), on x [x, y] 4x8x16
    scanned along its unsplit dim 0: c = c * 0.5 + x[i], y = c; every op elementwise on the
    pieces, 0 link bytes; integer-valued data halved at most 4 times: exact."""
    x = RNG.integers(-8, 8, (4, 8, 16)).astype(np.float32)

    def scan(x):
        return jax.lax.scan(lambda c, r: (c * 0.5 + r, c * 0.5 + r), jnp.zeros((8, 16), jnp.float32), x,
                            reverse=True)

    module, got, want = _run(scan, [x], [P(None, "x", "y")], (P("x", "y"), P(None, "x", "y")), target)
    assert "ttir.concat" in _names(module)
    for g, w_ in zip(got.outputs, want, strict=True):
        np.testing.assert_array_equal(g, w_)
    assert got.traffic.link_bytes == 0


def test_a_data_dependent_while_loop_is_refused_at_its_line():
    """lax.while_loop on a value the program computes: the trip count is not known at import."""
    def grow(x):
        return jax.lax.while_loop(lambda x: jnp.sum(x) < 100.0, lambda x: x * 2.0, x)

    line = inspect.getsourcelines(grow)[1] + 1
    with pytest.raises(DiagnosticError) as e:
        meshc.from_jax(grow, np.ones((8, 16), np.float32))
    text = str(e.value)
    assert f"test_import_jax_loops.py:{line}:" in text
    assert "'stablehlo.while' op is a loop whose trip count meshc cannot prove at import" in text
    assert "stablehlo.reduce" in text and "a data-dependent loop is not supported" in text


def test_a_loop_past_the_unroll_limit_is_refused_naming_its_trip_count():
    """A fori_loop of 5,000 iterations: its trip count, its ops and the limit named."""
    def many(x):
        return jax.lax.fori_loop(0, 5000, lambda i, x: jnp.tanh(x), x)

    with pytest.raises(DiagnosticError) as e:
        meshc.from_jax(many, np.ones((8, 16), np.float32))
    text = str(e.value)
    assert "is a loop of 5000 iterations" in text and f"past meshc's limit of {MAX_UNROLLED_OPS}" in text


@pytest.mark.parametrize("target", TARGETS)
def test_scan_with_explicit_mesh_axes_matches_jax(target):
    """With Explicit mesh axes JAX constrains the counter, its bound and its step to `[]` (a
    scalar's only placement) in the condition and the body: the trip count reads through those
    constraints, and a scalar constant's constraint keeps it known at import. x [x, -] and w
    replicated: each layer's matmul works on the device's 4 rows, 0 link bytes."""
    x, w = _layers()
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(jax.sharding.AxisType.Explicit,) * 2) \
        if len(jax.devices()) >= 8 else _mesh()

    def scan(x, w):
        return jax.lax.scan(lambda c, wi: (jnp.tanh(c @ wi), None), x, w)[0]

    with jax.sharding.set_mesh(mesh):
        xs = jax.device_put(x, NamedSharding(mesh, P("x", None)))
        ws = jax.device_put(w, NamedSharding(mesh, P(None, None, None)))
        module = meshc.from_jax(jax.jit(scan), xs, ws, mesh=mesh)
        want = np.asarray(jax.jit(scan)(xs, ws))
    names = _names(module)
    assert names.count("ttir.matmul") == 4 and "ttir.where" not in names
    got = meshc.run(module, {"x": x, "w": w}, target=target)
    np.testing.assert_allclose(got.outputs[0], want, rtol=1e-6, atol=1e-6)
    assert got.traffic.link_bytes == 0


@pytest.mark.parametrize("target", TARGETS)
def test_scanned_remat_mlp_block_with_megatron_weights_matches_jax(target):
    """A MaxText-style stack: 3 residual MLP blocks h + gelu(h @ a) @ b under jax.checkpoint,
    scanned over the stacked (a, b) pytree, a [-, -, y] (column-parallel) and b [-, y, -]
    (row-parallel), h [x, -]. Each block's second matmul leaves a partial sum over y of the
    device's 4 x 16 f32 rows (256 B), completed by a ring all-reduce along each mesh row: each of
    the 4 chips sends 3 chunks of 64 B in the reduce-scatter and 3 in the all-gather, 2 x 4 x 3 x
    64 = 1,536 B a row, 3,072 B for the 2 rows, 9,216 B for the 3 blocks."""
    x = RNG.standard_normal((8, 16)).astype(np.float32)
    a = (RNG.standard_normal((3, 16, 32)) / 4).astype(np.float32)
    b = (RNG.standard_normal((3, 32, 16)) / 4).astype(np.float32)

    @jax.checkpoint
    def block(h, w):
        wa, wb = w
        return h + jax.nn.gelu(h @ wa) @ wb

    def model(x, a, b):
        return jax.lax.scan(lambda h, w: (block(h, w), None), x, (a, b))[0]

    module, got, want = _run(model, [x, a, b], [P("x", None), P(None, None, "y"), P(None, "y", None)],
                             P("x", None), target)
    assert _names(module).count("ttir.matmul") == 6
    np.testing.assert_allclose(got.outputs[0], want[0], rtol=1e-5, atol=1e-5)
    assert got.traffic.link_bytes == 3 * 2 * (2 * 4 * 3 * 64) == 9216
