// GSPMD's spelling (JAX with jax_use_shardy_partitioner off): a result without mhlo.sharding is
// unconstrained, `{replicated}` (out_shardings = NamedSharding(mesh, P())) stays replicated.
// Without a mesh of more than one device there is nothing to choose: no mark.
// RUN: meshc-import --mesh-shape 2,4 %s | filecheck %s
// RUN: meshc-import --mesh-shape 2,4 %s | meshc-opt -p ttir-propagate-sharding | filecheck %s --check-prefix=PROP
// RUN: meshc-import %S/Inputs/unannotated-tanh.mlir | filecheck %s --check-prefix=NOMESH
// RUN: meshc-import --mesh-shape 1,1 %S/Inputs/unannotated-tanh.mlir | filecheck %s --check-prefix=NOMESH
// RUN: meshc-import --mesh-shape 2,4 %S/Inputs/unannotated-tanh.mlir | filecheck %s --check-prefix=MESH
// CHECK: -> (tensor<8x32xf32> {tt.unconstrained}, tensor<8x32xf32> {tt.sharding = #tt.sharding<[R, R], mesh = 2x4>})
// x [S0, R] times w [R, S1]: [S0, S1], which the unconstrained result takes.
// PROP: -> (tensor<8x32xf32> {tt.sharding = #tt.sharding<[S0, S1], mesh = 2x4>}, tensor<8x32xf32> {tt.sharding = #tt.sharding<[R, R], mesh = 2x4>})
// NOMESH: func.func @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
// MESH: func.func @main(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32> {tt.unconstrained}) {
"builtin.module"() ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}], function_type = (tensor<8x16xf32>, tensor<16x32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]", mhlo.sharding = "{replicated}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x16xf32>, %arg1: tensor<16x32xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    "func.return"(%0, %0) : (tensor<8x32xf32>, tensor<8x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
