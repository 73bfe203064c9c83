"""dynamic_update_slice and dynamic_slice of several positions of one dim at a run-time start
(a chunk of t tokens written into a KV cache at `pos` and read back), written as JAX users write
them, lowered by JAX with the cache sharded over a 2x4 mesh, imported with meshc.from_jax, lowered
to TTNN and to TTMetal, run on the simulator and compared with JAX's own output (exactly: the
importer writes and reads each position through a one-hot, no arithmetic on the values).

Skipped when jax is not installed (`pip install meshc[jax]`; the `test` extra installs it).
"""

import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

jax = pytest.importorskip("jax")
from jax.sharding import NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import meshc  # noqa: E402

RNG = np.random.default_rng(31)


def _chunk(cache, new, pos):
    """Write the (2, 4, 8) chunk at position `pos` of the (2, 16, 8) cache, read 3 positions from it."""
    cache = jax.lax.dynamic_update_slice(cache, new, (0, pos, 0))
    return cache, jax.lax.dynamic_slice(cache, (0, pos, 0), (2, 3, 8))


@pytest.mark.parametrize("target", ["ttnn", "ttmetal"])
@pytest.mark.parametrize("pos", [5, 40, -3])
def test_a_chunk_at_a_run_time_position_matches_jax(target, pos):
    """pos 40: StableHLO clamps the chunk's start to 16 - 4 = 12 (and the read's to 16 - 3 = 13);
    -3: JAX wraps it to 13 first, then it is clamped alike. The cache split [x, -, y] and the results
    left so: every device writes and reads its own piece, 0 link bytes."""
    if len(jax.devices()) < 8:
        pytest.skip("needs 8 host devices (XLA_FLAGS set after jax started)")
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
    split = NamedSharding(mesh, P("x", None, "y"))
    rep = NamedSharding(mesh, P())
    cache = RNG.standard_normal((2, 16, 8)).astype(np.float32)
    new = RNG.standard_normal((2, 4, 8)).astype(np.float32)
    fn = jax.jit(_chunk, in_shardings=(split, rep, rep), out_shardings=(split, split))
    module = meshc.from_jax(fn, cache, new, np.int32(pos), mesh=mesh)
    got = meshc.run(module, {"arg0": cache, "arg1": new, "arg2": np.int32(pos)}, target=target)
    want = [np.asarray(w) for w in fn(cache, new, np.int32(pos))]
    for g, w in zip(got.outputs, want, strict=True):
        np.testing.assert_array_equal(g, w)
    start = min(max(pos % 16 if pos < 0 else pos, 0), 12)  # by hand: wrapped, then clamped
    np.testing.assert_array_equal(want[0][:, start:start + 4], new)
    assert got.traffic.link_bytes == 0
