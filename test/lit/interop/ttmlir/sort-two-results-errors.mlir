// tt-mlir's two-result `ttir.sort`, read as ttir.sort + ttir.sort_indices: the verifier's errors, in
// tt-mlir's words, at the line of the op as written (each of the two ops reports its own).
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

// CHECK: sort-two-results-errors.mlir:[[# @LINE + 2]]:3: error: 'ttir.sort' op Dimension out of range (expected to be in range of [-2, 1], but got -3)
func.func @main(%arg0: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xi32>) {
  %0, %1 = "ttir.sort"(%arg0) <{dim = -3 : si32}> : (tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xi32>)
  return %0, %1 : tensor<2x4xf32>, tensor<2x4xi32>
}

// -----

// CHECK: sort-two-results-errors.mlir:[[# @LINE + 2]]:3: error: 'ttir.sort_indices' op Indices shape does not match with input tensor shape. (expected (2, 4), got (2,))
func.func @main(%arg0: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2xi32>) {
  %0, %1 = "ttir.sort"(%arg0) <{dim = 1 : si32}> : (tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2xi32>)
  return %0, %1 : tensor<2x4xf32>, tensor<2xi32>
}
