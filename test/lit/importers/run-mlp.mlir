// A replicated MLP imported from StableHLO runs on the simulator and matches the numpy run of
// the imported program: on the default device (no mesh), and on a one-device Shardy mesh whose
// annotations are all replicated.
// RUN: meshc-import --split-input-file %s -o %t.mlir
// RUN: filecheck %s < %t.mlir
// RUN: meshc-run %t.mlir --seed 0 --check | filecheck %s --check-prefix=SIM
// RUN: meshc-import --mesh-shape 1,1 %S/Inputs/mlp-replicated.mlir -o %t.1x1.mlir
// RUN: meshc-run %t.1x1.mlir --seed 0 --check | filecheck %s --check-prefix=SIM
// CHECK-NOT: tt.device
// CHECK: func.func @main
// SIM: check: result0 matches the golden run
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<32x64xf32>, tensor<64x128xf32>, tensor<128xf32>, tensor<128x64xf32>) -> tensor<32x64xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<32x64xf32>, %w1: tensor<64x128xf32>, %b1: tensor<128xf32>, %w2: tensor<128x64xf32>):
    %0 = "stablehlo.dot_general"(%x, %w1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x64xf32>, tensor<64x128xf32>) -> tensor<32x128xf32>
    %1 = "stablehlo.broadcast_in_dim"(%b1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<128xf32>) -> tensor<32x128xf32>
    %2 = "stablehlo.add"(%0, %1) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %3 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x128xf32>
    %5 = "stablehlo.maximum"(%2, %4) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %6 = "stablehlo.dot_general"(%5, %w2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x128xf32>, tensor<128x64xf32>) -> tensor<32x64xf32>
    %c = "stablehlo.constant"() <{value = dense<1.000000e-02> : tensor<32x64xf32>}> : () -> tensor<32x64xf32>
    %7 = "stablehlo.multiply"(%6, %c) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %8 = "stablehlo.tanh"(%7) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    "func.return"(%8) : (tensor<32x64xf32>) -> ()
  }) : () -> ()
}) : () -> ()
