// open_dims on a ttir.sharding_constraint must be distinct dims of the tensor, ascending.
// RUN: meshc-opt %s --split-input-file --verify-diagnostics

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @f(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
    // expected-error @+1 {{open_dims [2] must be distinct dims of the rank-2 tensor, in ascending order}}
    %0 = "ttir.sharding_constraint"(%x) {sharding = #tt.sharding<[R, S1]>, open_dims = array<i64: 2>} : (tensor<8x32xf32>) -> tensor<8x32xf32>
    return %0 : tensor<8x32xf32>
  }
}

// -----

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @f(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
    // expected-error @+1 {{open_dims [1, 0] must be distinct dims of the rank-2 tensor, in ascending order}}
    %0 = "ttir.sharding_constraint"(%x) {sharding = #tt.sharding<[R, S1]>, open_dims = array<i64: 1, 0>} : (tensor<8x32xf32>) -> tensor<8x32xf32>
    return %0 : tensor<8x32xf32>
  }
}
