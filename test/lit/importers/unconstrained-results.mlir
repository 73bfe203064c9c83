// A result JAX leaves unconstrained (jax.jit without out_shardings: no sdy.sharding on the result;
// Shardy's fully open [{?}, {?}] the same) imports as `{tt.unconstrained}` and leaves the devices
// in the sharding propagation gives its value; a result explicitly replicated (out_shardings =
// NamedSharding(mesh, P()): [{}, {}]) or placed ([{"x"}, {"y"}]) keeps its annotation.
// RUN: meshc-import %s -o %t.ttir.mlir
// RUN: filecheck %s --check-prefix=IMPORT < %t.ttir.mlir
// IMPORT: func.func @main(
// IMPORT-SAME: -> (tensor<8x32xf32> {tt.unconstrained}, tensor<8x32xf32> {tt.sharding = #tt.sharding<[R, R], mesh = 2x4>}, tensor<8x32xf32> {tt.unconstrained}, tensor<8x32xf32> {tt.sharding = #tt.sharding<[S0, S1], mesh = 2x4>})

// Propagation: x [S0, R] times w [R, S1] is [S0, S1]; the unconstrained results take it.
// RUN: meshc-opt %t.ttir.mlir -p ttir-propagate-sharding | filecheck %s --check-prefix=PROP
// PROP: -> (tensor<8x32xf32> {tt.sharding = #tt.sharding<[S0, S1], mesh = 2x4>}, tensor<8x32xf32> {tt.sharding = #tt.sharding<[R, R], mesh = 2x4>}, tensor<8x32xf32> {tt.sharding = #tt.sharding<[S0, S1], mesh = 2x4>}, tensor<8x32xf32> {tt.sharding = #tt.sharding<[S0, S1], mesh = 2x4>})
// PROP-NOT: tt.unconstrained

// Partitioned: the unconstrained results leave through shard_to_full with the value's shard dims
// (mesh axis 0 splits dim 0, axis 1 dim 1: the host joins the 4x8 pieces); only the replicated
// one is gathered on the mesh first.
// RUN: meshc-opt %t.ttir.mlir -p ttir-partition | filecheck %s --check-prefix=PART
// PART-COUNT-3: "ttir.mesh_shard"(%{{.*}}) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 4>, shard_dims = array<i64: 0, 1>}
// PART: return

// The run matches the imported program on numpy, on both backends, exactly. The links carry the
// replicated result's gather only, by hand: over y, a T3K row is a line of 4 chips, each 4x8 f32
// piece (128 B) crossing 3 links, 2 rows x 4 x 3 x 128 = 3,072 B; then over x, each chip
// receives the other row's 4x32 f32 (512 B) over one link, 8 x 512 = 4,096 B: 7,168 B. The
// unconstrained results add nothing on the links (the host reads their pieces).
// RUN: meshc-run %t.ttir.mlir --seed 0 --check --report | filecheck %s --check-prefix=SIM
// RUN: meshc-run %t.ttir.mlir --seed 0 --check --report --target ttmetal | filecheck %s --check-prefix=SIM
// SIM: moved: ethernet 7,168 B,
// SIM-COUNT-4: : 0 of 256 elements differ
"builtin.module"() <{sym_name = "jit_f"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=4]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}], function_type = (tensor<8x16xf32>, tensor<16x32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {jax.result_info = "result[2]", sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}, {jax.result_info = "result[3]", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x16xf32>, %arg1: tensor<16x32xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = "stablehlo.tanh"(%0) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    "func.return"(%1, %1, %1, %1) : (tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
