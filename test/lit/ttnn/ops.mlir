// RUN: meshc-opt %s --split-input-file | filecheck %s
// RUN: meshc-opt %s --split-input-file --print-op-generic | meshc-opt --split-input-file | filecheck %s

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  // CHECK-LABEL: func.func @ops
  func.func @ops(%x: tensor<64x128xf32>, %w: tensor<32x32xf32>) -> tensor<64x128xf32> {
    // CHECK: "ttnn.get_device"() {mesh_shape = array<i64: 2, 4>, mesh_offset = array<i64: 0, 0>} : () -> !ttnn.device
    %d = "ttnn.get_device"() {mesh_shape = array<i64: 2, 4>, mesh_offset = array<i64: 0, 0>} : () -> !ttnn.device
    // CHECK: "ttnn.distribute_tensor"(%{{.*}}, %{{.*}}) {shard_dims = array<i64: 0, 1>} : (tensor<64x128xf32>, !ttnn.device) -> tensor<32x32xf32>
    %0 = "ttnn.distribute_tensor"(%x, %d) {shard_dims = array<i64: 0, 1>} : (tensor<64x128xf32>, !ttnn.device) -> tensor<32x32xf32>
    %r = "ttnn.distribute_tensor"(%w, %d) {shard_dims = array<i64: -1, -1>} : (tensor<32x32xf32>, !ttnn.device) -> tensor<32x32xf32>
    %1 = "ttnn.matmul"(%0, %r) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %2 = "ttnn.relu"(%1) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %3 = "ttnn.add"(%2, %1) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %4 = "ttnn.softmax"(%3) {dimension = 1 : si32} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %5 = "ttnn.typecast"(%4) : (tensor<32x32xf32>) -> tensor<32x32xbf16>
    %6 = "ttnn.to_layout"(%4) {layout = "row_major"} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %7 = "ttnn.to_memory_config"(%6) {memory_config = #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    // CHECK: "ttnn.all_gather"(%{{.*}}) {all_gather_dim = 1 : si32, cluster_axis = 1 : ui32} : (tensor<32x32xf32>) -> tensor<32x128xf32>
    %8 = "ttnn.all_gather"(%7) {all_gather_dim = 1 : si32, cluster_axis = 1 : ui32} : (tensor<32x32xf32>) -> tensor<32x128xf32>
    %9 = "ttnn.reduce_scatter"(%8) {scatter_dim = 1 : si32, cluster_axis = 1 : ui32, reduce_type = #ttir.reduce_type<sum>} : (tensor<32x128xf32>) -> tensor<32x32xf32>
    %10 = "ttnn.all_reduce"(%9) {cluster_axis = 0 : ui32, reduce_type = #ttir.reduce_type<sum>} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %11 = "ttnn.all_to_all"(%10) {split_dim = 0 : si32, concat_dim = 1 : si32, cluster_axis = 0 : ui32} : (tensor<32x32xf32>) -> tensor<16x64xf32>
    %12 = "ttnn.all_to_all"(%11) {split_dim = 1 : si32, concat_dim = 0 : si32, cluster_axis = 0 : ui32} : (tensor<16x64xf32>) -> tensor<32x32xf32>
    %13 = "ttnn.collective_permute"(%12) {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    // CHECK: "ttnn.aggregate_tensor"(%{{.*}}) {shard_dims = array<i64: 0, 1>} : (tensor<32x32xf32>) -> tensor<64x128xf32>
    %14 = "ttnn.aggregate_tensor"(%13) {shard_dims = array<i64: 0, 1>} : (tensor<32x32xf32>) -> tensor<64x128xf32>
    %h = "ttnn.from_device"(%5) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
    func.return %14 : tensor<64x128xf32>
  }
}
// -----
// CHECK-LABEL: func.func @single
func.func @single(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
  // CHECK: "ttnn.to_device"(%{{.*}}, %{{.*}}) : (tensor<64x128xf32>, !ttnn.device) -> tensor<64x128xf32>
  %0 = "ttnn.to_device"(%x, %d) : (tensor<64x128xf32>, !ttnn.device) -> tensor<64x128xf32>
  %1 = "ttnn.exp"(%0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
  %2 = "ttnn.from_device"(%1) : (tensor<64x128xf32>) -> tensor<64x128xf32>
  func.return %2 : tensor<64x128xf32>
}
