// --emit=ttmlir prints a forward scan as tt-mlir's cumsum with no reverse attribute (meshc's
// `reverse = false` dropped); meshc's ttir.cumprod keeps its name (tt-mlir has only TTNN's cumprod).
// Read back, it is the module it was printed from.
// RUN: meshc-opt %s --emit=ttmlir -o %t.mlir
// RUN: filecheck %s < %t.mlir
// RUN: meshc-opt %t.mlir | filecheck %s --check-prefix=BACK

// CHECK-LABEL: sym_name = "forward"
// CHECK: "ttir.cumsum"(%x) <{dim = 1 : i64}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: "ttir.cumprod"(%x) <{dim = 0 : i64}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NOT: reverse
// BACK: "ttir.cumsum"(%x) {dim = 1 : i64}
// BACK: "ttir.cumprod"(%x) {dim = 0 : i64}
func.func @forward(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = "ttir.cumsum"(%x) {dim = 1 : i64, reverse = false} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = "ttir.cumprod"(%x) {dim = 0 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}
