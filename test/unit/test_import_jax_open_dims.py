"""Open dims inside a sharding constraint: `with_sharding_constraint(h, P(P.UNCONSTRAINED, "y"))`
between two matmuls (JAX writes `[{?}, {"y"}]`, or with Shardy off `unspecified_dims=[0]`) is
imported with `open_dims = array<i64: 0>`, and propagation leaves dim 0 as the first matmul split
it (over x) while dim 1 stays bound to y. Read closed, dim 0 would be replicated: a gather over x
before the second matmul. Values equal JAX's byte for byte (integer-valued f32 data); the link
bytes are derived by hand below.

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

import meshc  # noqa: E402
from meshc.dialects.ttir.sharding_constraint import ShardingConstraintOp  # noqa: E402
from meshc.passes.propagate_sharding import propagate_module  # noqa: E402
from meshc.passes.sharding_ir import CHOSEN  # noqa: E402

F32 = 4


def _inputs():
    rng = np.random.default_rng(5)
    x = rng.integers(-3, 4, (8, 16)).astype(np.float32)
    w1 = rng.integers(-3, 4, (16, 32)).astype(np.float32)
    w2 = rng.integers(-3, 4, (32, 16)).astype(np.float32)
    return x, w1, w2


def _jit(mesh, first):
    """x [x, -] @ w1 [-, y] (the product is [x, y]), constrained to [first, y], @ w2 [y, -] (row
    parallel: partial sums over y), out [x, -]."""
    def f(x, w1, w2):
        h = jax.lax.with_sharding_constraint(x @ w1, NamedSharding(mesh, P(first, "y")))
        return h @ w2

    ins = (P("x", None), P(None, "y"), P("y", None))
    return jax.jit(f, in_shardings=tuple(NamedSharding(mesh, s) for s in ins),
                   out_shardings=NamedSharding(mesh, P("x", None)))


def _import(first, shardy: bool):
    mesh = mesh_2x4()
    fn = _jit(mesh, first)
    module = from_jax_exported(fn, _inputs(), mesh, shardy)
    return module, fn


def _constraint(module) -> ShardingConstraintOp:
    (op,) = [o for o in module.walk() if isinstance(o, ShardingConstraintOp)]
    return op


# By hand. h = x @ w1 is [S0, S1]: a 4 x 8 f32 piece (128 B) a chip. The second matmul leaves
# each chip a partial sum over y of its 4 x 16 f32 rows (256 B), completed by a ring all-reduce
# along each mesh row of 4: each chip sends 3 chunks of 64 B in the reduce-scatter and 3 in the
# all-gather, 2 x 4 x 3 x 64 = 1,536 B a row, 3,072 B for the 2 rows. Replicating h's dim 0 (the
# closed reading, P(None, "y")) first gathers it over x: each chip receives the other row's
# 128 B piece over one link, 8 x 128 = 1,024 B more.
ALL_REDUCE = 2 * (2 * 4 * 3 * 64)
GATHER_X = 8 * 128
CASES = {  # constraint's dim 0 as written -> (open dims imported, h's spec after propagation, link bytes)
    "open": (P.UNCONSTRAINED, (0,), ((0,), (1,)), ALL_REDUCE),
    "closed": (None, (), ((), (1,)), ALL_REDUCE + GATHER_X),
}


@pytest.mark.parametrize("shardy", [True, False], ids=["shardy", "gspmd"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_an_open_dim_is_left_to_propagation_and_the_closed_one_binds(case, shardy):
    first, open_dims, dims, _ = CASES[case]
    module, _ = _import(first, shardy)
    op = _constraint(module)
    assert op.open() == open_dims
    assert op.sharding.spec.dims == ((), (1,))  # as written: y on dim 1
    propagate_module(module)
    (spec,) = op.attributes[CHOSEN].data
    assert spec.spec.dims == dims


@pytest.mark.parametrize("target", ["ttnn", "ttmetal"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_values_equal_jax_and_the_open_dim_saves_the_gather(case, target):
    first, _, _, link_bytes = CASES[case]
    module, fn = _import(first, shardy=True)
    x, w1, w2 = _inputs()
    got = meshc.run(module, {"x": x, "w1": w1, "w2": w2}, target=target)
    want = np.asarray(fn(x, w1, w2))
    np.testing.assert_array_equal(got.outputs[0], want)
    assert got.traffic.link_bytes == link_bytes
