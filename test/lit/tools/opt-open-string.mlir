// RUN: not meshc-opt %s 2>&1 | filecheck %s
// A string literal left open is located, quickly (xDSL's lexer alone would backtrack for ages).
// Quotes in comments do not count, even an odd one: "

func.func @f(%arg0: tensor<64x256xf32>) -> tensor<1x256xf32> {
  %m = "ttir.max"(%arg0) {"(%arg0) {dim_arg = [0 : i32]} : (tensor<64x256xf32>) -> tensor<1x256xf32>
  func.return %m : tensor<1x256xf32>
}
// CHECK: opt-open-string.mlir:6:27: error: string literal is not closed on its line
// CHECK-NEXT: {{.*}}%m = "ttir.max"
