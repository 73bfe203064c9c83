// RUN: meshc-opt %s -p 'ttir-to-ttnn-pipeline{system=t3k mesh-shape=2,4}' | filecheck %s --check-prefix=TTNN
// RUN: meshc-opt %s -p 'ttir-to-ttmetal-pipeline{system=t3k mesh-shape=2,4 memory-space=dram memory-layout=interleaved}' | filecheck %s --check-prefix=METAL
// RUN: not meshc-opt %s -p 'ttir-to-ttnn-pipeline{system=n300 mesh-shape=2,4}' 2>&1 | filecheck %s --check-prefix=FIT

// Options reach tt-register-device (the 2x4 device), ttir-layout (DRAM, interleaved) and the backend.
// TTNN: #device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4
// TTNN: "ttnn.get_device"() {mesh_shape = array<i64: 2, 4>
// TTNN: "ttnn.distribute_tensor"{{.*}}shard_dims = array<i64: 0, 1>{{.*}} -> tensor<32x32xf32, #ttnn_layout>
// TTNN: "ttnn.exp"
// TTNN: "ttnn.aggregate_tensor"
// METAL: "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>, tile = array<i64: 32, 32>} : () -> !ttmetal.buffer<32x32xf32>
// METAL: "ttmetal.enqueue_program"
// METAL: }) {grid = array<i64: 1, 1>}
// METAL: "ttmetal.enqueue_read_buffer"
// FIT: error: 'builtin.module' op mesh 2x4 needs 8 chips, but system 'n300' has 2 (chip mesh 1x2)
module {
  func.func @main(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 4>, shard_dims = array<i64: 0, 1>} : (tensor<64x128xf32>) -> tensor<32x32xf32>
    %1 = "ttir.exp"(%0) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %2 = "ttir.mesh_shard"(%1) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 4>, shard_dims = array<i64: 0, 1>} : (tensor<32x32xf32>) -> tensor<64x128xf32>
    func.return %2 : tensor<64x128xf32>
  }
}
