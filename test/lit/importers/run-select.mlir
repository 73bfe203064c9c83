// The select ops imported from StableHLO run through both pipelines and match the golden run of
// the imported program: a slice, a concatenate along a split dim, a KV cache written and read at
// a run-time position, emb[ids] with the table split by rows, and jax.lax.axis_index in a
// shard_map body, on a 2x4 mesh.
// RUN: meshc-import --split-input-file %s -o %t.mlir
// RUN: meshc-run %t.mlir --split-input-file --seed 0 --check | filecheck %s
// RUN: meshc-run %t.mlir --split-input-file --seed 0 --target ttmetal --check | filecheck %s
// Every element equal to the golden run's (max abs error 0) on both backends:
// CHECK: check: result0: 0 of 192 elements differ {{.*}} max abs error 0,
// CHECK: check: result0: 0 of 256 elements differ {{.*}} max abs error 0,
// CHECK: check: result1: 0 of 16 elements differ {{.*}} max abs error 0,
// CHECK: check: result0: 0 of 1024 elements differ {{.*}} max abs error 0,
// CHECK: check: result0: 0 of 128 elements differ {{.*}} max abs error 0,

"builtin.module"() ({
  "sdy.mesh"() <{sym_name = "mesh", mesh = #sdy.mesh<["x"=2, "y"=4]>}> : () -> ()
  "func.func"() <{function_type = (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x24xf32>, sym_name = "main", arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}]}> ({
  ^bb0(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>):
    %0 = "stablehlo.slice"(%b) <{limit_indices = array<i64: 8, 12>, start_indices = array<i64: 0, 4>, strides = array<i64: 1, 1>}> : (tensor<8x16xf32>) -> tensor<8x8xf32>
    %1 = "stablehlo.concatenate"(%a, %0) <{dimension = 1 : i64}> : (tensor<8x16xf32>, tensor<8x8xf32>) -> tensor<8x24xf32>
    "func.return"(%1) : (tensor<8x24xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "sdy.mesh"() <{sym_name = "mesh", mesh = #sdy.mesh<["x"=2, "y"=4]>}> : () -> ()
  "func.func"() <{function_type = (tensor<2x16x8xf32>, tensor<2x1x8xf32>) -> (tensor<2x16x8xf32>, tensor<2x1x8xf32>), sym_name = "main", arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}, {}]>}, {}]}> ({
  ^bb0(%cache: tensor<2x16x8xf32>, %new: tensor<2x1x8xf32>):
    %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %pos = "stablehlo.constant"() <{value = dense<6> : tensor<i32>}> : () -> tensor<i32>
    %p = "stablehlo.add"(%pos, %c0) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %0 = "stablehlo.dynamic_update_slice"(%cache, %new, %c0, %p, %c0) : (tensor<2x16x8xf32>, tensor<2x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x16x8xf32>
    %1 = "stablehlo.dynamic_slice"(%0, %c0, %p, %c0) <{slice_sizes = array<i64: 2, 1, 8>}> : (tensor<2x16x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x1x8xf32>
    "func.return"(%0, %1) : (tensor<2x16x8xf32>, tensor<2x1x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "sdy.mesh"() <{sym_name = "mesh", mesh = #sdy.mesh<["x"=2, "y"=4]>}> : () -> ()
  "func.func"() <{function_type = (tensor<64x32xf32>) -> tensor<4x8x32xf32>, sym_name = "main", arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}]}> ({
  ^bb0(%emb: tensor<64x32xf32>):
    %ids = "stablehlo.constant"() <{value = dense<[[[5], [42], [15], [52], [25], [62], [35], [8]], [[45], [18], [55], [28], [1], [38], [11], [48]], [[21], [58], [31], [4], [41], [14], [51], [24]], [[61], [34], [7], [44], [17], [54], [27], [0]]]> : tensor<4x8x1xi32>}> : () -> tensor<4x8x1xi32>
    %0 = "stablehlo.gather"(%emb, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xf32>, tensor<4x8x1xi32>) -> tensor<4x8x32xf32>
    "func.return"(%0) : (tensor<4x8x32xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "sdy.mesh"() <{sym_name = "mesh", mesh = #sdy.mesh<["x"=2, "y"=4]>}> : () -> ()
  "func.func"() <{function_type = (tensor<8x16xf32>) -> tensor<8x16xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<8x16xf32>):
    %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>, manual_axes = #sdy<manual_axes{"x", "y"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>}> ({
    ^bb1(%arg1: tensor<4x4xf32>):
      %1 = "stablehlo.partition_id"() : () -> tensor<ui32>
      %2 = "stablehlo.convert"(%1) : (tensor<ui32>) -> tensor<f32>
      %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
      %4 = "stablehlo.add"(%arg1, %3) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
      "sdy.return"(%4) : (tensor<4x4xf32>) -> ()
    }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    "func.return"(%0) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
}) : () -> ()
