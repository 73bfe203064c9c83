// tt-mlir's `ttir.sort` has two results, the values and the indices (its TTIR SortOp: dim si32, -1
// when absent; descending; stable; attributes as properties). meshc reads it as `ttir.sort` and
// `ttir.sort_indices` of the same operand and attributes (meshc/dialects/ttmlir_spelling.py),
// each result's uses moved to its op (errors: sort-two-results-errors.mlir).
// RUN: meshc-opt %s | filecheck %s
// RUN: meshc-run %s --input arg0=%S/../../ttir/Inputs/sort-x.npy --check --full | filecheck %s --check-prefix=GOLD

// x = [[3, NaN, -1, 3], [0, 2, 2, -5]]. Descending, stable along the last dim, by hand: values
// [[NaN, 3, 3, -1], [2, 2, 0, -5]], positions [[1, 0, 3, 2], [1, 2, 0, 3]].
// CHECK-LABEL: func.func @main
// CHECK-NEXT: %0 = "ttir.sort"(%arg0) {dim = -1 : si32, descending = true, stable = true} : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %1 = "ttir.sort_indices"(%arg0) {dim = -1 : si32, descending = true, stable = true} : (tensor<2x4xf32>) -> tensor<2x4xi32>
// CHECK-NEXT: func.return %0, %1
// GOLD: result0: 2x4 float32
// GOLD-NEXT: {{\[\[}}nan 3. 3. -1.]
// GOLD-NEXT: [ 2. 2. 0. -5.]]
// GOLD: result1: 2x4 int32
// GOLD-NEXT: {{\[\[}}1 0 3 2]
// GOLD-NEXT: [1 2 0 3]]
// GOLD: check: result0 matches the golden run (exact)
// GOLD: check: result1 matches the golden run (exact)
func.func @main(%arg0: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xi32>) {
  %0, %1 = "ttir.sort"(%arg0) <{descending = true, stable = true}> : (tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xi32>)
  return %0, %1 : tensor<2x4xf32>, tensor<2x4xi32>
}
