// RUN: meshc-opt %s --split-input-file --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

// ttir.point_to_point: [S0, S1] -> [S1, S0] of a 2x2 tensor; a row is
// [step, src, dst, row lo, row hi, col lo, col hi] (7 numbers for a rank-2 tensor).

// a partial row
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @f(%x: tensor<1x1xf32>) -> tensor<1x1xf32> {
    // CHECK: error: 'ttir.point_to_point' op transfers holds 6 numbers, not a whole number of rows of 7
    // expected-error @+1 {{transfers holds 6 numbers, not a whole number of rows of 7 ([step, src, dst] then lo, hi per dim of the rank-2 tensor)}}
    %0 = "ttir.point_to_point"(%x) {source = "[S0, S1]", target = "[S1, S0]", transfers = array<i64: 0, 2, 1, 1, 2, 0>} : (tensor<1x1xf32>) -> tensor<1x1xf32>
    func.return %0 : tensor<1x1xf32>
  }
}
// -----
// a device outside the mesh
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @f(%x: tensor<1x1xf32>) -> tensor<1x1xf32> {
    // CHECK: error: 'ttir.point_to_point' op transfer 0: (4 -> 1) must join two different devices of the 4
    // expected-error @+1 {{transfer 0: (4 -> 1) must join two different devices of the 4}}
    %0 = "ttir.point_to_point"(%x) {source = "[S0, S1]", target = "[S1, S0]", transfers = array<i64: 0, 4, 1, 1, 2, 0, 1>} : (tensor<1x1xf32>) -> tensor<1x1xf32>
    func.return %0 : tensor<1x1xf32>
  }
}
// -----
// a box the receiver does not keep: device 1 keeps element (1, 0) in [S1, S0], not (0, 1)
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @f(%x: tensor<1x1xf32>) -> tensor<1x1xf32> {
    // CHECK: error: 'ttir.point_to_point' op transfer 0: box [(0, 1), (1, 2)] is empty or lies outside device 1's target piece [(1, 2), (0, 1)]
    // expected-error @+1 {{transfer 0: box [(0, 1), (1, 2)] is empty or lies outside device 1's target piece [(1, 2), (0, 1)]}}
    %0 = "ttir.point_to_point"(%x) {source = "[S0, S1]", target = "[S1, S0]", transfers = array<i64: 0, 2, 1, 0, 1, 1, 2>} : (tensor<1x1xf32>) -> tensor<1x1xf32>
    func.return %0 : tensor<1x1xf32>
  }
}
// -----
// steps run in order
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @f(%x: tensor<1x1xf32>) -> tensor<1x1xf32> {
    // CHECK: error: 'ttir.point_to_point' op transfer 1: steps must not decrease (step 0 after step 1)
    // expected-error @+1 {{transfer 1: steps must not decrease (step 0 after step 1)}}
    %0 = "ttir.point_to_point"(%x) {source = "[S0, S1]", target = "[S1, S0]", transfers = array<i64: 1, 2, 1, 1, 2, 0, 1, 0, 1, 2, 0, 1, 1, 2>} : (tensor<1x1xf32>) -> tensor<1x1xf32>
    func.return %0 : tensor<1x1xf32>
  }
}
// -----
// the result is the target's local shape
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @f(%x: tensor<1x1xf32>) -> tensor<2x1xf32> {
    // CHECK: error: 'ttir.point_to_point' op result shape (2, 1) does not match the expected shape (1, 1)
    // expected-error @+1 {{result shape (2, 1) does not match the expected shape (1, 1)}}
    %0 = "ttir.point_to_point"(%x) {source = "[S0, S1]", target = "[S1, S0]", transfers = array<i64: 0, 2, 1, 1, 2, 0, 1>} : (tensor<1x1xf32>) -> tensor<2x1xf32>
    func.return %0 : tensor<2x1xf32>
  }
}
