// A conversion to a boolean (i1) is x != 0 held as 1 / 0 in x's type, not a typecast (which would
// keep 0.5 as 0.5 and make `not` of it 0.5); back to f32 it is the value as held.
// RUN: meshc-import %s | filecheck %s
// CHECK: %[[ZERO:.*]] = "ttir.constant"() {value = dense<0.000000e+00> : tensor<4x8xf32>}
// CHECK-NEXT: %[[B:.*]] = "ttir.ne"(%x, %[[ZERO]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[ONE:.*]] = "ttir.constant"() {value = dense<1.000000e+00> : tensor<4x8xf32>}
// CHECK-NEXT: %[[NOT:.*]] = "ttir.subtract"(%[[ONE]], %[[B]])
// CHECK-NEXT: func.return %[[NOT]] : tensor<4x8xf32>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x8xf32>) -> tensor<4x8xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<4x8xf32>):
    %0 = "stablehlo.convert"(%x) : (tensor<4x8xf32>) -> tensor<4x8xi1>
    %1 = "stablehlo.not"(%0) : (tensor<4x8xi1>) -> tensor<4x8xi1>
    %2 = "stablehlo.convert"(%1) : (tensor<4x8xi1>) -> tensor<4x8xf32>
    "func.return"(%2) : (tensor<4x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()
