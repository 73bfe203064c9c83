"""Every elementwise op of the compute-op registry, written as a JAX user writes it (the entry's
`jax` function), lowered by JAX, imported with meshc.from_jax on a 2x2 mesh with its input split
over both axes, lowered to TTNN and to TTMetal, run on the simulator and compared with JAX's own
output, in f32 and bf16 (integer ops in i32). Also JAX's composites of them: clamp, integer // and %.

Skipped when jax is not installed (`pip install meshc[jax]`; the `test` extra installs it).
"""

import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=4")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
from jax.sharding import NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import meshc  # noqa: E402
from xdsl.dialects import func  # noqa: E402

from meshc.layout.compute_ops import COMPUTE_OPS  # noqa: E402

SHAPE = (8, 16)
POSITIVE = {"log", "sqrt", "rsqrt", "log1p", "pow"}
"""Ops JAX and meshc agree on over positive inputs (elsewhere both give NaN)."""
NONZERO_RHS = {"div", "remainder"}
LAX_ON_INTEGERS = {"div": jax.lax.div}
"""jnp.divide divides integers as floats; lax.div is StableHLO's integer divide."""


def _resolve(path: str):
    root, *rest = path.split(".")
    obj = {"jnp": jnp, "jax": jax}[root]
    for name in rest:
        obj = getattr(obj, name)
    return obj


def _inputs(kind: str, arity: int, integer: bool) -> list[np.ndarray]:
    rng = np.random.default_rng(11)
    if integer:
        xs = [rng.integers(-40, 40, SHAPE).astype(np.int32) for _ in range(arity)]
        if kind.startswith("shift"):
            xs[1] = rng.integers(0, 36, SHAPE).astype(np.int32)  # past the width of 32 too
    else:
        xs = [rng.uniform(-3.0, 3.0, SHAPE).astype(np.float32) for _ in range(arity)]
        if kind in POSITIVE:
            xs[0] = np.abs(xs[0]) + np.float32(0.1)
        if kind in ("floor", "ceil", "round"):
            xs[0][0, :4] = [0.5, 1.5, -0.5, -2.5]  # halves: round goes to even
    if kind in NONZERO_RHS:
        xs[1] = np.where(xs[1] == 0, 3, xs[1]).astype(xs[1].dtype)
    return xs


def _cases():
    for kind, e in sorted(COMPUTE_OPS.items()):
        if not e.jax or not e.stablehlo or e.family not in ("unary", "binary"):
            continue
        types = ["i32"] if e.integer_only else ["f32", "bf16"] + (["i32"] if kind in ("div", "remainder", "abs", "sign") else [])
        for dtype in types:
            yield pytest.param(kind, dtype, id=f"{kind}-{dtype}")


def _mesh():
    return jax.make_mesh((2, 2), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


def _run(fn, xs, target):
    """JAX's output and meshc's (imported, lowered to `target`, simulated) for inputs split [x, y]."""
    mesh = _mesh()
    split = NamedSharding(mesh, P("x", "y"))
    jitted = jax.jit(fn, in_shardings=(split,) * len(xs), out_shardings=split)
    module = meshc.from_jax(jitted, *xs)
    (f,) = [op for op in module.walk() if isinstance(op, func.FuncOp)]
    names = [a.name_hint for a in f.body.blocks.first.args]
    got = meshc.run(module, dict(zip(names, xs)), target=target)
    return module, got.outputs[0], np.asarray(jitted(*xs))


@pytest.mark.parametrize("target", ["ttnn", "ttmetal"])
@pytest.mark.parametrize("kind, dtype", list(_cases()))
def test_each_elementwise_op_matches_jax(kind, dtype, target):
    e = COMPUTE_OPS[kind]
    integer = dtype == "i32"
    fn = LAX_ON_INTEGERS.get(kind, _resolve(e.jax)) if integer else _resolve(e.jax)
    xs = _inputs(kind, e.arity, integer)
    if dtype == "bf16":
        xs = [np.asarray(jnp.asarray(x, jnp.bfloat16)) for x in xs]
    module, got, want = _run(fn, xs, target)
    assert f"ttir.{kind}" in {op.name for op in module.walk()}  # imported as the op, not a decomposition
    if integer:
        np.testing.assert_array_equal(got, want)
    elif dtype == "bf16":  # both round an f32 result to bf16: at most one bf16 step (2 ** -7 relative) apart
        np.testing.assert_allclose(np.asarray(got, np.float32), np.asarray(want, np.float32), rtol=2 ** -7, atol=1e-6)
    else:
        np.testing.assert_allclose(got, want, rtol=2e-6, atol=2e-6)


@pytest.mark.parametrize("target", ["ttnn", "ttmetal"])
def test_clamp_by_scalars_and_by_tensors_matches_jax(target):
    rng = np.random.default_rng(3)
    x, lo = (rng.uniform(-3, 3, SHAPE).astype(np.float32) for _ in range(2))
    hi = lo + np.float32(1.0)
    module, got, want = _run(lambda x: jax.lax.clamp(-1.0, x, 0.5), [x], target)
    assert {"ttir.maximum", "ttir.minimum"} <= {op.name for op in module.walk()}
    np.testing.assert_array_equal(got, want)
    _, got, want = _run(lambda lo, x, hi: jax.lax.clamp(lo, x, hi), [lo, x, hi], target)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("target", ["ttnn", "ttmetal"])
@pytest.mark.parametrize("op", ["floordiv", "mod"])
def test_python_integer_floor_division_and_modulo_match_jax(op, target):
    """`a // b` and `a % b` on int32 are JAX composites of divide / remainder, sign, compare and
    select: floor semantics (the sign of the divisor for %), negative operands included."""
    rng = np.random.default_rng(5)
    a = rng.integers(-50, 50, SHAPE).astype(np.int32)
    b = rng.integers(1, 9, SHAPE).astype(np.int32) * np.where(rng.random(SHAPE) < 0.5, -1, 1).astype(np.int32)
    fn = (lambda a, b: a // b) if op == "floordiv" else (lambda a, b: a % b)
    _, got, want = _run(fn, [a, b], target)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(want, a // b if op == "floordiv" else a % b)  # numpy's floor semantics
