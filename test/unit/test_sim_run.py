"""meshc.run / the runner: the golden interpreter against numpy, the simulator against the
golden run, traffic of a lowered program, and bad input."""

import math

import numpy as np
import pytest

import meshc
from meshc import run
from meshc.interp.runner import RunError, run_golden

DEVICE_2x4 = ("#tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, "
              "d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>")

TP_MLP = f"""
module attributes {{tt.device = {DEVICE_2x4}}} {{
  func.func @main(%x: tensor<16x64xf32>, %w: tensor<64x32xf32>) -> tensor<16x32xf32> {{
    %xs = "ttir.mesh_shard"(%x) {{shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1>, shard_dims = array<i64: 0, -1>}} : (tensor<16x64xf32>) -> tensor<8x64xf32>
    %ws = "ttir.mesh_shard"(%w) {{shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 4>, shard_dims = array<i64: -1, 1>}} : (tensor<64x32xf32>) -> tensor<64x8xf32>
    %y = "ttir.matmul"(%xs, %ws) : (tensor<8x64xf32>, tensor<64x8xf32>) -> tensor<8x8xf32>
    %g = "ttir.all_gather"(%y) {{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}} : (tensor<8x8xf32>) -> tensor<8x32xf32>
    %r = "ttir.gelu"(%g) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %o = "ttir.mesh_shard"(%r) {{shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1>, shard_dims = array<i64: 0, -1>}} : (tensor<8x32xf32>) -> tensor<16x32xf32>
    func.return %o : tensor<16x32xf32>
  }}
}}
"""


def gelu(x):
    c = math.sqrt(2 / math.pi)
    return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x ** 3)))


def test_golden_tensor_parallel_matmul_equals_numpy():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((16, 64)).astype(np.float32)
    w = rng.standard_normal((64, 32)).astype(np.float32)
    r = run_golden(meshc.parse(TP_MLP), {"x": x, "w": w})
    np.testing.assert_allclose(r.outputs[0], gelu(x.astype(np.float64) @ w), rtol=1e-4, atol=1e-4)


def test_simulated_run_matches_golden_and_counts_the_all_gather():
    module = meshc.parse(TP_MLP)
    g = run_golden(module, seed=3)
    r = run(module, seed=3)
    np.testing.assert_allclose(r.outputs[0], g.outputs[0], rtol=1e-5, atol=1e-6)
    # the only ethernet traffic is the all_gather of 8x8 f32 pieces (256 B) along each row of 4
    # chips, a line: hop counts 1, 2, 3 each way (see test_sim_collectives)
    assert r.traffic.link_bytes == 2 * 2 * (1 + 2 + 3) * 256
    assert r.traffic.link[(0, 4)] == 0
    assert sum(r.traffic.device_to_host.values()) >= 16 * 32 * 4
    assert r.time_estimate > 0
    assert set(r.memory) == set(range(8))


def test_missing_input_and_wrong_shape_are_errors():
    module = meshc.parse(TP_MLP)
    x = np.zeros((16, 64), np.float32)
    with pytest.raises(RunError, match="missing input 'w'"):
        run_golden(module, {"x": x})
    with pytest.raises(RunError, match=r"input 'w' has shape 64x16, but @main takes tensor<64x32xf32>"):
        run_golden(module, {"x": x, "w": np.zeros((64, 16), np.float32)})
    with pytest.raises(RunError, match="has no input named 'v'"):
        run_golden(module, {"v": x}, seed=0)


OUT_OF_L1 = """
module {
  func.func @main(%x: tensor<2048x512xf32>) -> tensor<2048x512xf32> {
    %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
    %a = "ttnn.to_device"(%x, %d) {memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <height_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 0)>]>, <1024x512>, <row_major>>>} : (tensor<2048x512xf32>, !ttnn.device) -> tensor<2048x512xf32>
    %b = "ttnn.from_device"(%a) : (tensor<2048x512xf32>) -> tensor<2048x512xf32>
    func.return %b : tensor<2048x512xf32>
  }
}
"""


def test_out_of_l1_is_a_located_run_error():
    module = meshc.parse(OUT_OF_L1)
    with pytest.raises(RunError) as e:
        run(module, seed=0)
    assert "2097152 B" in e.value.message and "B short" in e.value.message
    assert e.value.op is not None and e.value.op.name == "ttnn.to_device"
