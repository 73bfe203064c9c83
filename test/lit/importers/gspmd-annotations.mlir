// GSPMD (mhlo.sharding) strings, read over the mesh given on the command line: each becomes the
// sharding spec whose devices hold exactly the tiles the string lists.
// RUN: meshc-import --mesh-shape 2,2 %s | filecheck %s
// RUN: not meshc-import --mesh-shape 4 %s 2>&1 | filecheck %s --check-prefix=MESH

// CHECK: meshShape = 2x2
// CHECK: tensor<8x16xf32> {tt.sharding = #tt.sharding<[S0, R]
// CHECK-SAME: tensor<16x32xf32> {tt.sharding = #tt.sharding<[R, S1]
// CHECK-SAME: tensor<8x32xf32> {tt.sharding = #tt.sharding<[R, R]
// CHECK-SAME: -> (tensor<8xf32> {tt.sharding = #tt.sharding<[S01]
// CHECK: "ttir.sharding_constraint"(%{{.*}}) {sharding = #tt.sharding<[S1, S0]
"builtin.module"() ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}, {mhlo.sharding = "{replicated}"}], function_type = (tensor<8x16xf32>, tensor<16x32xf32>, tensor<8x32xf32>) -> tensor<8xf32>, res_attrs = [{mhlo.sharding = "{devices=[4]<=[4]}"}], sym_name = "main"}> ({
  ^bb0(%arg0: tensor<8x16xf32>, %arg1: tensor<16x32xf32>, %bias: tensor<8x32xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = "stablehlo.add"(%0, %bias) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    // MESH: gspmd-annotations.mlir:18:5: error: 'stablehlo.custom_call' op no sharding spec over the mesh 4 puts the tiles of
    %2 = "stablehlo.custom_call"(%1) <{call_target_name = "Sharding"}> {mhlo.sharding = "{devices=[2,2]<=[2,2]T(1,0)}"} : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %3 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %4 = "stablehlo.reduce"(%2, %3) <{dimensions = array<i64: 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %5 = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%5) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
    "func.return"(%4) : (tensor<8xf32>) -> ()
  }) : () -> ()
}) : () -> ()
