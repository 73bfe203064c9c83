// tt-mlir's Device spec "Pipeline Parallel": two non-overlapping virtual devices over an 8-chip system,
// one module (stage) each: chips 0-3 as a 2x8x16 grid (meshShape 2x1x2) and chips 4-7 as a
// 16x16 grid (meshShape 2x2). Stage 0 produces the activation stage 1 consumes.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<2x8x16, (d0, d1, d2) -> (d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1, d2 mod 8)>, meshShape = 2x1x2, chipIds = [0, 1, 2, 3]>} {
  func.func @stage0(%x: tensor<4x64x128xf32>) -> tensor<4x64x128xf32> {
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1, 2>, shard_dims = array<i64: 0, -1, 2>} : (tensor<4x64x128xf32>) -> tensor<2x64x64xf32>
    %1 = "ttir.tanh"(%0) : (tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
    %2 = "ttir.mesh_shard"(%1) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1, 2>, shard_dims = array<i64: 0, -1, 2>} : (tensor<2x64x64xf32>) -> tensor<4x64x128xf32>
    func.return %2 : tensor<4x64x128xf32>
  }
}
// -----
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [4, 5, 6, 7]>} {
  func.func @stage1(%h: tensor<256x128xf32>, %w: tensor<128x256xf32>) -> tensor<256x256xf32> {
    %0 = "ttir.mesh_shard"(%h) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1>, shard_dims = array<i64: 0, -1>} : (tensor<256x128xf32>) -> tensor<128x128xf32>
    %1 = "ttir.mesh_shard"(%w) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_dims = array<i64: -1, 1>} : (tensor<128x256xf32>) -> tensor<128x128xf32>
    %2 = "ttir.matmul"(%0, %1) : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>
    %3 = "ttir.mesh_shard"(%2) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 2>, shard_dims = array<i64: 0, 1>} : (tensor<128x128xf32>) -> tensor<256x256xf32>
    func.return %3 : tensor<256x256xf32>
  }
}
