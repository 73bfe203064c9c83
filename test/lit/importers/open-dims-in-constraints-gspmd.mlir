// GSPMD's spelling of an open dim (JAX with Shardy off): backend_config = "unspecified_dims=[0]"
// on the @Sharding custom call (test/lit/importers/open-dims-in-constraints-errors.mlir: one outside the tensor).
// RUN: meshc-import --mesh-shape 2,4 %s | filecheck %s
// CHECK: "ttir.sharding_constraint"(%{{.*}}) {sharding = #tt.sharding<[R, S1], mesh = 2x4>, open_dims = array<i64: 0>}
"builtin.module"() ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}], function_type = (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>, sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x16xf32>, %arg1: tensor<16x32xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = "stablehlo.custom_call"(%0) <{backend_config = "unspecified_dims=[0]", call_target_name = "Sharding"}> {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"} : (tensor<8x32xf32>) -> tensor<8x32xf32>
    "func.return"(%1) : (tensor<8x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
