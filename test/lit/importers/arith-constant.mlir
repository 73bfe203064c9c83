// arith.constant (as tt-mlir's Shardy tests write a tensor constant) imports as stablehlo.constant
// does: the integers 1, 2, 3, -4 converted to f32 are the constant 1.0, 2.0, 3.0, -4.0 the
// multiply takes.
// RUN: meshc-import %s | filecheck %s
// CHECK: "ttir.constant"() {value = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, -4.000000e+00]> : tensor<4xf32>}
// CHECK-NEXT: "ttir.multiply"(%arg0, %0)
module {
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %c = arith.constant dense<[1, 2, 3, -4]> : tensor<4xi64>
    %0 = stablehlo.convert %c : (tensor<4xi64>) -> tensor<4xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}
