// Booleans as JAX writes them: the causal mask jnp.tril(jnp.ones((32, 32), bool)) (an i1 constant
// broadcast, selected against a comparison of iotas), jnp.all of a bounds check (a reduce with an
// `and` body from true), jnp.any (an `or` body from false), logical and / not, and jnp.mean's
// scalar. Booleans are held as bf16 1 / 0 inside the program (as tt-mlir gives TTNN booleans; a
// comparison keeps its operands' type); the program runs on both backends and matches the golden
// run, the scalar mean coming back 0-d.
// RUN: meshc-import %s -o %t.mlir
// RUN: filecheck %s < %t.mlir
// RUN: meshc-run %t.mlir --target ttnn --seed 1 --check | filecheck %s --check-prefix=SIM
// RUN: meshc-run %t.mlir --target ttmetal --seed 1 --check | filecheck %s --check-prefix=SIM
// The mask: true and false broadcast as bf16 1 and 0, selected by the iota comparison.
// CHECK: %[[ONE:.*]] = "ttir.constant"() {value = dense<1.000000e+00> : tensor<32x32xbf16>}
// CHECK-NEXT: %[[ZERO:.*]] = "ttir.constant"() {value = dense<0.000000e+00> : tensor<32x32xbf16>}
// CHECK-NEXT: %[[MASK:.*]] = "ttir.where"(%{{.*}}, %[[ONE]], %[[ZERO]]) : (tensor<32x32xi32>, tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
// all(x) = 1 - max(1 - x) over the 4 bounds checks of a row:
// CHECK: %[[FLIP:.*]] = "ttir.subtract"(%{{.*}}, %{{.*}}) : (tensor<32x4xf32>, tensor<32x4xf32>) -> tensor<32x4xf32>
// CHECK-NEXT: %[[ANYNOT:.*]] = "ttir.max"(%[[FLIP]]) {dim_arg = [1 : i32]} : (tensor<32x4xf32>) -> tensor<32xf32>
// CHECK-NEXT: %{{.*}} = "ttir.constant"() {value = dense<1.000000e+00> : tensor<32xf32>}
// CHECK-NEXT: %{{.*}} = "ttir.subtract"(%{{.*}}, %[[ANYNOT]])
// any(x) = max(x):
// CHECK: "ttir.max"(%{{.*}}) {dim_arg = [1 : i32]} : (tensor<32x32xf32>) -> tensor<32xf32>
// CHECK: "ttir.where"(%[[MASK]], %arg7, %{{.*}}) : (tensor<32x32xbf16>, tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
// CHECK: "ttir.sum"(%arg7) {dim_arg = [0 : i32, 1 : i32]} : (tensor<32x32xf32>) -> tensor<f32>
// SIM: result1: scalar float32
// SIM: check: result0 matches the golden run
// SIM: check: result1 matches the golden run
"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<32x32xf32>, tensor<32x4xf32>) -> (tensor<32x32xf32>, tensor<f32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg7: tensor<32x32xf32>, %arg8: tensor<32x4xf32>):
    %16 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %17 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<32x32xi1>
    %18 = "func.call"(%17) <{callee = @tril}> : (tensor<32x32xi1>) -> tensor<32x32xi1>
    %19 = "stablehlo.constant"() <{value = dense<-2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x4xf32>
    %21 = "stablehlo.compare"(%arg8, %20) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<32x4xf32>, tensor<32x4xf32>) -> tensor<32x4xi1>
    %22 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %23 = "stablehlo.broadcast_in_dim"(%22) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x4xf32>
    %24 = "stablehlo.compare"(%arg8, %23) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<32x4xf32>, tensor<32x4xf32>) -> tensor<32x4xi1>
    %25 = "stablehlo.and"(%21, %24) : (tensor<32x4xi1>, tensor<32x4xi1>) -> tensor<32x4xi1>
    %26 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %27 = "stablehlo.reduce"(%25, %26) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg13: tensor<i1>, %arg14: tensor<i1>):
      %47 = "stablehlo.and"(%arg13, %arg14) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%47) : (tensor<i1>) -> ()
    }) : (tensor<32x4xi1>, tensor<i1>) -> tensor<32xi1>
    %28 = "stablehlo.broadcast_in_dim"(%27) <{broadcast_dimensions = array<i64: 0>}> : (tensor<32xi1>) -> tensor<32x1xi1>
    %29 = "stablehlo.constant"() <{value = dense<2.500000e+00> : tensor<f32>}> : () -> tensor<f32>
    %30 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x32xf32>
    %31 = "stablehlo.compare"(%arg7, %30) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xi1>
    %32 = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
    %33 = "stablehlo.reduce"(%31, %32) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg11: tensor<i1>, %arg12: tensor<i1>):
      %46 = "stablehlo.or"(%arg11, %arg12) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%46) : (tensor<i1>) -> ()
    }) : (tensor<32x32xi1>, tensor<i1>) -> tensor<32xi1>
    %34 = "stablehlo.broadcast_in_dim"(%33) <{broadcast_dimensions = array<i64: 0>}> : (tensor<32xi1>) -> tensor<32x1xi1>
    %35 = "stablehlo.constant"() <{value = dense<-1.000000e+09> : tensor<f32>}> : () -> tensor<f32>
    %36 = "func.call"(%18, %arg7, %35) <{callee = @_where}> : (tensor<32x32xi1>, tensor<32x32xf32>, tensor<f32>) -> tensor<32x32xf32>
    %37 = "stablehlo.not"(%34) : (tensor<32x1xi1>) -> tensor<32x1xi1>
    %38 = "stablehlo.and"(%28, %37) : (tensor<32x1xi1>, tensor<32x1xi1>) -> tensor<32x1xi1>
    %39 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %40 = "func.call"(%38, %36, %39) <{callee = @_where_0}> : (tensor<32x1xi1>, tensor<32x32xf32>, tensor<f32>) -> tensor<32x32xf32>
    %41 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %42 = "stablehlo.reduce"(%arg7, %41) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg9: tensor<f32>, %arg10: tensor<f32>):
      %45 = "stablehlo.add"(%arg9, %arg10) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%45) : (tensor<f32>) -> ()
    }) : (tensor<32x32xf32>, tensor<f32>) -> tensor<f32>
    %43 = "stablehlo.constant"() <{value = dense<1.024000e+03> : tensor<f32>}> : () -> tensor<f32>
    %44 = "stablehlo.divide"(%42, %43) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "func.return"(%40, %44) : (tensor<32x32xf32>, tensor<f32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<32x32xi1>) -> tensor<32x32xi1>, res_attrs = [{}], sym_name = "tril", sym_visibility = "private"}> ({
  ^bb0(%arg6: tensor<32x32xi1>):
    %7 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<32x32xi32>
    %8 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<32x32xi32>
    %10 = "stablehlo.add"(%7, %9) : (tensor<32x32xi32>, tensor<32x32xi32>) -> tensor<32x32xi32>
    %11 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<32x32xi32>
    %12 = "stablehlo.compare"(%10, %11) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<32x32xi32>, tensor<32x32xi32>) -> tensor<32x32xi1>
    %13 = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
    %14 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<32x32xi1>
    %15 = "stablehlo.select"(%12, %arg6, %14) : (tensor<32x32xi1>, tensor<32x32xi1>, tensor<32x32xi1>) -> tensor<32x32xi1>
    "func.return"(%15) : (tensor<32x32xi1>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<32x32xi1>, tensor<32x32xf32>, tensor<f32>) -> tensor<32x32xf32>, res_attrs = [{}], sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<32x32xi1>, %arg4: tensor<32x32xf32>, %arg5: tensor<f32>):
    %4 = "stablehlo.convert"(%arg5) : (tensor<f32>) -> tensor<f32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x32xf32>
    %6 = "stablehlo.select"(%arg3, %arg4, %5) : (tensor<32x32xi1>, tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    "func.return"(%6) : (tensor<32x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<32x1xi1>, tensor<32x32xf32>, tensor<f32>) -> tensor<32x32xf32>, res_attrs = [{}], sym_name = "_where_0", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<32x1xi1>, %arg1: tensor<32x32xf32>, %arg2: tensor<f32>):
    %0 = "stablehlo.convert"(%arg2) : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<32x1xi1>) -> tensor<32x32xi1>
    %2 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x32xf32>
    %3 = "stablehlo.select"(%1, %arg1, %2) : (tensor<32x32xi1>, tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    "func.return"(%3) : (tensor<32x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()

