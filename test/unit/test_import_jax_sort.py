"""jnp.sort, jnp.argsort and lax.sort (StableHLO `sort` by JAX's comparator, with an iota for
argsort, `reverse`s around it for descending=True) imported as ttir.sort / ttir.sort_indices,
written as JAX users write them, the input split over a 2x4 mesh, run on TTNN and compared with
JAX on one device, NaNs and ties included. A sorted dim split over devices is gathered first (the
rule's `keep`: a distributed sort is out of scope), the other dims stay split.

Link bytes by hand on the T3K's 2x4 mesh (rows of 4 chips in a line, columns of 2): a gather of
k pieces of B bytes each among k chips in a line brings each chip the other k - 1 pieces, k (k -
1) B a line. TTMetal has no sort kernel: ttir-decompose-selections writes the sort with the ops it
has (each element's rank from n x n comparisons a row, then each place's element), so both backends
run it, with the same link bytes.

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

RNG = np.random.default_rng(2412)
TARGETS = ["ttnn", "ttmetal"]


def _module(fn, x, spec):
    if len(jax.devices()) < 8:
        pytest.skip("needs 8 host devices (XLA_FLAGS set after jax started)")
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
    jitted = jax.jit(fn, in_shardings=(NamedSharding(mesh, spec),), out_shardings=NamedSharding(mesh, P()))
    return meshc.from_jax(jitted, x, mesh=mesh)


def _run(fn, x, spec, target="ttnn"):
    """meshc's run of `fn` on x split by `spec` (the result replicated), its module, and JAX's
    result on one device (JAX's own sharded CPU run is the same here)."""
    module = _module(fn, x, spec)
    (f,) = [op for op in module.walk() if isinstance(op, func.FuncOp)]
    got = meshc.run(module, {f.body.blocks.first.args[0].name_hint: x}, target=target)
    return module, got, np.asarray(jax.jit(fn)(x))


def _sorts(module) -> list[tuple[str, bool]]:
    return [(op.name, bool(op.attributes["descending"].value.data)) for op in module.walk()
            if op.name in ("ttir.sort", "ttir.sort_indices")]


def _data() -> np.ndarray:
    """8x16 f32 in tenths (many ties), NaNs in row 1 on two devices of y, -0.0 beside 0.0 in row 2,
    +-inf in row 3."""
    x = np.round(RNG.standard_normal((8, 16)), 1).astype(np.float32)
    x[1, 5] = x[1, 13] = np.nan
    x[2, 3], x[2, 4] = -0.0, 0.0
    x[3, 0], x[3, 15] = np.inf, -np.inf
    return x


CASES = {
    "jnp.sort": (lambda x: jnp.sort(x, axis=1), ("ttir.sort", False)),
    "jnp.sort descending": (lambda x: jnp.sort(x, axis=1, descending=True), ("ttir.sort", True)),
    "jnp.argsort": (lambda x: jnp.argsort(x, axis=1), ("ttir.sort_indices", False)),
    "jnp.argsort descending": (lambda x: jnp.argsort(x, axis=1, descending=True), ("ttir.sort_indices", True)),
    "lax.sort": (lambda x: lax.sort(x, dimension=1), ("ttir.sort", False)),
}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_sort_along_a_split_dim_matches_jax(case, target):
    """Along dim 1, split over y: x [x, y] 8x16 f32 (4x4 a device, 64 B) is gathered over each
    row of 4: 8 chips x 3 x 64 = 1,536 B; the sorted 8x16 leaves split over x only (4x16, 256 B
    a chip) and JAX wants it replicated: gathered over each column of 2, 8 x 1 x 256 = 2,048 B.
    3,584 B in all. NaNs last ascending and first descending, equal elements in their order (the
    positions of ties, and of the two NaNs, as JAX's stable sort gives them)."""
    fn, op = CASES[case]
    x = _data()
    module, got, want = _run(fn, x, P("x", "y"), target)
    assert _sorts(module) == [op]
    lowered = {o.name for o in meshc.compile(module.clone(), f"ttir-to-{target}-pipeline").walk()}
    assert (op[0].replace("ttir.", "ttnn.") in lowered) == (target == "ttnn")
    np.testing.assert_array_equal(got.outputs[0], want)
    assert got.traffic.link_bytes == 8 * 3 * 64 + 8 * 1 * 256 == 3584


@pytest.mark.parametrize("target", TARGETS)
def test_nan_and_zero_order_by_hand(target):
    """Row 1 holds NaNs at 5 and 13: ascending they come last (positions 5 then 13), descending
    first (5 then 13: a stable descending sort, as jnp.argsort(descending=True)). Row 2's -0.0 (at
    3) and 0.0 (at 4) are equal: ascending in their order; jnp.sort(descending=True) is JAX's
    reversed ascending sort, so JAX gives 0.0 before -0.0 where meshc's stable descending sort
    keeps -0.0 first: the values compare equal, only their sign bits differ (docs/importers.md)."""
    x = _data()
    _, asc, _ = _run(lambda x: jnp.argsort(x, axis=1), x, P("x", "y"), target)
    _, desc, _ = _run(lambda x: jnp.argsort(x, axis=1, descending=True), x, P("x", "y"), target)
    assert list(asc.outputs[0][1][-2:]) == [5, 13] and list(desc.outputs[0][1][:2]) == [5, 13]
    zeros = [int(i) for i in asc.outputs[0][2] if x[2, i] == 0]
    assert zeros == [3, 4]
    _, vals, want = _run(lambda x: jnp.sort(x, axis=1, descending=True), x, P("x", "y"), target)
    where = np.flatnonzero(vals.outputs[0][2] == 0)
    assert list(np.signbit(vals.outputs[0][2][where])) == [True, False]
    assert list(np.signbit(want[2][where])) == [False, True]


@pytest.mark.parametrize("target", TARGETS)
def test_sort_along_an_unsplit_dim_moves_nothing_for_it(target):
    """jnp.sort along dim 0 of x split [-, y] 8x16 (8x4 a chip, replicated over x): dim 0 is whole
    on every chip, so the sort is local; only the replicated result's gather over y moves bytes:
    8 chips x 3 x 128 B = 3,072 B."""
    x = _data()
    module, got, want = _run(lambda x: jnp.sort(x, axis=0), x, P(None, "y"), target)
    assert _sorts(module) == [("ttir.sort", False)]
    np.testing.assert_array_equal(got.outputs[0], want)
    assert got.traffic.link_bytes == 8 * 3 * 128


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dtype", ["int32", "bfloat16"])
def test_integer_and_bf16_sort_and_argsort(dtype, target):
    """i32 over the whole range (the smallest and largest i32 included, so a descending sort by
    negation would overflow) and bf16 (8 bits of mantissa: many ties): jnp.sort descending and
    jnp.argsort along the split dim 1, exact against JAX."""
    if dtype == "int32":
        x = RNG.integers(-(2 ** 31), 2 ** 31 - 1, (8, 16), dtype=np.int64).astype(np.int32)
        x[0, 2], x[0, 7] = -(2 ** 31), 2 ** 31 - 1
        x[4, :4] = 7
    else:
        x = RNG.standard_normal((8, 16)).astype(jnp.bfloat16)
    for fn in (lambda x: jnp.sort(x, axis=1, descending=True), lambda x: jnp.argsort(x, axis=1)):
        _, got, want = _run(fn, x, P("x", "y"), target)
        np.testing.assert_array_equal(got.outputs[0], want)


def test_descending_argsort_of_a_constant():
    """jnp.argsort(c, descending=True) of a constant c = [3, 1, 3, 2, 1]: JAX reverses c and the
    iota (both folded at import) and sorts; the sort reads c as it was, so the positions are a
    stable descending sort of c, by hand [0, 2, 3, 1, 4] (the two 3s, the 2, the two 1s)."""
    c = np.array([[3, 1, 3, 2, 1]], np.float32)

    def fn(x):
        return jnp.argsort(jnp.asarray(c), axis=1, descending=True) + x

    x = np.zeros((1, 5), np.int32)
    module = meshc.from_jax(jax.jit(fn), x)
    got = meshc.run(module, {"x": x})
    assert got.outputs[0].tolist() == [[0, 2, 3, 1, 4]] == np.asarray(jax.jit(fn)(x)).tolist()
