// ttir.slice (tt-mlir's spelling: begins, ends, step, one entry a dim) and its verifier, and the
// ttmetal tile ops of the select kernels (tile_slice, tile_concat, tile_embedding).
// RUN: meshc-opt %s --split-input-file --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

// Rows 1, 3, 5 (1 to 7 by 2) and columns 3 to 8: 3x5.
func.func @ok(%x: tensor<8x8xf32>) -> tensor<3x5xf32> {
  %0 = "ttir.slice"(%x) {begins = [1 : i32, 3 : i32], ends = [7 : i32, 8 : i32], step = [2 : i32, 1 : i32]} : (tensor<8x8xf32>) -> tensor<3x5xf32>
  func.return %0 : tensor<3x5xf32>
}
// -----
func.func @shape(%x: tensor<8x8xf32>) -> tensor<4x5xf32> {
  // CHECK: slice.mlir:[[# @LINE + 2]]:3: error: 'ttir.slice' op result shape (4, 5) does not match the expected shape (3, 5)
  // expected-error @+1 {{result shape (4, 5) does not match the expected shape (3, 5)}}
  %0 = "ttir.slice"(%x) {begins = [1 : i32, 3 : i32], ends = [7 : i32, 8 : i32], step = [2 : i32, 1 : i32]} : (tensor<8x8xf32>) -> tensor<4x5xf32>
  func.return %0 : tensor<4x5xf32>
}
// -----
func.func @past_the_end(%x: tensor<8x8xf32>) -> tensor<8x2xf32> {
  // CHECK: error: 'ttir.slice' op dim 1 of (8, 8) sliced from 6 to 10; expected 0 <= begin <= end <= 8
  // expected-error @+1 {{dim 1 of (8, 8) sliced from 6 to 10; expected 0 <= begin <= end <= 8}}
  %0 = "ttir.slice"(%x) {begins = [0 : i32, 6 : i32], ends = [8 : i32, 10 : i32], step = [1 : i32, 1 : i32]} : (tensor<8x8xf32>) -> tensor<8x2xf32>
  func.return %0 : tensor<8x2xf32>
}
// -----
func.func @step(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK: error: 'ttir.slice' op step 0 of dim 0 must be 1 or more
  // expected-error @+1 {{step 0 of dim 0 must be 1 or more}}
  %0 = "ttir.slice"(%x) {begins = [0 : i32, 0 : i32], ends = [8 : i32, 8 : i32], step = [0 : i32, 1 : i32]} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  func.return %0 : tensor<8x8xf32>
}
// -----
func.func @entries(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK: error: 'ttir.slice' op ends has 1 entries, expected one per dim of (8, 8) (2)
  // expected-error @+1 {{ends has 1 entries, expected one per dim of (8, 8) (2)}}
  %0 = "ttir.slice"(%x) {begins = [0 : i32, 0 : i32], ends = [8 : i32], step = [1 : i32, 1 : i32]} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  func.return %0 : tensor<8x8xf32>
}
// -----
func.func @tile_slice(%x: tensor<16x4xf32>) -> tensor<12x4xf32> {
  // CHECK: error: 'ttmetal.tile_slice' op result block (12, 4) holds 48 elements, expected the 36 of shape (4, 3, 3)
  // expected-error @+1 {{result block (12, 4) holds 48 elements, expected the 36 of shape (4, 3, 3)}}
  %0 = "ttmetal.tile_slice"(%x) {shape = array<i64: 4, 4, 4>, begins = array<i64: 0, 1, 1>, ends = array<i64: 4, 4, 4>, step = array<i64: 1, 1, 1>} : (tensor<16x4xf32>) -> tensor<12x4xf32>
  func.return %0 : tensor<12x4xf32>
}
// -----
func.func @tile_concat(%a: tensor<4x16xf32>, %b: tensor<4x8xf32>) -> tensor<4x24xf32> {
  // CHECK: error: 'ttmetal.tile_concat' op sizes [16, 4] must give each of the 2 blocks its extent along dim 1, adding up to 24
  // expected-error @+1 {{sizes [16, 4] must give each of the 2 blocks its extent along dim 1, adding up to 24}}
  %0 = "ttmetal.tile_concat"(%a, %b) {shape = array<i64: 4, 24>, sizes = array<i64: 16, 4>, dim = 1 : i64} : (tensor<4x16xf32>, tensor<4x8xf32>) -> tensor<4x24xf32>
  func.return %0 : tensor<4x24xf32>
}
// -----
func.func @tile_embedding(%i: tensor<2x8xi32>, %w: tensor<16x32xf32>) -> tensor<16x16xf32> {
  // CHECK: error: 'ttmetal.tile_embedding' op result block (16, 16) holds 256 elements, expected the 512 of shape (16, 32)
  // expected-error @+1 {{result block (16, 16) holds 256 elements, expected the 512 of shape (16, 32)}}
  %0 = "ttmetal.tile_embedding"(%i, %w) : (tensor<2x8xi32>, tensor<16x32xf32>) -> tensor<16x16xf32>
  func.return %0 : tensor<16x16xf32>
}
