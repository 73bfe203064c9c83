// RUN: meshc-opt %s --split-input-file --verify-diagnostics
// The kernel ops that move elements within a core (tile_permute, tile_broadcast) and the batched
// tile_matmul: each malformed attribute or block is a located error naming what it expected.

func.func @permute_size(%t: tensor<4x8xf32>) {
  // expected-error @+1 {{input block (4, 8) holds 32 elements, expected the 16 of shape (4, 4)}}
  %0 = "ttmetal.tile_permute"(%t) {shape = array<i64: 4, 4>, permutation = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  func.return
}
// -----
// A negative dim is refused, even where the product of the dims is the block's.
func.func @permute_negative(%t: tensor<4x8xf32>) {
  // expected-error @+1 {{shape (-4, -8) of the input block has a negative dim}}
  %0 = "ttmetal.tile_permute"(%t) {shape = array<i64: -4, -8>, permutation = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  func.return
}
// -----
func.func @permute_perm(%t: tensor<4x8xf32>) {
  // expected-error @+1 {{permutation [0, 0] is not a permutation of the 2 dims of shape (4, 8)}}
  %0 = "ttmetal.tile_permute"(%t) {shape = array<i64: 4, 8>, permutation = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  func.return
}
// -----
func.func @permute_result(%t: tensor<4x8xf32>) {
  // expected-error @+1 {{result block (8, 8) holds 64 elements, expected the 32 of shape (8, 4)}}
  %0 = "ttmetal.tile_permute"(%t) {shape = array<i64: 4, 8>, permutation = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x8xf32>
  func.return
}
// -----
func.func @broadcast_rank(%t: tensor<1x8xf32>) {
  // expected-error @+1 {{shape (1, 8) does not broadcast to (4, 4)}}
  %0 = "ttmetal.tile_broadcast"(%t) {shape = array<i64: 1, 8>, to = array<i64: 4, 4>} : (tensor<1x8xf32>) -> tensor<4x4xf32>
  func.return
}
// -----
func.func @broadcast_result(%t: tensor<1x8xf32>) {
  // expected-error @+1 {{result block (4, 4) holds 16 elements, expected the 32 of shape (4, 8)}}
  %0 = "ttmetal.tile_broadcast"(%t) {shape = array<i64: 1, 8>, to = array<i64: 4, 8>} : (tensor<1x8xf32>) -> tensor<4x4xf32>
  func.return
}
// -----
func.func @matmul_batch(%a: tensor<6x8xf32>, %b: tensor<16x4xf32>) {
  // expected-error @+1 {{batch 4 must be positive and split the rows of both blocks (6, 8) and (16, 4)}}
  %0 = "ttmetal.tile_matmul"(%a, %b) {batch = 4 : i64} : (tensor<6x8xf32>, tensor<16x4xf32>) -> tensor<6x4xf32>
  func.return
}
// -----
// Two 4x8 by 8x4 products stacked by rows: an 8x4 result; 4x4 is one product's.
func.func @matmul_batch_result(%a: tensor<8x8xf32>, %b: tensor<16x4xf32>) {
  // expected-error @+1 {{result block (4, 4) does not match (8, 4)}}
  %0 = "ttmetal.tile_matmul"(%a, %b) {batch = 2 : i64} : (tensor<8x8xf32>, tensor<16x4xf32>) -> tensor<4x4xf32>
  func.return
}
