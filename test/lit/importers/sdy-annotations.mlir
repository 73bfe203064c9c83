// StableHLO with Shardy annotations, as JAX writes it for a jit with NamedSharding, in MLIR's
// generic form: the mesh becomes the module's tt.device, argument / result shardings become
// tt.sharding attributes, sdy.sharding_constraint becomes ttir.sharding_constraint.
// RUN: meshc-import --split-input-file %s | filecheck %s

// CHECK: #device = #tt.device<{{.*}}meshShape = 2x2
// CHECK: func.func @main(%{{.*}}: tensor<8x16xf32> {tt.sharding = #tt.sharding<[S0, R]
// CHECK-SAME: %{{.*}}: tensor<16x32xf32> {tt.sharding = #tt.sharding<[R, S1]
// CHECK-SAME: -> (tensor<8xf32> {tt.sharding = #tt.sharding<[S01]
// CHECK: "ttir.matmul"
// CHECK: "ttir.maximum"
// CHECK: "ttir.sharding_constraint"(%{{.*}}) {sharding = #tt.sharding<[S1, S0]
// CHECK: "ttir.sum"(%{{.*}}) {dim_arg = [1 : i32]} : (tensor<8x32xf32>) -> tensor<8xf32>
"builtin.module"() <{sym_name = "jit_mlp"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y", ?}]>}], function_type = (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8xf32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x16xf32>, %arg1: tensor<16x32xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %3 = "stablehlo.maximum"(%0, %2) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %4 = "sdy.sharding_constraint"(%3) <{sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}> : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %5 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.reduce"(%4, %5) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %7 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
    "func.return"(%6) : (tensor<8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} : () -> ()

// -----

// Partial sums (unreduced axes), priorities and explicitly replicated axes.
// RUN: meshc-import --split-input-file %s | filecheck %s --check-prefix=PARTIAL
// PARTIAL: tensor<4x8xf32> {tt.sharding = #tt.sharding<[R, S0] P(1)
// PARTIAL: tensor<8x4xf32> {tt.sharding = #tt.sharding<[S1, R]
"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["a"=2, "b"=4]>, sym_name = "m"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@m, [{}, {"a"}p1], unreduced={"b"}>}, {sdy.sharding = #sdy.sharding<@m, [{"b"}, {}], replicated={"a"}>}], function_type = (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>):
    %0 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
    "func.return"(%0) : (tensor<4x4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
