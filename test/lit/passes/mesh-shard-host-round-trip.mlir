// A tensor gathered back to the host (shard_to_full) and distributed again with another split:
// both pipelines lower the round trip through the host, and the simulator matches the golden run.
// RUN: meshc-opt %s -p ttir-to-ttnn-pipeline -o %t.ttnn.mlir
// RUN: meshc-run %t.ttnn.mlir --check | filecheck %s
// RUN: meshc-opt %s -p ttir-to-ttmetal-pipeline -o %t.ttmetal.mlir
// RUN: meshc-run %t.ttmetal.mlir --check | filecheck %s
// CHECK: check: result0 matches the golden run
// CHECK: check: result0: 0 of 4096 elements differ
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @round_trip(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = "ttir.mesh_shard"(%a) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_dims = array<i64: -1, 1>} : (tensor<64x64xf32>) -> tensor<64x32xf32>
    %e = "ttir.exp"(%0) : (tensor<64x32xf32>) -> tensor<64x32xf32>
    %1 = "ttir.mesh_shard"(%e) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2>, shard_dims = array<i64: -1, 1>} : (tensor<64x32xf32>) -> tensor<64x64xf32>
    %2 = "ttir.mesh_shard"(%1) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1>, shard_dims = array<i64: -1, 0>} : (tensor<64x64xf32>) -> tensor<32x64xf32>
    %n = "ttir.neg"(%2) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %3 = "ttir.mesh_shard"(%n) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1>, shard_dims = array<i64: -1, 0>} : (tensor<32x64xf32>) -> tensor<64x64xf32>
    func.return %3 : tensor<64x64xf32>
  }
}
