// stablehlo.while with a trip count known at import, unrolled into global-view ttir (JAX's
// jax.lax.scan as JAX 0.10.2 writes it: a counter from 0, compared LT with 3, stepped by 1).
// The body (a layer x = tanh(x @ w[i]), its output stacked into ys at i) is translated three
// times; the dynamic_slice and dynamic_update_slice at the counter become static slices.
// RUN: meshc-import --split-input-file %s | filecheck %s
// RUN: meshc-import --split-input-file %s -o %t.mlir
// RUN: meshc-run %t.mlir --split-input-file --seed 0 --check | filecheck %s --check-prefix=EXEC
// RUN: meshc-run %t.mlir --split-input-file --seed 0 --target ttmetal --check | filecheck %s --check-prefix=EXEC

// w[0], w[1], w[2]: slices of the stack at 0, 1, 2 (dim 0 of 3x4x4), each a layer's matmul and tanh.
// CHECK-LABEL: func.func @main
// CHECK: "ttir.slice"(%w) {begins = [0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 4 : i32, 4 : i32]
// CHECK: "ttir.matmul"
// CHECK: "ttir.tanh"
// ys.at[0].set(y): the update, then ys's rows 1..3 after it (the zeros it started from)
// CHECK: "ttir.concat"
// CHECK: "ttir.slice"(%w) {begins = [1 : i32, 0 : i32, 0 : i32], ends = [2 : i32, 4 : i32, 4 : i32]
// CHECK: "ttir.tanh"
// CHECK: "ttir.slice"(%w) {begins = [2 : i32, 0 : i32, 0 : i32], ends = [3 : i32, 4 : i32, 4 : i32]
// CHECK: "ttir.tanh"
// CHECK-NOT: stablehlo
// CHECK: func.return
// The matmuls' sums round as the simulator's tiles add them (within f32's tolerance):
// EXEC: check: result0 matches the golden run
// EXEC: check: result1 matches the golden run
"builtin.module"() ({
  "sdy.mesh"() <{sym_name = "mesh", mesh = #sdy.mesh<["x"=2, "y"=4]>}> : () -> ()
  "func.func"() <{function_type = (tensor<2x4xf32>, tensor<3x4x4xf32>) -> (tensor<2x4xf32>, tensor<3x2x4xf32>), sym_name = "main", arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"y"}]>}], res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}]>}]}> ({
  ^bb0(%x: tensor<2x4xf32>, %w: tensor<3x4x4xf32>):
    %10 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x2x4xf32>
    %12 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %13:4 = "stablehlo.while"(%w, %12, %x, %11) ({
    ^bb0(%arg13: tensor<3x4x4xf32>, %arg14: tensor<i32>, %arg15: tensor<2x4xf32>, %arg16: tensor<3x2x4xf32>):
      %19 = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
      %20 = "stablehlo.compare"(%arg14, %19) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%20) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg9: tensor<3x4x4xf32>, %arg10: tensor<i32>, %arg11: tensor<2x4xf32>, %arg12: tensor<3x2x4xf32>):
      %14 = "func.call"(%arg9, %arg10) <{callee = @dynamic_index_in_dim}> : (tensor<3x4x4xf32>, tensor<i32>) -> tensor<4x4xf32>
      %15:2 = "func.call"(%arg11, %14) <{callee = @closed_call}> : (tensor<2x4xf32>, tensor<4x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
      %16 = "func.call"(%arg12, %15#1, %arg10) <{callee = @dynamic_update_index_in_dim}> : (tensor<3x2x4xf32>, tensor<2x4xf32>, tensor<i32>) -> tensor<3x2x4xf32>
      %17 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %18 = "stablehlo.add"(%arg10, %17) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%arg9, %18, %15#0, %16) : (tensor<3x4x4xf32>, tensor<i32>, tensor<2x4xf32>, tensor<3x2x4xf32>) -> ()
    }) : (tensor<3x4x4xf32>, tensor<i32>, tensor<2x4xf32>, tensor<3x2x4xf32>) -> (tensor<3x4x4xf32>, tensor<i32>, tensor<2x4xf32>, tensor<3x2x4xf32>)
    "func.return"(%13#2, %13#3) : (tensor<2x4xf32>, tensor<3x2x4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<3x4x4xf32>, tensor<i32>) -> tensor<4x4xf32>, sym_name = "dynamic_index_in_dim", sym_visibility = "private"}> ({
  ^bb0(%arg5: tensor<3x4x4xf32>, %arg6: tensor<i32>):
    %6 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %8 = "stablehlo.dynamic_slice"(%arg5, %arg6, %6, %6) <{slice_sizes = array<i64: 1, 4, 4>}> : (tensor<3x4x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x4xf32>
    %9 = "stablehlo.reshape"(%8) : (tensor<1x4x4xf32>) -> tensor<4x4xf32>
    "func.return"(%9) : (tensor<4x4xf32>) -> ()
  }) {sym_visibility = "private"} : () -> ()
  "func.func"() <{function_type = (tensor<2x4xf32>, tensor<4x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>), sym_name = "closed_call", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<2x4xf32>, %arg4: tensor<4x4xf32>):
    %4 = "stablehlo.dot_general"(%arg3, %arg4) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
    %5 = "stablehlo.tanh"(%4) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    "func.return"(%5, %5) : (tensor<2x4xf32>, tensor<2x4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<3x2x4xf32>, tensor<2x4xf32>, tensor<i32>) -> tensor<3x2x4xf32>, sym_name = "dynamic_update_index_in_dim", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<3x2x4xf32>, %arg1: tensor<2x4xf32>, %arg2: tensor<i32>):
    %0 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<2x4xf32>) -> tensor<1x2x4xf32>
    %1 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %3 = "stablehlo.dynamic_update_slice"(%arg0, %0, %arg2, %1, %1) : (tensor<3x2x4xf32>, tensor<1x2x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3x2x4xf32>
    "func.return"(%3) : (tensor<3x2x4xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// A counter counting down (GT, the bound on the left: 0 < i, i from 2 by -1: 2 iterations)
// with a sharding constraint in the body: each unrolled copy keeps it.
// CHECK-LABEL: func.func @main
// CHECK: "ttir.multiply"
// CHECK-NEXT: "ttir.sharding_constraint"
// CHECK-SAME: [S0, S1]
// CHECK: "ttir.multiply"
// CHECK-NEXT: "ttir.sharding_constraint"
// CHECK-SAME: [S0, S1]
// CHECK-NOT: ttir.multiply
// CHECK: func.return
// EXEC: check: result0: 0 of 128 elements differ {{.*}} max abs error 0,
"builtin.module"() ({
  "sdy.mesh"() <{sym_name = "mesh", mesh = #sdy.mesh<["x"=2, "y"=4]>}> : () -> ()
  "func.func"() <{function_type = (tensor<8x16xf32>) -> tensor<8x16xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<8x16xf32>):
    %c2 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %0:2 = "stablehlo.while"(%c2, %x) ({
    ^bb0(%i: tensor<i32>, %v: tensor<8x16xf32>):
      %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
      %1 = "stablehlo.compare"(%c0, %i) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%1) : (tensor<i1>) -> ()
    }, {
    ^bb0(%i: tensor<i32>, %v: tensor<8x16xf32>):
      %1 = "stablehlo.multiply"(%v, %v) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
      %2 = "sdy.sharding_constraint"(%1) <{sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}> : (tensor<8x16xf32>) -> tensor<8x16xf32>
      %m1 = "stablehlo.constant"() <{value = dense<-1> : tensor<i32>}> : () -> tensor<i32>
      %3 = "stablehlo.add"(%m1, %i) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%3, %2) : (tensor<i32>, tensor<8x16xf32>) -> ()
    }) : (tensor<i32>, tensor<8x16xf32>) -> (tensor<i32>, tensor<8x16xf32>)
    "func.return"(%0#1) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
}) : () -> ()
