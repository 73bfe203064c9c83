// RUN: meshc-run %s --check --report | filecheck %s
// RUN: meshc-run %s --check --target ttmetal | filecheck %s --check-prefix=METAL

// A bf16 row-parallel matmul on two chips (1x2) with an all_reduce. bf16 costs 2 B an element on
// the link: the all_reduce of 64x64 bf16 (4096 elements) between two devices is a reduce-scatter
// (one half, 2048 elements = 4096 B, each way) and an all-gather (4096 B each way): 8,192 B on
// each direction of the one link. The check uses the bf16 tolerance (docs/simulator.md).
// CHECK: chip 0 -> chip 1 │   8,192
// CHECK: chip 1 -> chip 0 │   8,192
// CHECK: total{{ *}}│  16,384
// CHECK: check: result0 matches the golden run (within the bf16 tolerance)
// METAL: check: result0 matches the golden run (within the bf16 tolerance)
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @main(%x: tensor<64x128xbf16>, %w: tensor<128x64xbf16>) -> tensor<64x64xbf16> {
    %xs = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_dims = array<i64: -1, 1>} : (tensor<64x128xbf16>) -> tensor<64x64xbf16>
    %ws = "ttir.mesh_shard"(%w) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1>, shard_dims = array<i64: -1, 0>} : (tensor<128x64xbf16>) -> tensor<64x64xbf16>
    %y = "ttir.matmul"(%xs, %ws) : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
    %r = "ttir.all_reduce"(%y) {cluster_axis = 1 : ui32, reduce_type = #ttir.reduce_type<sum>} : (tensor<64x64xbf16>) -> tensor<64x64xbf16>
    %o = "ttir.mesh_shard"(%r) {shard_type = #ttir.shard_type<replicate>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 1>, shard_dims = array<i64: -1, -1>} : (tensor<64x64xbf16>) -> tensor<64x64xbf16>
    func.return %o : tensor<64x64xbf16>
  }
}
