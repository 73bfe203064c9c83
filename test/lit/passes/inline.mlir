// RUN: meshc-opt %s --split-input-file -p inline | filecheck %s

// Two calls and a call inside a callee: every call becomes the callee's ops, bottom-up; the
// private helper no call names any more is erased, the public callees stay.
// CHECK-LABEL: func.func @layer
// CHECK-NOT: func.func @helper
// CHECK-LABEL: func.func @main
// CHECK-NOT: func.call
// CHECK: %[[M:.*]] = "ttir.matmul"(%a, %b)
// CHECK-NEXT: %[[G:.*]] = "ttir.gelu"(%[[M]])
// CHECK-NEXT: %[[T:.*]] = "ttir.tanh"(%[[G]])
// CHECK-NEXT: %[[M2:.*]] = "ttir.matmul"(%[[T]], %b)
// CHECK-NEXT: %[[G2:.*]] = "ttir.gelu"(%[[M2]])
// CHECK-NEXT: %[[T2:.*]] = "ttir.tanh"(%[[G2]])
// CHECK-NEXT: func.return %[[T2]]
module {
  func.func private @helper(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = "ttir.gelu"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %0 : tensor<64x64xf32>
  }
  func.func @layer(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = "ttir.matmul"(%x, %w) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %1 = func.call @helper(%0) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %2 = "ttir.tanh"(%1) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %2 : tensor<64x64xf32>
  }
  func.func @main(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = func.call @layer(%a, %b) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %1 = func.call @layer(%0, %b) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %1 : tensor<64x64xf32>
  }
}

// -----

// A callee returning its argument and a value twice: the call's results are the caller's values.
// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[R:.*]] = "ttir.relu"(%x)
// CHECK-NEXT: %[[S:.*]] = "ttir.add"(%x, %[[R]])
// CHECK-NEXT: func.return %[[S]]
module {
  func.func private @pair(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
    %0 = "ttir.relu"(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    func.return %x, %0 : tensor<8x8xf32>, tensor<8x8xf32>
  }
  func.func @main(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0:2 = func.call @pair(%x) : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
    %1 = "ttir.add"(%0#0, %0#1) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    func.return %1 : tensor<8x8xf32>
  }
}
