// A sharding constraint open in a dim (Shardy's [{?}, {"y"}], JAX's P(P.UNCONSTRAINED, "y"))
// imports with open_dims: propagation may split dim 0 (here as the first matmul left it, over
// x) while dim 1 stays bound to y. A closed [{}, {"y"}] keeps dim 0 whole.
// RUN: meshc-import %s | filecheck %s
// RUN: meshc-import %s | meshc-opt -p ttir-propagate-sharding | filecheck %s --check-prefix=PROP
// CHECK: "ttir.sharding_constraint"(%{{.*}}) {sharding = #tt.sharding<[R, S1], mesh = 2x4>, open_dims = array<i64: 0>}
// CHECK: "ttir.sharding_constraint"(%{{.*}}) {sharding = #tt.sharding<[R, S1], mesh = 2x4>} :
// PROP: "ttir.sharding_constraint"(%{{.*}}) {sharding = #tt.sharding<[R, S1], mesh = 2x4>, open_dims = array<i64: 0>, tt.shardings = [#tt.sharding<[S0, S1], mesh = 2x4>]}
// PROP: "ttir.sharding_constraint"(%{{.*}}) {sharding = #tt.sharding<[R, S1], mesh = 2x4>, tt.shardings = [#tt.sharding<[R, S1], mesh = 2x4>]}
module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg2: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{?}, {"y"}]> : tensor<8x32xf32>
    %2 = stablehlo.dot_general %1, %arg2, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
    %3 = sdy.sharding_constraint %0 <@mesh, [{}, {"y"}]> : tensor<8x32xf32>
    %4 = stablehlo.dot_general %3, %arg2, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
    return %2, %4 : tensor<8x16xf32>, tensor<8x16xf32>
  }
}
