// RUN: not meshc-import %s 2>&1 | filecheck %s

// A ttir program given to meshc-import is said to be ttir, not StableHLO, at its first ttir op.
// CHECK: not-stablehlo.mlir:[[# @LINE + 3]]:8: error: 'ttir.relu' op is ttir, not StableHLO: this is a ttir program, and meshc-import translates StableHLO (as JAX exports it) into ttir; run it with meshc-run or transform it with meshc-opt
// CHECK-NOT: no ttir translation
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "ttir.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
