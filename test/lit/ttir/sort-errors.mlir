// ttir.sort / ttir.sort_indices: tt-mlir's SortOp verifier, in its words (each naming what it
// expected), located. tt-mlir's op has the values and the indices as two results; meshc holds them
// as two ops (as top_k's), so tt-mlir's "expected 2 results" has no meshc counterpart.
// RUN: meshc-opt %s --split-input-file --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

func.func @f(%x: tensor<64x128xbf16>) -> tensor<64x128xbf16> {
  // CHECK: sort-errors.mlir:[[# @LINE + 3]]:3: error: 'ttir.sort' op Dimension out of range (expected to be in range of [-2, 1], but got -3)
  // CHECK-NEXT: %0 = "ttir.sort"
  // expected-error @+1 {{Dimension out of range (expected to be in range of [-2, 1], but got -3)}}
  %0 = "ttir.sort"(%x) {dim = -3 : si32} : (tensor<64x128xbf16>) -> tensor<64x128xbf16>
  return %0 : tensor<64x128xbf16>
}
// -----
func.func @f(%x: tensor<64x128xbf16>) -> tensor<64x128xf32> {
  // CHECK: error: 'ttir.sort' op Sorted tensor type does not match with input tensor. (expected (64, 128) of bf16, got (64, 128) of f32)
  // expected-error @+1 {{Sorted tensor type does not match with input tensor. (expected (64, 128) of bf16, got (64, 128) of f32)}}
  %0 = "ttir.sort"(%x) {dim = -1 : si32} : (tensor<64x128xbf16>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}
// -----
func.func @f(%x: tensor<64x128xbf16>) -> tensor<64xi32> {
  // CHECK: error: 'ttir.sort_indices' op Indices shape does not match with input tensor shape. (expected (64, 128), got (64,))
  // expected-error @+1 {{Indices shape does not match with input tensor shape. (expected (64, 128), got (64,))}}
  %0 = "ttir.sort_indices"(%x) {dim = -1 : si32} : (tensor<64x128xbf16>) -> tensor<64xi32>
  return %0 : tensor<64xi32>
}
// -----
func.func @f(%x: tensor<64x128xbf16>) -> tensor<64x128xbf16> {
  // CHECK: error: 'ttir.sort_indices' op result element type bf16 is not an integer type; an index is an integer (i32, as JAX's argsort)
  // expected-error @+1 {{result element type bf16 is not an integer type; an index is an integer (i32, as JAX's argsort)}}
  %0 = "ttir.sort_indices"(%x) : (tensor<64x128xbf16>) -> tensor<64x128xbf16>
  return %0 : tensor<64x128xbf16>
}
