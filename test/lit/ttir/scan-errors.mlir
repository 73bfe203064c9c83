// RUN: meshc-opt %s --split-input-file --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

// ttir.cumsum, ttir.argmax, ttir.argmin, ttir.top_k, ttir.top_k_indices: their verifiers.

func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK: error: 'ttir.cumsum' op dim 2 is out of range for a tensor of rank 2 (expected -2 <= dim < 2)
  // expected-error @+1 {{dim 2 is out of range for a tensor of rank 2 (expected -2 <= dim < 2)}}
  %0 = "ttir.cumsum"(%x) {dim = 2 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
// -----
func.func @f(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // CHECK: error: 'ttir.argmax' op result element type f32 is not an integer type; an index is an integer (i32, as JAX's argmax)
  // expected-error @+1 {{result element type f32 is not an integer type; an index is an integer (i32, as JAX's argmax)}}
  %0 = "ttir.argmax"(%x) {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @f(%x: tensor<4x8xf32>) -> tensor<4xi32> {
  // CHECK: error: 'ttir.argmin' op result shape (4,) does not match the expected shape (4, 1)
  // expected-error @+1 {{result shape (4,) does not match the expected shape (4, 1)}}
  %0 = "ttir.argmin"(%x) {dim = 1 : i64, keep_dim = true} : (tensor<4x8xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
// -----
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x9xf32> {
  // CHECK: error: 'ttir.top_k' op k = 9 must be between 1 and the 8 elements of dim 1
  // expected-error @+1 {{k = 9 must be between 1 and the 8 elements of dim 1}}
  %0 = "ttir.top_k"(%x) {k = 9 : i64, dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x9xf32>
  return %0 : tensor<4x9xf32>
}
// -----
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
  // CHECK: error: 'ttir.top_k_indices' op result element type f32 is not an integer type; an index is an integer (i32, as JAX's top_k)
  // expected-error @+1 {{result element type f32 is not an integer type; an index is an integer (i32, as JAX's top_k)}}
  %0 = "ttir.top_k_indices"(%x) {k = 2 : i64, dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
