// RUN: meshc-opt %s --split-input-file --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

// A windowed ttir.point_to_point (a slice or a concatenation along a split dim): x 1x8 split
// [R, S1] over a 1x2 mesh (4 columns a device), the target the window's pieces.

// a window that is not lo, hi per dim
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @f(%x: tensor<1x4xf32>) -> tensor<1x3xf32> {
    // CHECK: error: 'ttir.point_to_point' op window [0, 1, 2] must be lo, hi per dim of the rank-2 tensor with lo <= hi
    // expected-error @+1 {{window [0, 1, 2] must be lo, hi per dim of the rank-2 tensor with lo <= hi}}
    %0 = "ttir.point_to_point"(%x) {source = "[R, S1]", target = "[R, S1]", transfers = array<i64>, window = array<i64: 0, 1, 2>} : (tensor<1x4xf32>) -> tensor<1x3xf32>
    func.return %0 : tensor<1x3xf32>
  }
}
// -----
// the result is not the window's piece: x[:, 1:7] is 6 columns, 3 a device
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @f(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
    // CHECK: error: 'ttir.point_to_point' op result shape (1, 4) does not match the expected shape (1, 3)
    // expected-error @+1 {{result shape (1, 4) does not match the expected shape (1, 3)}}
    %0 = "ttir.point_to_point"(%x) {source = "[R, S1]", target = "[R, S1]", transfers = array<i64>, window = array<i64: 0, 1, 1, 7>} : (tensor<1x4xf32>) -> tensor<1x4xf32>
    func.return %0 : tensor<1x4xf32>
  }
}
// -----
// a move outside the receiver's piece of the window: device 0 holds x[:, 1:4] of x[:, 1:7]
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @f(%x: tensor<1x4xf32>) -> tensor<1x3xf32> {
    // CHECK: error: 'ttir.point_to_point' op transfer 0: box [(0, 1), (4, 5)] is empty or lies outside device 0's target piece [(0, 1), (1, 4)]
    // expected-error @+1 {{transfer 0: box [(0, 1), (4, 5)] is empty or lies outside device 0's target piece [(0, 1), (1, 4)]}}
    %0 = "ttir.point_to_point"(%x) {source = "[R, S1]", target = "[R, S1]", transfers = array<i64: 0, 1, 0, 0, 1, 4, 5>, window = array<i64: 0, 1, 1, 7>} : (tensor<1x4xf32>) -> tensor<1x3xf32>
    func.return %0 : tensor<1x3xf32>
  }
}
// -----
// a move of elements past the tensor: x (1x8) as the second operand of a concat into 1x16 is
// the window [-8, 8); device 0's piece of it is [-8, 0), zeros, which no move sends
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @f(%x: tensor<1x4xf32>) -> tensor<1x8xf32> {
    // CHECK: error: 'ttir.point_to_point' op transfer 0: box [(0, 1), (-2, -1)] lies outside the 1x8 tensor
    // expected-error @+1 {{transfer 0: box [(0, 1), (-2, -1)] lies outside the 1x8 tensor}}
    %0 = "ttir.point_to_point"(%x) {source = "[R, S1]", target = "[R, S1]", transfers = array<i64: 0, 1, 0, 0, 1, -2, -1>, window = array<i64: 0, 1, -8, 8>} : (tensor<1x4xf32>) -> tensor<1x8xf32>
    func.return %0 : tensor<1x8xf32>
  }
}
