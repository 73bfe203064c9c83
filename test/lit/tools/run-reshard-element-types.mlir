// RUN: meshc-run %s --check | filecheck %s

// A ttir.reshard on ui16 runs in the golden run as on the simulator: its data type (u16) comes
// from the one element-type table (meshc.dialects.element_types), as every layer's does.
// CHECK: result0: 64x128 uint16
// CHECK: check: result0 matches the golden run (exact)
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @main(%x: tensor<64x128xui16>) -> tensor<64x128xui16> {
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<replicate>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1>, shard_dims = array<i64: -1, -1>} : (tensor<64x128xui16>) -> tensor<64x128xui16>
    %1 = "ttir.reshard"(%0) {source = "[R, R]", target = "[R, S1]"} : (tensor<64x128xui16>) -> tensor<64x64xui16>
    %2 = "ttir.mesh_shard"(%1) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2>, shard_dims = array<i64: -1, 1>} : (tensor<64x64xui16>) -> tensor<64x128xui16>
    func.return %2 : tensor<64x128xui16>
  }
}
