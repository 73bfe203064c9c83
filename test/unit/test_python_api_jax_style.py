"""The Python API as a JAX user expects it: meshc.run's random inputs by default, per-device
shards with their device and index (jax.Array.addressable_shards), visualize_sharding taking JAX
shardings and DTensor placements, visualize_value on any value of a global-view program,
from_jax inputs named as the Python function names its parameters.

Expected slices and specs are derived by hand in each test from the program's annotations
(docs/propagation.md's matmul rule: [S0, R] x [R, S1] -> [S0, S1]; a sharded contracting dim
leaves partial sums)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import meshc
from meshc.layout.mesh import Mesh

ROOT = Path(__file__).resolve().parents[2]
MLP = (ROOT / "examples" / "mlp_global.mlir").read_text()

SPMD_EXP = """
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @main(%x: tensor<64x128xf32>) -> tensor<64x64xf32> {
    %0 = "ttir.mesh_shard"(%x) {shard_dims = array<i64: -1, 1>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_type = #ttir.shard_type<devices>} : (tensor<64x128xf32>) -> tensor<64x64xf32>
    %1 = "ttir.exp"(%0) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    return %1 : tensor<64x64xf32>
  }
}
"""


def test_run_without_inputs_uses_seeded_random_inputs():
    module = meshc.parse(MLP)
    a = meshc.run(module)
    b = meshc.run(module, seed=0)
    assert list(a.inputs) == ["x", "w1", "w2"]  # named as the program names its arguments
    for name in a.inputs:
        np.testing.assert_array_equal(a.inputs[name], b.inputs[name])
    c = meshc.run(module, seed=1)
    assert not np.array_equal(a.inputs["x"], c.inputs["x"])
    # the output is the MLP of those inputs (numpy, gelu with tanh as the golden run's)
    given = meshc.run(module, dict(a.inputs))
    np.testing.assert_array_equal(given.outputs[0], a.outputs[0])


def test_host_output_shards_are_the_blocks_it_is_gathered_from():
    result = meshc.run(meshc.parse(MLP))
    shards = result.addressable_shards(0)
    host = result.outputs[0]
    # the result is [S0, R] on 2x4: device (r, c) holds rows 32r:32r+32, all 64 columns;
    # the 4 devices of a mesh row hold the same block (replica ids 0..3)
    assert [s.device.coords for s in shards] == [(r, c) for r in range(2) for c in range(4)]
    assert [s.device.id for s in shards] == list(range(8))
    for s in shards:
        r, c = s.device.coords
        assert s.index == (slice(32 * r, 32 * r + 32), slice(0, 64))
        assert s.replica_id == c
        np.testing.assert_array_equal(s.data, host[32 * r: 32 * r + 32])
    assert result.addressable_shards("result0")[5].device.chip == 5


def test_device_output_shards_with_and_without_a_spec():
    result = meshc.run(meshc.parse(SPMD_EXP))
    pieces = result.outputs[0]
    assert isinstance(pieces, list) and len(pieces) == 2
    bare = result.addressable_shards(0)
    assert [s.index for s in bare] == [None, None]  # no global tensor stated
    shards = result.addressable_shards(0, spec="[R, S1]")
    # [R, S1] on 1x2: device (0, c) holds columns 64c:64c+64 of a 64x128 tensor
    assert [s.index for s in shards] == [(slice(0, 64), slice(0, 64)), (slice(0, 64), slice(64, 128))]
    x = result.inputs["x"]
    for s in shards:
        np.testing.assert_allclose(s.data, np.exp(x[s.index]), rtol=1e-6)
    with pytest.raises(Exception, match="out of range"):
        result.addressable_shards(3)


def test_visualize_value_shows_the_compilers_choice():
    module = meshc.parse(MLP)
    h = meshc.visualize_value(module, "%h", text=False)
    assert h.spec_text == "[S0, S1]"  # [S0, R] x [R, S1]
    assert h.shape == (64, 128) and len(h.blocks) == 8
    y = meshc.visualize_value(module, "%y", text=False)
    assert y.spec_text == "[S0, R] P(1)"  # [S0, S1] x [S1, R]: contracting dim split over axis 1
    result = meshc.run(module)
    g = meshc.visualize_value(result, "%g", text=False)  # a run's values by the program's names
    assert g.spec_text == "[S0, S1]" and g.shape == (64, 128)
    lowered = meshc.visualize_value(result.module, "%g", text=False)  # the lowered module itself
    assert lowered.spec_text == "[S0, S1]" and lowered.shape == (64, 128)
    assert lowered.local is not None and lowered.local.shape == (32, 32)  # one chip's block and its pages


def test_visualize_sharding_takes_dtensor_placements():
    class Shard:  # torch.distributed.tensor's placements, by name and attribute
        def __init__(self, dim):
            self.dim = dim

    class Replicate:
        pass

    class Partial:
        pass

    view = meshc.visualize_sharding((64, 128), [Replicate(), Shard(1)], (2, 4), text=False)
    assert view.spec_text == "[R, S1]"
    assert [b.bounds for b in view.blocks] == [((0, 64), (32 * i, 32 * i + 32)) for i in range(4)]
    view = meshc.visualize_sharding((64, 128), [Shard(0), Partial()], (2, 4), text=False)
    assert view.spec_text == "[S0, R] P(1)"
    with pytest.raises(Exception, match="3 placements for a mesh of 2 dims"):
        meshc.visualize_sharding((64, 128), [Shard(0), Replicate(), Replicate()], (2, 4), text=False)


def test_named_mesh_title_is_printed_whole(capsys):
    meshc.visualize_sharding((64, 64), "[S0, R]", Mesh((2, 4), ("dp", "tp")))
    out = capsys.readouterr().out
    assert "on mesh [dp=2, tp=4]" in out  # not eaten as rich markup


os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=4")  # as test_import_jax
jax = pytest.importorskip("jax")


def _mesh():
    if len(jax.devices()) < 4:
        pytest.skip("needs 4 host devices (XLA_FLAGS set after jax started)")
    return jax.make_mesh((2, 2), ("dp", "tp"))


def test_visualize_sharding_takes_jax_shardings():
    from jax.sharding import NamedSharding, PartitionSpec as P

    mesh = _mesh()
    view = meshc.visualize_sharding((64, 128), NamedSharding(mesh, P("dp", "tp")), text=False)
    assert view.mesh.names == ("dp", "tp")
    # dp splits the rows in 2, tp the columns in 2: device (r, c) holds [32r:32r+32, 64c:64c+64]
    assert view.blocks[view.device_block[(1, 1)]].bounds == ((32, 64), (64, 128))
    view = meshc.visualize_sharding((64, 128), P(None, ("dp", "tp")), mesh, text=False)
    # columns over both axes, dp major: 4 pieces of 32, device (r, c) holds piece 2r + c
    assert view.blocks[view.device_block[(1, 0)]].bounds == ((0, 64), (64, 96))
    with pytest.raises(Exception, match="'ep'"):
        meshc.visualize_sharding((64, 128), P("ep"), mesh, text=False)
    # a spec string over a JAX Mesh: the mesh's shape and axis names (no internal AttributeError)
    view = meshc.visualize_sharding((64, 128), "[S0, S1]", mesh, text=False)
    assert view.mesh.shape == (2, 2) and view.mesh.names == ("dp", "tp")


def test_from_jax_names_inputs_as_the_function_does():
    import jax.numpy as jnp

    def layer(x, w):
        return jnp.tanh(x @ w)

    x = np.linspace(-1, 1, 8 * 16, dtype=np.float32).reshape(8, 16)
    w = np.linspace(-1, 1, 16 * 4, dtype=np.float32).reshape(16, 4)
    module = meshc.from_jax(layer, x, w)
    result = meshc.run(module, {"x": x, "w": w})
    assert list(result.inputs) == ["x", "w"]
    np.testing.assert_allclose(result.outputs[0], np.tanh(x @ w), rtol=1e-5, atol=1e-6)
