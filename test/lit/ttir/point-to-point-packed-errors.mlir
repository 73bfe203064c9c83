// RUN: meshc-opt %s --split-input-file --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

// ttir.point_to_point with its transfers packed (#ttir.transfers<ROWS, WIDTH, "TEXT">, as a table
// of more than 4,096 numbers is written): [S0, S1] -> [S1, S0] of a 2x2 tensor, rows of 7.
// "eJxjYIAAJijNiEbDxBnQxAEBGAAI" packs the one row [0, 2, 1, 1, 2, 0, 1] (device 2 sends
// element (1, 0) to device 1, which keeps it in [S1, S0]).

// text that is not base64
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @f(%x: tensor<1x1xf32>) -> tensor<1x1xf32> {
    // CHECK: error: 'ttir.point_to_point' op the packed transfers are not base64 of zlib-compressed int64 rows
    // expected-error @+1 {{the packed transfers are not base64 of zlib-compressed int64 rows}}
    %0 = "ttir.point_to_point"(%x) {source = "[S0, S1]", target = "[S1, S0]", transfers = #ttir.transfers<1, 7, "not base64!">} : (tensor<1x1xf32>) -> tensor<1x1xf32>
    func.return %0 : tensor<1x1xf32>
  }
}
// -----
// one row's worth of numbers said to be two rows
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @f(%x: tensor<1x1xf32>) -> tensor<1x1xf32> {
    // CHECK: error: 'ttir.point_to_point' op the packed transfers hold 7 numbers, expected 2 rows of 7 = 14
    // expected-error @+1 {{the packed transfers hold 7 numbers, expected 2 rows of 7 = 14}}
    %0 = "ttir.point_to_point"(%x) {source = "[S0, S1]", target = "[S1, S0]", transfers = #ttir.transfers<2, 7, "eJxjYIAAJijNiEbDxBnQxAEBGAAI">} : (tensor<1x1xf32>) -> tensor<1x1xf32>
    func.return %0 : tensor<1x1xf32>
  }
}
// -----
// rows of 5 numbers ([0, 2, 1, 1, 2]) for a rank-2 tensor
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @f(%x: tensor<1x1xf32>) -> tensor<1x1xf32> {
    // CHECK: error: 'ttir.point_to_point' op transfers has rows of 5 numbers, expected 7
    // expected-error @+1 {{transfers has rows of 5 numbers, expected 7 ([step, src, dst] then lo, hi per dim of the rank-2 tensor)}}
    %0 = "ttir.point_to_point"(%x) {source = "[S0, S1]", target = "[S1, S0]", transfers = #ttir.transfers<1, 5, "eJxjYIAAJijNiEbDxAEAoAAH">} : (tensor<1x1xf32>) -> tensor<1x1xf32>
    func.return %0 : tensor<1x1xf32>
  }
}
// -----
// packed rows are checked as written ones are: [0, 4, 1, 1, 2, 0, 1] names device 4 of 4
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @f(%x: tensor<1x1xf32>) -> tensor<1x1xf32> {
    // CHECK: error: 'ttir.point_to_point' op transfer 0: (4 -> 1) must join two different devices of the 4
    // expected-error @+1 {{transfer 0: (4 -> 1) must join two different devices of the 4}}
    %0 = "ttir.point_to_point"(%x) {source = "[S0, S1]", target = "[S1, S0]", transfers = #ttir.transfers<1, 7, "eJxjYIAAFijNiEYzMaACmDgAAXgACg==">} : (tensor<1x1xf32>) -> tensor<1x1xf32>
    func.return %0 : tensor<1x1xf32>
  }
}
// -----
// a negative row count
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @f(%x: tensor<1x1xf32>) -> tensor<1x1xf32> {
    // CHECK: error: #ttir.transfers<ROWS, WIDTH, "TEXT">: rows must be >= 0, got -1
    // expected-error @+1 {{#ttir.transfers<ROWS, WIDTH, "TEXT">: rows must be >= 0, got -1}}
    %0 = "ttir.point_to_point"(%x) {source = "[S0, S1]", target = "[S1, S0]", transfers = #ttir.transfers<-1, 7, "eJxjYIAAJijNiEbDxBnQxAEBGAAI">} : (tensor<1x1xf32>) -> tensor<1x1xf32>
    func.return %0 : tensor<1x1xf32>
  }
}
