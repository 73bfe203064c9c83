"""A JAX program's dynamic_slice at a static start of a dim split over the mesh, imported with
meshc.from_jax: the importer writes it as a ttir.slice, which ttir-partition does as a windowed
move (each device takes its piece of the result where it lies), on both backends, exact against
JAX's own output, the link bytes derived here. Skipped without jax."""

import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

jax = pytest.importorskip("jax")
from jax.sharding import NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import meshc  # noqa: E402
from xdsl.dialects import func  # noqa: E402


@pytest.mark.parametrize("target", ["ttnn", "ttmetal"])
def test_dynamic_slice_at_a_static_start_of_a_split_dim_matches_jax(target):
    """x 8x16 f32 on the 2x4 mesh, P(None, "y"): 4 columns a device, every row on both mesh rows.
    jax.lax.dynamic_slice(x, (0, 3), (8, 8)), kept split over y: 2 columns a device, [3, 5),
    [5, 7), [7, 9), [9, 11). y=0 lacks column 4 (from y=1), y=1 holds [5, 7), y=2 lacks column 7
    (from y=1), y=3 lacks columns 9 and 10 (from y=2): 4 columns x 8 rows x 4 B = 128 B a mesh
    row over one link each, 256 B for the two. (Gathering x along y first: 8 x 3 x 128 B =
    3,072 B.)"""
    if len(jax.devices()) < 8:
        pytest.skip("needs 8 host devices (XLA_FLAGS set after jax started)")
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
    split = NamedSharding(mesh, P(None, "y"))
    jitted = jax.jit(lambda x: jax.lax.dynamic_slice(x, (0, 3), (8, 8)), in_shardings=(split,), out_shardings=split)
    x = np.random.default_rng(5).standard_normal((8, 16)).astype(np.float32)
    module = meshc.from_jax(jitted, x, mesh=mesh)
    assert "ttir.slice" in [op.name for op in module.walk()]
    (f,) = [op for op in module.walk() if isinstance(op, func.FuncOp)]
    got = meshc.run(module, {f.body.blocks.first.args[0].name_hint: x}, target=target)
    np.testing.assert_array_equal(got.outputs[0], np.asarray(jitted(x)))
    assert got.traffic.link_bytes == 2 * 4 * 8 * 4 == 256
