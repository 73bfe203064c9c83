// RUN: meshc-opt %s --split-input-file -p 'ttir-layout,ttir-reinterpret-grid,convert-ttir-to-ttnn' | filecheck %s

// The TT-Mesh sharding spec Example 1 on a T3K: ShardTensor2dMesh(dims=[None, 0]) of a [4, 3, 32, 32] f32 tensor.
// Golden (seed): shard_shape (x = 0, y = 96), global_buffer_shape (32, 4 * 3 * 32), ROW_MAJOR,
// global_buffer_size 4 * 3 * 32 * 32 * 4 bytes = 49152.
// CHECK: #sharded_buffer_config = #ttnn.sharded_buffer_config<global_buffer_size = 49152, shard_shape = [0, 96], global_buffer_shape = [32, 384], orientation = row_major>
// CHECK: "ttnn.get_device"() {mesh_shape = array<i64: 2, 4>, mesh_offset = array<i64: 0, 0>} : () -> !ttnn.device
// CHECK: "ttnn.distribute_tensor"(%x, %{{.*}}) {shard_dims = array<i64: -1, 0>, config = #sharded_buffer_config, memory_config = {{.*}}} : (tensor<4x3x32x32xf32>, !ttnn.device) -> tensor<1x3x32x32xf32, #ttnn_layout>
// CHECK: "ttnn.relu"
// CHECK: "ttnn.aggregate_tensor"(%{{.*}}) {shard_dims = array<i64: -1, 0>, config = #sharded_buffer_config} : (tensor<1x3x32x32xf32, #ttnn_layout>) -> tensor<4x3x32x32xf32>
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @main(%x: tensor<4x3x32x32xf32>) -> tensor<4x3x32x32xf32> {
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 4, 1, 1, 1>, shard_dims = array<i64: -1, 0>} : (tensor<4x3x32x32xf32>) -> tensor<1x3x32x32xf32>
    %1 = "ttir.relu"(%0) : (tensor<1x3x32x32xf32>) -> tensor<1x3x32x32xf32>
    %2 = "ttir.mesh_shard"(%1) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 4, 1, 1, 1>, shard_dims = array<i64: -1, 0>} : (tensor<1x3x32x32xf32>) -> tensor<4x3x32x32xf32>
    func.return %2 : tensor<4x3x32x32xf32>
  }
}

// -----
// The TT-Mesh sharding spec's unsupported case (y-dim sharded with z > 1) takes the ND form.
// CHECK: #[[ND:.*]] = #ttnn.sharded_buffer_config<nd, global_buffer_size = 8192, global_shape = [1, 2, 32, 32], shard_shape = [1, 2, 16, 32], mesh_shape = [2, 1], dim_axes = [[], [], [0], []]>
// CHECK: "ttnn.distribute_tensor"{{.*}}config = #[[ND]]
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x8, (d0, d1) -> (d0 floordiv 8, d0 mod 8, d1)>, meshShape = 2x1, chipIds = [0, 1]>} {
  func.func @nd(%x: tensor<1x2x32x32xf32>) -> tensor<1x2x32x32xf32> {
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1, 2, 1>, shard_dims = array<i64: 2, -1>} : (tensor<1x2x32x32xf32>) -> tensor<1x2x16x32xf32>
    %1 = "ttir.mesh_shard"(%0) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 1, 2, 1>, shard_dims = array<i64: 2, -1>} : (tensor<1x2x16x32xf32>) -> tensor<1x2x32x32xf32>
    func.return %1 : tensor<1x2x32x32xf32>
  }
}

// -----
// One device: arguments go to the device, results come back; memory configs from the layouts
// (the reinterpreted transpose result is block sharded in column-major order).
// CHECK-DAG: #ttnn_layout{{[0-9]*}} = #ttnn.ttnn_layout<tile<32x32>, f32, #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 7)>]>, <32x32>, <row_major>>>>
// CHECK-DAG: #ttnn_layout{{[0-9]*}} = #ttnn.ttnn_layout<tile<32x32>, f32, #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 7)>]>, <32x32>, <col_major>>>>
// CHECK-LABEL: func.func @single
// CHECK: %[[D:.*]] = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>, mesh_offset = array<i64: 0, 0>}
// CHECK: "ttnn.to_device"(%a, %[[D]]) : (tensor<64x256xf32>, !ttnn.device) -> tensor<64x256xf32>
// CHECK: "ttnn.exp"
// CHECK: "ttnn.transpose"
// CHECK: "ttnn.to_memory_config"({{.*}}) {memory_config = #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>}
// CHECK: "ttnn.from_device"
// CHECK: func.return
func.func @single(%a: tensor<64x256xf32>) -> tensor<256x64xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <1x1>, memref<8x2x!tt.tile<32x32, f32>, #tt.memory_space<dram>>>> {
  %0 = "ttir.exp"(%a) : (tensor<64x256xf32>) -> tensor<64x256xf32>
  %1 = "ttir.transpose"(%0) {dim0 = 0 : si32, dim1 = 1 : si32} : (tensor<64x256xf32>) -> tensor<256x64xf32>
  %2 = "ttir.to_layout"(%1) : (tensor<256x64xf32>) -> tensor<256x64xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <1x1>, memref<8x2x!tt.tile<32x32, f32>, #tt.memory_space<dram>>>>
  func.return %2 : tensor<256x64xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <1x1>, memref<8x2x!tt.tile<32x32, f32>, #tt.memory_space<dram>>>>
}
