// ttir.sort / ttir.sort_indices (tt-mlir's sort: dim si32, the last when absent; descending;
// stable), run on both targets against the golden run, and the values checked by hand. An
// absent dim is printed as its default, -1.
// RUN: meshc-opt %s | filecheck %s --check-prefix=ROUND
// RUN: meshc-run %s --input x=%S/Inputs/sort-x.npy --check --full | filecheck %s --check-prefix=GOLD
// RUN: meshc-run %s --input x=%S/Inputs/sort-x.npy --target ttmetal --check --full | filecheck %s --check-prefix=GOLD

// ROUND: "ttir.sort"(%x) {dim = 1 : si32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
// ROUND: "ttir.sort_indices"(%x) {descending = true, stable = true, dim = -1 : si32} : (tensor<2x4xf32>) -> tensor<2x4xi32>
// ROUND: "ttir.sort"(%x) {dim = 0 : si32, descending = true} : (tensor<2x4xf32>) -> tensor<2x4xf32>
// x = [[3, NaN, -1, 3], [0, 2, 2, -5]] (Inputs/sort-x.npy). By hand: along dim 1 ascending, NaNs
// last: [[-1, 3, 3, NaN], [-5, 0, 2, 2]]; the positions descending (dim -1, the last), NaNs first,
// equals in their order: [[1, 0, 3, 2], [1, 2, 0, 3]]; along dim 0 descending: [[3, NaN, 2, 3],
// [0, 2, -1, -5]].
// GOLD: result0: 2x4 float32
// GOLD-NEXT: {{\[\[}}-1. 3. 3. nan]
// GOLD-NEXT: [-5. 0. 2. 2.]]
// GOLD: result1: 2x4 int32
// GOLD-NEXT: {{\[\[}}1 0 3 2]
// GOLD-NEXT: [1 2 0 3]]
// GOLD: result2: 2x4 float32
// GOLD-NEXT: {{\[\[}} 3. nan 2. 3.]
// GOLD-NEXT: [ 0. 2. -1. -5.]]
// GOLD: check: result0 matches the golden run (exact)
// GOLD: check: result1 matches the golden run (exact)
// GOLD: check: result2 matches the golden run (exact)
func.func @main(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xi32>, tensor<2x4xf32>) {
  %0 = "ttir.sort"(%x) {dim = 1 : si32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = "ttir.sort_indices"(%x) {descending = true, stable = true} : (tensor<2x4xf32>) -> tensor<2x4xi32>
  %2 = "ttir.sort"(%x) {dim = 0 : si32, descending = true} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0, %1, %2 : tensor<2x4xf32>, tensor<2x4xi32>, tensor<2x4xf32>
}
