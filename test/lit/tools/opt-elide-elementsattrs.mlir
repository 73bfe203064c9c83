// RUN: meshc-opt %s --mlir-elide-elementsattrs-if-larger=4 | filecheck %s
// RUN: meshc-opt %s | filecheck %s --check-prefix=FULL
// RUN: not meshc-opt %s --mlir-elide-elementsattrs-if-larger=-1 2>&1 | filecheck %s --check-prefix=NEG

// Dense literals of more than N elements print as mlir-opt elides them; a splat and a literal of
// N elements or fewer print in full.
// CHECK: arith.constant dense_resource<__elided__> : tensor<2x4xf32>
// CHECK: arith.constant dense<1.000000e+00> : tensor<64x64xf32>
// CHECK: arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
// FULL: arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00], [5.000000e+00
// NEG: meshc-opt: error: --mlir-elide-elementsattrs-if-larger=-1: N must be 0 or more

func.func @f() -> (tensor<2x4xf32>, tensor<64x64xf32>, tensor<4xi32>) {
  %0 = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %1 = arith.constant dense<1.0> : tensor<64x64xf32>
  %2 = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  func.return %0, %1, %2 : tensor<2x4xf32>, tensor<64x64xf32>, tensor<4xi32>
}
