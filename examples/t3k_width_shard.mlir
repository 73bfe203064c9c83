// The TT-Mesh sharding spec Example 2: ShardTensor2dMesh(dims=[3, None]): x sharded across mesh rows, replicated along columns on a T3K (2x4 mesh).
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @main(%x: tensor<32x3x128x256xf32>) -> tensor<32x3x128x256xf32> {
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1, 1, 2>, shard_dims = array<i64: 3, -1>} : (tensor<32x3x128x256xf32>) -> tensor<32x3x128x128xf32>
    %1 = "ttir.relu"(%0) : (tensor<32x3x128x128xf32>) -> tensor<32x3x128x128xf32>
    %2 = "ttir.mesh_shard"(%1) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 1, 1, 2>, shard_dims = array<i64: 3, -1>} : (tensor<32x3x128x128xf32>) -> tensor<32x3x128x256xf32>
    func.return %2 : tensor<32x3x128x256xf32>
  }
}
