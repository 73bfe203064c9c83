// ttir.min: the smallest element over dim_arg (all dims when absent), keep_dim as ttir.max's. Its
// verifier is tt-mlir's verifyReduceOp, the one of every TTIR reduction, in its words (each naming
// what it expected). The op runs against numpy on both backends (TTMetal: a tile_reduce min).
// RUN: meshc-opt %s --split-input-file | filecheck %s --check-prefix=ROUND
// RUN: meshc-run %s --split-input-file --check | filecheck %s --check-prefix=GOLD
// RUN: meshc-run %s --split-input-file --target ttmetal --check | filecheck %s --check-prefix=GOLD

// ROUND: "ttir.min"(%x) {dim_arg = [1 : i32], keep_dim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
// GOLD: check: result0 matches the golden run (exact)
func.func @main(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = "ttir.min"(%x) {dim_arg = [1 : i32], keep_dim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Over every dim, kept: a 1x1 of the smallest element; and an i32 min over dim 0.
// ROUND: "ttir.min"(%x) {keep_dim = true} : (tensor<4x8xbf16>) -> tensor<1x1xbf16>
// ROUND: "ttir.min"(%i) {dim_arg = [0 : i32]} : (tensor<4x8xi32>) -> tensor<8xi32>
// GOLD: check: result0 matches the golden run (exact)
// GOLD: check: result1 matches the golden run (exact)
func.func @main(%x: tensor<4x8xbf16>, %i: tensor<4x8xi32>) -> (tensor<1x1xbf16>, tensor<8xi32>) {
  %0 = "ttir.min"(%x) {keep_dim = true} : (tensor<4x8xbf16>) -> tensor<1x1xbf16>
  %1 = "ttir.min"(%i) {dim_arg = [0 : i32]} : (tensor<4x8xi32>) -> tensor<8xi32>
  return %0, %1 : tensor<1x1xbf16>, tensor<8xi32>
}
