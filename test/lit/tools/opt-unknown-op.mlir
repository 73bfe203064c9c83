// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

// An operation or dialect name no dialect registers: located, with the closest registered name.
// CHECK: opt-unknown-op.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: Operation ttir.matmull is not registered; did you mean 'ttir.matmul'?
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = "ttir.matmull"(%a, %a) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return %0 : tensor<4x4xf32>
}

// -----

// CHECK: opt-unknown-op.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: Operation ttir.rellu is not registered; did you mean 'ttir.relu'?
func.func @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ttir.rellu %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// Nothing close: no suggestion.
// CHECK: opt-unknown-op.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: Operation ttir.zzzzzzzz is not registered{{$}}
func.func @h(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "ttir.zzzzzzzz"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
