// RUN: meshc-opt %s | filecheck %s
// The SPMD ops on a 2x4 mesh: local shapes follow the mesh.

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  // CHECK-LABEL: func.func @spmd
  func.func @spmd(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
    // CHECK: "ttir.mesh_shard"(%{{.*}}) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 4>, shard_dims = array<i64: 0, 1>} : (tensor<64x128xf32>) -> tensor<32x32xf32>
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 4>, shard_dims = array<i64: 0, 1>} : (tensor<64x128xf32>) -> tensor<32x32xf32>
    // CHECK: "ttir.all_gather"{{.*}} -> tensor<32x128xf32>
    %1 = "ttir.all_gather"(%0) {all_gather_dim = 1 : si32, cluster_axis = 1 : ui32} : (tensor<32x32xf32>) -> tensor<32x128xf32>
    %2 = "ttir.reduce_scatter"(%1) {scatter_dim = 1 : si32, cluster_axis = 1 : ui32, reduce_type = #ttir.reduce_type<sum>} : (tensor<32x128xf32>) -> tensor<32x32xf32>
    %3 = "ttir.all_reduce"(%2) {cluster_axis = 0 : ui32, reduce_type = #ttir.reduce_type<max>} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %4 = "ttir.all_to_all"(%3) {split_dim = 0 : si32, concat_dim = 1 : si32, cluster_axis = 0 : ui32} : (tensor<32x32xf32>) -> tensor<16x64xf32>
    %5 = "ttir.all_to_all"(%4) {split_dim = 1 : si32, concat_dim = 0 : si32, cluster_axis = 0 : ui32} : (tensor<16x64xf32>) -> tensor<32x32xf32>
    // CHECK: "ttir.collective_permute"
    %6 = "ttir.collective_permute"(%5) {source_target_pairs = dense<[[0, 1], [1, 0], [4, 5], [5, 4]]> : tensor<4x2xi64>} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %7 = "ttir.mesh_shard"(%6) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 4>, shard_dims = array<i64: 0, 1>} : (tensor<32x32xf32>) -> tensor<64x128xf32>
    func.return %7 : tensor<64x128xf32>
  }
}
