// The TT-Mesh sharding spec Example 1: ShardTensor2dMesh(dims=[None, 0]): b sharded across mesh columns, replicated down rows on a T3K (2x4 mesh).
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @main(%x: tensor<4x3x32x32xf32>) -> tensor<4x3x32x32xf32> {
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 4, 1, 1, 1>, shard_dims = array<i64: -1, 0>} : (tensor<4x3x32x32xf32>) -> tensor<1x3x32x32xf32>
    %1 = "ttir.relu"(%0) : (tensor<1x3x32x32xf32>) -> tensor<1x3x32x32xf32>
    %2 = "ttir.mesh_shard"(%1) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 4, 1, 1, 1>, shard_dims = array<i64: -1, 0>} : (tensor<1x3x32x32xf32>) -> tensor<4x3x32x32xf32>
    func.return %2 : tensor<4x3x32x32xf32>
  }
}
