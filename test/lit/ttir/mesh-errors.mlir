// RUN: meshc-opt %s --split-input-file --verify-diagnostics

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @f(%x: tensor<64x128xf32>) {
    // expected-error @+1 {{shard_dims has 1 entries, expected one per mesh axis of the mesh (2, 4)}}
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1>, shard_dims = array<i64: 0>} : (tensor<64x128xf32>) -> tensor<32x128xf32>
    func.return
  }
}
// -----
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @f(%x: tensor<64x6xf32>) {
    // expected-error @+1 {{tensor dim 1 of size 6 does not split into 4 equal pieces}}
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 4>, shard_dims = array<i64: 0, 1>} : (tensor<64x6xf32>) -> tensor<32x1xf32>
    func.return
  }
}
// -----
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @f(%x: tensor<32x30xf32>) {
    // expected-error @+1 {{scatter_dim 1 of size 30 does not split into 4 equal pieces}}
    %0 = "ttir.reduce_scatter"(%x) {scatter_dim = 1 : si32, cluster_axis = 1 : ui32, reduce_type = #ttir.reduce_type<sum>} : (tensor<32x30xf32>) -> tensor<32x7xf32>
    func.return
  }
}
// -----
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @f(%x: tensor<32x32xf32>) {
    // expected-error @+1 {{device 1 is a target of more than one pair}}
    %0 = "ttir.collective_permute"(%x) {source_target_pairs = dense<[[0, 1], [2, 1]]> : tensor<2x2xi64>} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    func.return
  }
}
// -----
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @f(%x: tensor<32x32xf32>) {
    // expected-error @+1 {{target device 8 of pair (0, 8) is not on the mesh of 8 devices}}
    %0 = "ttir.collective_permute"(%x) {source_target_pairs = dense<[[0, 8]]> : tensor<1x2xi64>} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    func.return
  }
}
