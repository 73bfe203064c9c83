// tt-mlir's Device spec "Data Parallel Over 2d and Batch": 4 chips as a 2x8x16 grid (meshShape 2x1x2);
// a 64x256x1024 tensor split over the batch (mesh axis 0) and the columns (mesh axis 2).
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<2x8x16, (d0, d1, d2) -> (d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1, d2 mod 8)>, meshShape = 2x1x2, chipIds = [0, 1, 2, 3]>} {
  func.func @main(%x: tensor<64x256x1024xf32>, %y: tensor<64x256x1024xf32>) -> tensor<64x256x1024xf32> {
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1, 2>, shard_dims = array<i64: 0, -1, 2>} : (tensor<64x256x1024xf32>) -> tensor<32x256x512xf32>
    %1 = "ttir.mesh_shard"(%y) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1, 2>, shard_dims = array<i64: 0, -1, 2>} : (tensor<64x256x1024xf32>) -> tensor<32x256x512xf32>
    %2 = "ttir.add"(%0, %1) : (tensor<32x256x512xf32>, tensor<32x256x512xf32>) -> tensor<32x256x512xf32>
    %3 = "ttir.sigmoid"(%2) : (tensor<32x256x512xf32>) -> tensor<32x256x512xf32>
    %4 = "ttir.mesh_shard"(%3) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1, 2>, shard_dims = array<i64: 0, -1, 2>} : (tensor<32x256x512xf32>) -> tensor<64x256x1024xf32>
    func.return %4 : tensor<64x256x1024xf32>
  }
}
