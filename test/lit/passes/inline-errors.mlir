// RUN: meshc-opt %s --split-input-file -p inline --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file -p inline 2>&1 | filecheck %s

// A call to a declaration: nothing to inline.
module {
  func.func private @ext(%x: tensor<8x8xf32>) -> tensor<8x8xf32>
  func.func @main(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
    // CHECK: inline-errors.mlir:[[# @LINE + 2]]:5: error: 'func.call' op calls @ext, a declaration without a body; meshc inlines calls and needs the callee's ops
    // expected-error @+1 {{calls @ext, a declaration without a body}}
    %0 = func.call @ext(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    func.return %0 : tensor<8x8xf32>
  }
}

// -----

// Recursion: inlining would never end.
module {
  func.func @f(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = func.call @g(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    func.return %0 : tensor<8x8xf32>
  }
  func.func @g(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
    // CHECK: inline-errors.mlir:[[# @LINE + 2]]:5: error: 'func.call' op calls @f recursively (@f -> @g -> @f); inlining cannot end
    // expected-error @+1 {{calls @f recursively (@f -> @g -> @f); inlining cannot end}}
    %0 = func.call @f(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    func.return %0 : tensor<8x8xf32>
  }
}
