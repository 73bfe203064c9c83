// stablehlo.is_finite, which jax.nn.logsumexp writes to guard its max
// (`where(isfinite(m), m, 0)`): -inf < x < inf as gt and lt (1 / 0 in x's element type; a NaN
// compares false to both) multiplied; then run on both backends against the golden run.
// RUN: meshc-import %s -o %t.mlir
// RUN: filecheck %s < %t.mlir
// RUN: meshc-run %t.mlir --seed 0 --check | filecheck %s --check-prefix=RESULT
// RUN: meshc-run %t.mlir --seed 0 --target ttmetal --check | filecheck %s --check-prefix=RESULT
// CHECK-LABEL: func.func @main
// CHECK: %[[NINF:.*]] = "ttir.constant"() {value = dense<0xff800000> : tensor<8x32xf32>}
// CHECK: %[[GT:.*]] = "ttir.gt"(%x, %[[NINF]]) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
// CHECK: %[[INF:.*]] = "ttir.constant"() {value = dense<0x7f800000> : tensor<8x32xf32>}
// CHECK: %[[LT:.*]] = "ttir.lt"(%x, %[[INF]]) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
// CHECK: %[[F:.*]] = "ttir.multiply"(%[[GT]], %[[LT]]) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
// CHECK: "ttir.where"(%[[F]], %x, %{{.*}})
// RESULT: check: result0: 0 of 256 elements differ {{.*}} max abs error 0,
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8x32xf32>) -> tensor<8x32xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<8x32xf32>):
    %0 = "stablehlo.is_finite"(%x) : (tensor<8x32xf32>) -> tensor<8x32xi1>
    %c = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
    %z = "stablehlo.broadcast_in_dim"(%c) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %1 = "stablehlo.select"(%0, %x, %z) : (tensor<8x32xi1>, tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    "func.return"(%1) : (tensor<8x32xf32>) -> ()
  }) : () -> ()
}) : () -> ()
