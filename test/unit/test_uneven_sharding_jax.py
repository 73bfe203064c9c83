"""Uneven shardings as JAX compiles them (issue 23): `with_sharding_constraint` on a dim the mesh
axis does not divide (JAX pads it). Each program is imported with `meshc.from_jax`, lowered
through both pipelines, simulated and compared with JAX's own output, in f32 and bf16.

meshc holds an uneven split padded (docs/propagation.md, "Uneven splits"): a device's piece is
torch.chunk's, at the start of a buffer of ceil(n / k); elementwise ops compute on the buffers;
reshards move the real pieces only. The delivered bytes are derived by hand below (the lower
bound of docs/reshard.md: per device, the bytes of its target piece it does not hold)."""

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
from meshc.passes.partition import PartitionPass  # noqa: E402

wsc = jax.lax.with_sharding_constraint


def _mesh():
    if len(jax.devices()) < 8:
        pytest.skip("needs 8 host devices (XLA_FLAGS set after jax started)")
    return jax.make_mesh((2, 4), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


def _s(mesh, *spec):
    return NamedSharding(mesh, P(*spec))


# name -> (program over a 2x4 mesh, argument shapes)
CASES = {
    # the case: 8x10 split [x, y]: 10 columns in 4 pieces of 3, 3, 3, 1
    "constraint_8x10": (lambda m: lambda a: jnp.exp(wsc(a * 2.0, _s(m, "x", "y"))) + 1.0, [(8, 10)]),
    # 3 columns over 4 devices: pieces 1, 1, 1 and an empty one
    "empty_piece": (lambda m: lambda a: wsc(a, _s(m, None, "y")) * 2.0, [(8, 3)]),
    # uneven rows into a matmul (its M computes on the padded rows)
    "matmul_operand": (lambda m: lambda a, w: wsc(a, _s(m, "y", None)) @ w, [(10, 16), (16, 8)]),
    # a matmul's output constrained unevenly, then a bias add on the uneven pieces
    "matmul_output": (lambda m: lambda a, w, b: wsc(a @ w, _s(m, "x", "y")) + b, [(8, 16), (16, 10), (8, 10)]),
    # a sum over the unevenly split dim (a sum factor is split only evenly: gathered first)
    "sum_over_uneven": (lambda m: lambda a: jnp.sum(wsc(a, _s(m, None, "y")), axis=1), [(8, 10)]),
    # one uneven placement to another: 6 rows over 2 then 4 (3, 3 / 2, 2, 2, 0), 10 columns over 4 then 2
    "uneven_to_uneven": (lambda m: lambda a: wsc(wsc(a, _s(m, "x", "y")) * 2.0, _s(m, "y", "x")) - 1.0, [(6, 10)]),
}


def _run(name, dtype, target):
    mesh = _mesh()
    make, shapes = CASES[name]
    fn = jax.jit(make(mesh))
    rng = np.random.default_rng(0)
    xs = [rng.standard_normal(s).astype(np.float32).astype(dtype) for s in shapes]
    module = meshc.from_jax(fn, *xs, mesh=mesh)
    (f,) = [op for op in module.walk() if isinstance(op, func.FuncOp)]
    names = [a.name_hint for a in f.body.blocks.first.args]
    got = meshc.run(module, dict(zip(names, xs)), target=target)
    return module, got, np.asarray(fn(*xs)).astype(np.float32)


@pytest.mark.parametrize("target", ["ttnn", "ttmetal"])
@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_uneven_constraint_matches_jax(name, dtype, target):
    _, got, want = _run(name, jnp.bfloat16 if dtype == "bfloat16" else np.float32, target)
    out = np.asarray(got.outputs[0]).astype(np.float32)
    assert out.shape == want.shape and not np.isnan(out).any()
    if dtype == "float32":
        np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-5)
    else:  # bf16 keeps 8 bits of mantissa: a relative 2 ** -8 an op
        np.testing.assert_allclose(out, want, rtol=2 ** -6, atol=2 ** -6)


def test_elementwise_ops_compute_on_the_padded_pieces():
    mesh = _mesh()
    make, shapes = CASES["constraint_8x10"]
    module = meshc.from_jax(jax.jit(make(mesh)), np.zeros(shapes[0], np.float32), mesh=mesh)
    PartitionPass().apply(meshc.driver.make_context(), module)
    # [S0, S1] of 8x10 on 2x4: 4 rows a device, columns in pieces of ceil(10 / 4) = 3, so every
    # device's buffer is 4x3 (device (r, 3) holds one real column, two of padding)
    by_name = {}
    for op in module.walk():
        by_name.setdefault(op.name, []).append(op)
    for kind in ("ttir.multiply", "ttir.exp", "ttir.add"):
        (op,) = by_name[kind]
        assert tuple(op.results[0].type.get_shape()) == (4, 3)
    # the reshards of an uneven split state the tensor they move
    reshards = by_name["ttir.reshard"]
    assert reshards and all(tuple(op.full_shape.get_values()) == (8, 10) for op in reshards)


@pytest.mark.parametrize("dtype, size", [("float32", 4), ("bfloat16", 2)])
def test_delivered_bytes_are_the_real_pieces_only(dtype, size):
    # constraint_8x10's result leaves replicated: [S0, S1] -> [R, R]. Every device needs the
    # 80 elements and holds 4 rows x its columns (3, 3, 3, 1 along a mesh row): it receives
    # 68, 68, 68 and 76 elements; two mesh rows. No padding element is sent.
    _, got, _ = _run("constraint_8x10", jnp.bfloat16 if dtype == "bfloat16" else np.float32, "ttnn")
    assert got.traffic.delivered_bytes == 2 * (68 + 68 + 68 + 76) * size
    # empty_piece: [R, S1] of 8x3 -> [R, R]: devices hold 8, 8, 8 and 0 elements of 24,
    # receive 16, 16, 16 and 24; two mesh rows
    _, got, _ = _run("empty_piece", jnp.bfloat16 if dtype == "bfloat16" else np.float32, "ttmetal")
    assert got.traffic.delivered_bytes == 2 * (16 + 16 + 16 + 24) * size
    # matmul_operand: the matmul runs on the uneven rows (3, 3, 3, 1 of 10), so only its 10x8
    # output is gathered: devices hold 24, 24, 24 and 8 of 80 elements, receive 56, 56, 56, 72
    _, got, _ = _run("matmul_operand", jnp.bfloat16 if dtype == "bfloat16" else np.float32, "ttnn")
    assert got.traffic.delivered_bytes == 2 * (56 + 56 + 56 + 72) * size
