// RUN: meshc-opt %s --split-input-file --verify-diagnostics -p 'ttir-layout,convert-ttir-to-ttmetal'

func.func @grid3(%a: tensor<2x64x64xf32>) {
  // expected-error @+1 {{programs run on 2-d core grids of a chip; the layout grid 2x2x2 of}}
  %0 = "ttir.exp"(%a) : (tensor<2x64x64xf32>) -> tensor<2x64x64xf32, #tt.metal_layout<(d0, d1, d2) -> (d0, d1, d2), undef, <2x2x2>, memref<1x1x1x!tt.tile<32x32, f32>, #tt.memory_space<l1>>>>
  func.return
}

// -----
// A full_to_shard mesh_shard distributes a whole tensor. A value computed from per-device pieces
// (here exp of a full_to_shard's result) is not one: each device would send its own piece as
// the whole tensor. (An op on whole tensors may feed one: run-whole-then-distributed.mlir.)
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @pieces_then_distributed(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = "ttir.mesh_shard"(%a) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1>, shard_dims = array<i64: -1, -1>} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %1 = "ttir.exp"(%0) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    // expected-error @+1 {{distributes the result of 'ttir.exp', which holds per-device pieces (it is computed from a full_to_shard's result); a full_to_shard mesh_shard distributes a whole tensor (a function argument, a shard_to_full's result, or ops on those): gather the pieces back with a shard_to_full first}}
    %2 = "ttir.mesh_shard"(%1) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_dims = array<i64: -1, 1>} : (tensor<64x64xf32>) -> tensor<64x32xf32>
    %3 = "ttir.mesh_shard"(%2) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2>, shard_dims = array<i64: -1, 1>} : (tensor<64x32xf32>) -> tensor<64x64xf32>
    func.return %3 : tensor<64x64xf32>
  }
}

// -----
// A tensor gathered back to the host may be distributed again (a round trip through the host).
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @round_trip(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = "ttir.mesh_shard"(%a) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_dims = array<i64: -1, 1>} : (tensor<64x64xf32>) -> tensor<64x32xf32>
    %1 = "ttir.mesh_shard"(%0) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2>, shard_dims = array<i64: -1, 1>} : (tensor<64x32xf32>) -> tensor<64x64xf32>
    %2 = "ttir.mesh_shard"(%1) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1>, shard_dims = array<i64: -1, 0>} : (tensor<64x64xf32>) -> tensor<32x64xf32>
    %3 = "ttir.mesh_shard"(%2) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1>, shard_dims = array<i64: -1, 0>} : (tensor<32x64xf32>) -> tensor<64x64xf32>
    func.return %3 : tensor<64x64xf32>
  }
}
// -----
func.func @linear_vector(%a: tensor<64x32xf32>, %b: tensor<32xf32>, %bias: tensor<64xf32>) {
  // expected-error @+1 {{convert-ttir-to-ttmetal lowers a linear as one matmul program when both operands have rank 2 or more, the result is the product's shape and the bias is a row, a column or a scalar of it; run ttir-decompose-ttmlir-ops first (ttir-to-ttmetal-pipeline does) for the other forms}}
  %0 = "ttir.linear"(%a, %b, %bias) : (tensor<64x32xf32>, tensor<32xf32>, tensor<64xf32>) -> tensor<64xf32>
  func.return
}
