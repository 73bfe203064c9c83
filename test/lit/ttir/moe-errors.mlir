// RUN: meshc-opt %s --split-input-file --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

// top-k needs k <= number of experts
func.func @route(%l: tensor<2x2x8xf32>) {
  // CHECK: error: 'ttir.moe_route' op k = 9 must lie in [1, 8] (the number of experts)
  // expected-error @+1 {{k = 9 must lie in [1, 8] (the number of experts)}}
  %e, %w = "ttir.moe_route"(%l) {k = 9 : i64} : (tensor<2x2x8xf32>) -> (tensor<2x2x9xi32>, tensor<2x2x9xf32>)
  func.return
}
// -----
// expert ids are integers
func.func @route(%l: tensor<2x2x8xf32>) {
  // CHECK: error: 'ttir.moe_route' op expert ids must be a tensor of integers, got element type f32
  // expected-error @+1 {{expert ids must be a tensor of integers, got element type f32}}
  %e, %w = "ttir.moe_route"(%l) {k = 2 : i64} : (tensor<2x2x8xf32>) -> (tensor<2x2x2xf32>, tensor<2x2x2xf32>)
  func.return
}
// -----
// both results are [..., k]
func.func @route(%l: tensor<2x2x8xf32>) {
  // CHECK: error: 'ttir.moe_route' op weights shape (2, 2, 3) does not match the expected shape (2, 2, 2)
  // expected-error @+1 {{weights shape (2, 2, 3) does not match the expected shape (2, 2, 2)}}
  %e, %w = "ttir.moe_route"(%l) {k = 2 : i64} : (tensor<2x2x8xf32>) -> (tensor<2x2x2xi32>, tensor<2x2x3xf32>)
  func.return
}
// -----
// capacity is per DP group: the batch must split into G groups
func.func @dispatch(%t: tensor<2x2x4xf32>, %e: tensor<2x2x2xi32>) {
  // CHECK: error: 'ttir.moe_dispatch' op the batch (2) does not split into G = 3 DP groups
  // expected-error @+1 {{the batch (2) does not split into G = 3 DP groups}}
  %d, %s = "ttir.moe_dispatch"(%t, %e) : (tensor<2x2x4xf32>, tensor<2x2x2xi32>) -> (tensor<8x3x1x4xf32>, tensor<2x2x2xi32>)
  func.return
}
// -----
// the dispatched model dim is the tokens'
func.func @dispatch(%t: tensor<2x2x4xf32>, %e: tensor<2x2x2xi32>) {
  // CHECK: error: 'ttir.moe_dispatch' op dispatched model dim 2 differs from the tokens' 4
  // expected-error @+1 {{dispatched model dim 2 differs from the tokens' 4}}
  %d, %s = "ttir.moe_dispatch"(%t, %e) : (tensor<2x2x4xf32>, tensor<2x2x2xi32>) -> (tensor<8x2x1x2xf32>, tensor<2x2x2xi32>)
  func.return
}
// -----
// expert ids are one a token a choice
func.func @dispatch(%t: tensor<2x2x4xf32>, %e: tensor<2x3x2xi32>) {
  // CHECK: error: 'ttir.moe_dispatch' op expert ids (2, 3, 2) and tokens (2, 2, 4) disagree on [B, S]
  // expected-error @+1 {{expert ids (2, 3, 2) and tokens (2, 2, 4) disagree on [B, S]}}
  %d, %s = "ttir.moe_dispatch"(%t, %e) : (tensor<2x2x4xf32>, tensor<2x3x2xi32>) -> (tensor<8x2x1x4xf32>, tensor<2x3x2xi32>)
  func.return
}
// -----
// tokens are [B, S, M]
func.func @dispatch(%t: tensor<2x4xf32>, %e: tensor<2x2x2xi32>) {
  // CHECK: error: 'ttir.moe_dispatch' op tokens must be [B, S, M] (rank 3), got (2, 4)
  // expected-error @+1 {{tokens must be [B, S, M] (rank 3), got (2, 4)}}
  %d, %s = "ttir.moe_dispatch"(%t, %e) : (tensor<2x4xf32>, tensor<2x2x2xi32>) -> (tensor<8x2x1x4xf32>, tensor<2x2x2xi32>)
  func.return
}
// -----
// combine returns [B, S, N]
func.func @combine(%o: tensor<8x2x1x4xf32>, %e: tensor<2x2x2xi32>, %w: tensor<2x2x2xf32>, %s: tensor<2x2x2xi32>) {
  // CHECK: error: 'ttir.moe_combine' op result shape (2, 2, 8) does not match the expected shape (2, 2, 4)
  // expected-error @+1 {{result shape (2, 2, 8) does not match the expected shape (2, 2, 4)}}
  %y = "ttir.moe_combine"(%o, %e, %w, %s) : (tensor<8x2x1x4xf32>, tensor<2x2x2xi32>, tensor<2x2x2xf32>, tensor<2x2x2xi32>) -> tensor<2x2x8xf32>
  func.return
}
// -----
// one weight a choice
func.func @combine(%o: tensor<8x2x1x4xf32>, %e: tensor<2x2x2xi32>, %w: tensor<2x2x1xf32>, %s: tensor<2x2x2xi32>) {
  // CHECK: error: 'ttir.moe_combine' op weights shape (2, 2, 1) does not match the expected shape (2, 2, 2)
  // expected-error @+1 {{weights shape (2, 2, 1) does not match the expected shape (2, 2, 2)}}
  %y = "ttir.moe_combine"(%o, %e, %w, %s) : (tensor<8x2x1x4xf32>, tensor<2x2x2xi32>, tensor<2x2x1xf32>, tensor<2x2x2xi32>) -> tensor<2x2x4xf32>
  func.return
}
// -----
// combine's DP groups split the batch
func.func @combine(%o: tensor<8x3x1x4xf32>, %e: tensor<2x2x2xi32>, %w: tensor<2x2x2xf32>, %s: tensor<2x2x2xi32>) {
  // CHECK: error: 'ttir.moe_combine' op the batch (2) does not split into G = 3 DP groups
  // expected-error @+1 {{the batch (2) does not split into G = 3 DP groups}}
  %y = "ttir.moe_combine"(%o, %e, %w, %s) : (tensor<8x3x1x4xf32>, tensor<2x2x2xi32>, tensor<2x2x2xf32>, tensor<2x2x2xi32>) -> tensor<2x2x4xf32>
  func.return
}
