// RUN: meshc-viz %s --text --value %%0 | filecheck %s
// A ttir.mesh_shard may split one dim over several mesh axes (shard_dims [1, 1]: S01). TTNN's
// ND mappers refuse a dim given twice ("dims must be unique", docs/distribution.md), so meshc-viz
// reads shard_dims as the spec they state rather than through a TTNN mapper.
// CHECK: %0: tensor<64x64xf32> (a block on every device)  [R, S01] on mesh 1x2
// CHECK: 2 blocks on 2 devices
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 2, d0 mod 8, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @main(%x: tensor<64x128xf32>) -> tensor<64x64xf32> {
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_dims = array<i64: 1, 1>} : (tensor<64x128xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
}
