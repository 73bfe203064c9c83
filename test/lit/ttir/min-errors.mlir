// ttir.min's verifier (tt-mlir's verifyReduceOp, every TTIR reduction's, in its words), located.
// RUN: meshc-opt %s --split-input-file --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

func.func @f(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // CHECK: min-errors.mlir:[[# @LINE + 3]]:3: error: 'ttir.min' op Reduce dimension 2 is out of range for input tensor of rank 2 (expected -2 <= dim_arg < 2)
  // CHECK-NEXT: %0 = "ttir.min"
  // expected-error @+1 {{Reduce dimension 2 is out of range for input tensor of rank 2 (expected -2 <= dim_arg < 2)}}
  %0 = "ttir.min"(%x) {dim_arg = [2 : i32], keep_dim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @f(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // CHECK: error: 'ttir.min' op Reduce dimensions are not unique: dim_arg [1, -1] names a dim twice
  // expected-error @+1 {{Reduce dimensions are not unique: dim_arg [1, -1] names a dim twice}}
  %0 = "ttir.min"(%x) {dim_arg = [1 : i32, -1 : i32], keep_dim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @f(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // CHECK: error: 'ttir.min' op Expected output shape (4, 1), got (4)
  // expected-error @+1 {{Expected output shape (4, 1), got (4)}}
  %0 = "ttir.min"(%x) {dim_arg = [1 : i32], keep_dim = true} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @f(%x: tensor<4x8xf32>) -> tensor<1xf32> {
  // CHECK: error: 'ttir.min' op Expected output shape (), got (1)
  // expected-error @+1 {{Expected output shape (), got (1)}}
  %0 = "ttir.min"(%x) : (tensor<4x8xf32>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}
