// tt-mlir's Device spec "Data Parallel Over Batch": 2 chips, meshShape 2x1x1, the batch split in half.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<2x8x8, (d0, d1, d2) -> (d0, d1, d2)>, meshShape = 2x1x1, chipIds = [0, 1]>} {
  func.func @main(%x: tensor<16x3x64x128xf32>) -> tensor<16x3x64x128xf32> {
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1, 1, 1>, shard_dims = array<i64: 0, -1, -1>} : (tensor<16x3x64x128xf32>) -> tensor<8x3x64x128xf32>
    %1 = "ttir.exp"(%0) : (tensor<8x3x64x128xf32>) -> tensor<8x3x64x128xf32>
    %2 = "ttir.relu"(%1) : (tensor<8x3x64x128xf32>) -> tensor<8x3x64x128xf32>
    %3 = "ttir.mesh_shard"(%2) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1, 1, 1>, shard_dims = array<i64: 0, -1, -1>} : (tensor<8x3x64x128xf32>) -> tensor<16x3x64x128xf32>
    func.return %3 : tensor<16x3x64x128xf32>
  }
}
