// ttir-decompose-selections writes ttir.sort / ttir.sort_indices with the ops TTMetal has kernels
// for: d moved last, the rows flattened (R rows of n); each element's rank, the count of elements
// that sort before it (smaller, or larger when descending; equal and earlier; NaNs above numbers),
// summed from an R x n x n cube of comparisons; place p takes the element whose rank is p (the max
// over the row of where(rank == p, x, the lowest value)). Run on TTMetal against the golden run and
// against values worked out by hand.
// RUN: meshc-opt %s --split-input-file -p ttir-decompose-selections | filecheck %s
// RUN: meshc-run %s --split-input-file --pipeline 'ttir-to-ttmetal-pipeline' --target ttmetal --input x=%S/../ttir/Inputs/sort-x.npy --check --full | filecheck %s --check-prefix=METAL

// x = [[3, NaN, -1, 3], [0, 2, 2, -5]] (2 rows of 4: a 2x4x4 cube). Ascending along dim 1, by
// hand: row 0's ranks are 3 -> 1 (only -1 before it), NaN -> 3 (every number before it), -1 -> 0,
// the second 3 -> 2 (-1 and the equal, earlier 3 before it): values [-1, 3, 3, NaN], positions
// [2, 0, 3, 1]; row 1: [-5, 0, 2, 2], positions [3, 0, 1, 2]. Along dim 0 descending (moved last
// by a permute and back): each column's larger first, the NaN first: [[3, NaN, 2, 3],
// [0, 2, -1, -5]].
// CHECK-LABEL: func.func @main
// CHECK: %[[XI:.*]] = "ttir.broadcast"(%{{.*}}) : (tensor<2x4x1xf32>) -> tensor<2x4x4xf32>
// CHECK: %[[XJ:.*]] = "ttir.broadcast"(%{{.*}}) : (tensor<2x1x4xf32>) -> tensor<2x4x4xf32>
// CHECK: "ttir.lt"(%[[XJ]], %[[XI]]) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
// CHECK: "ttir.eq"(%[[XJ]], %[[XI]])
// CHECK: "ttir.ne"(%[[XI]], %[[XI]])
// CHECK: %[[R:.*]] = "ttir.sum"(%{{.*}}) {dim_arg = [2 : i32], keep_dim = true} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
// CHECK: %[[RB:.*]] = "ttir.broadcast"(%[[R]]) : (tensor<2x4x1xf32>) -> tensor<2x4x4xf32>
// CHECK: %[[H:.*]] = "ttir.eq"(%[[RB]], %{{.*}})
// CHECK: %[[W:.*]] = "ttir.where"(%[[H]], %[[XI]], %{{.*}}) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1x1x1xf32>) -> tensor<2x4x4xf32>
// CHECK: "ttir.max"(%[[W]]) {dim_arg = [1 : i32], keep_dim = true} : (tensor<2x4x4xf32>) -> tensor<2x1x4xf32>
// CHECK: "ttir.permute"(%x) {permutation = array<i64: 1, 0>}
// CHECK: "ttir.gt"
// CHECK-NOT: "ttir.sort
// METAL: result0: 2x4 float32
// METAL-NEXT: {{\[\[}}-1. 3. 3. nan]
// METAL-NEXT: [-5. 0. 2. 2.]]
// METAL: result1: 2x4 int32
// METAL-NEXT: {{\[\[}}2 0 3 1]
// METAL-NEXT: [3 0 1 2]]
// METAL: result2: 2x4 float32
// METAL-NEXT: {{\[\[}} 3. nan 2. 3.]
// METAL-NEXT: [ 0. 2. -1. -5.]]
// METAL: check: result0 matches the golden run (exact)
// METAL: check: result1 matches the golden run (exact)
// METAL: check: result2 matches the golden run (exact)
func.func @main(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xi32>, tensor<2x4xf32>) {
  %0 = "ttir.sort"(%x) {dim = 1 : si32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = "ttir.sort_indices"(%x) {dim = 1 : si32} : (tensor<2x4xf32>) -> tensor<2x4xi32>
  %2 = "ttir.sort"(%x) {dim = 0 : si32, descending = true} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0, %1, %2 : tensor<2x4xf32>, tensor<2x4xi32>, tensor<2x4xf32>
}
