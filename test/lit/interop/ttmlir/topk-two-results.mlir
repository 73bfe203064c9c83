// tt-mlir's two-result `ttir.topk` (its TTIR TopKOp: k, dim -1 when absent, largest true, sorted
// false; as tt-mlir's own tests write it, with attributes in the dictionary or as properties) is
// read as meshc's top_k + top_k_indices of the same operand, k and dim (i64, meshc's types), each
// result's uses moved to its op; a result no one uses gets no op. meshc's top_k is sorted, a valid
// answer to sorted = false too. largest = false (the k smallest) is refused, located.
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s --check-prefix=ERR

// CHECK-LABEL: func.func @both
// CHECK-NEXT: %values = "ttir.top_k"(%x) {k = 2 : i64, dim = -1 : i64} : (tensor<2x4xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %indices = "ttir.top_k_indices"(%x) {k = 2 : i64, dim = -1 : i64} : (tensor<2x4xf32>) -> tensor<2x2xi32>
// CHECK-NEXT: func.return %values, %indices
func.func @both(%x: tensor<2x4xf32>) -> (tensor<2x2xf32>, tensor<2x2xi32>) {
  %values, %indices = "ttir.topk"(%x) { k = 2 : i32} : (tensor<2x4xf32>) -> (tensor<2x2xf32>, tensor<2x2xi32>)
  return %values, %indices : tensor<2x2xf32>, tensor<2x2xi32>
}

// -----

// CHECK-LABEL: func.func @indices_only
// CHECK-NEXT: %indices = "ttir.top_k_indices"(%x) {dim = 0 : i64, k = 3 : i64} : (tensor<4x2xf32>) -> tensor<3x2xi32>
// CHECK-NEXT: func.return %indices
func.func @indices_only(%x: tensor<4x2xf32>) -> tensor<3x2xi32> {
  %values, %indices = "ttir.topk"(%x) <{dim = 0 : i32, k = 3 : i32, largest = true, sorted = false}> : (tensor<4x2xf32>) -> (tensor<3x2xf32>, tensor<3x2xi32>)
  return %indices : tensor<3x2xi32>
}

// -----

// ERR: topk-two-results.mlir:[[# @LINE + 2]]:3: error: 'ttir.topk' op largest = false asks for the k smallest elements; meshc's top_k is the k largest (JAX's top_k): write it as the top_k of the negated operand, negated back
func.func @smallest(%x: tensor<2x4xf32>) -> tensor<2x2xf32> {
  %values, %indices = "ttir.topk"(%x) <{k = 2 : i32, largest = false}> : (tensor<2x4xf32>) -> (tensor<2x2xf32>, tensor<2x2xi32>)
  return %values : tensor<2x2xf32>
}
