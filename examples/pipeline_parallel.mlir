// tt-mlir's Device spec, "Pipeline Parallel": two virtual devices over disjoint chips of one 8-chip
// system (a t3k), exactly as the spec writes them: chips 0-3 as a 2x8x16 grid (meshShape 2x1x2)
// and chips 4-7 as a 16x16 grid (meshShape 2x2). One program: @main runs on the host and calls
// stage 0 (tt.stage = 0, on tt.devices[0]) then stage 1 (on tt.devices[1]); the activation stage 0
// produces stays on chips 0-3 and is sent to chips 4-7 over the ethernet links that join them.
// Stage 0 holds it split over batch (mesh axis 0) and columns (mesh axis 2); stage 1 wants it split
// over batch only (mesh axis 0, replicated along axis 1): the transfer is also a reshard, each of
// chips 4-7 receiving its two column halves from the two nearest chips of 0-3 (docs/pipeline.md).
// The batch of 16 samples (the argument marked tt.batch) runs as 4 microbatches of 4 on a GPipe
// schedule: stage 0 runs microbatch m + 1 while stage 1 runs microbatch m.
//   meshc-run examples/pipeline_parallel.mlir --check --report       (or --target ttmetal)
module attributes {tt.system_desc = #tt.system_desc<t3k>, tt.devices = [#tt.device<workerGrid = #tt.grid<2x8x16, (d0, d1, d2) -> (d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1, d2 mod 8)>, meshShape = 2x1x2, chipIds = [0, 1, 2, 3]>, #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [4, 5, 6, 7]>]} {
  func.func @stage0(%x: tensor<4x64x128xf32>) -> tensor<4x64x128xf32> attributes {tt.stage = 0} {
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1, 2>, shard_dims = array<i64: 0, -1, 2>} : (tensor<4x64x128xf32>) -> tensor<2x64x64xf32>
    %1 = "ttir.tanh"(%0) : (tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
    %2 = "ttir.mesh_shard"(%1) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1, 2>, shard_dims = array<i64: 0, -1, 2>} : (tensor<2x64x64xf32>) -> tensor<4x64x128xf32>
    func.return %2 : tensor<4x64x128xf32>
  }
  func.func @stage1(%h: tensor<4x64x128xf32>, %w: tensor<128x256xf32>) -> tensor<4x64x256xf32> attributes {tt.stage = 1} {
    %0 = "ttir.mesh_shard"(%h) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1, 1>, shard_dims = array<i64: 0, -1>} : (tensor<4x64x128xf32>) -> tensor<2x64x128xf32>
    %1 = "ttir.mesh_shard"(%w) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_dims = array<i64: -1, 1>} : (tensor<128x256xf32>) -> tensor<128x128xf32>
    %2 = "ttir.matmul"(%0, %1) : (tensor<2x64x128xf32>, tensor<128x128xf32>) -> tensor<2x64x128xf32>
    %3 = "ttir.mesh_shard"(%2) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1, 2>, shard_dims = array<i64: 0, 2>} : (tensor<2x64x128xf32>) -> tensor<4x64x256xf32>
    func.return %3 : tensor<4x64x256xf32>
  }
  func.func @main(%x: tensor<4x64x128xf32> {tt.batch}, %w: tensor<128x256xf32>) -> tensor<4x64x256xf32> attributes {tt.microbatches = 4} {
    %h = func.call @stage0(%x) : (tensor<4x64x128xf32>) -> tensor<4x64x128xf32>
    %y = func.call @stage1(%h, %w) : (tensor<4x64x128xf32>, tensor<128x256xf32>) -> tensor<4x64x256xf32>
    func.return %y : tensor<4x64x256xf32>
  }
}
