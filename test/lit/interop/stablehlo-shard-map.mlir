// StableHLO from JAX (printed in generic form): a shard_map (sdy.manual_computation) whose body
// gathers, reduce-scatters, permutes and all-reduces over a 2x2 mesh, a program using and /
// or / xor / not on booleans, minimum, power and erf, a shard_map whose body exchanges with
// all_to_all along each mesh axis, and one that gathers and reduce-scatters over both axes at
// once, y-major (one ttir collective an axis, in the order that keeps the pieces' order). Imported, lowered through both pipelines
// and run against the golden run (test/unit/test_import_jax.py checks them against JAX itself).
// RUN: meshc-import --split-input-file %s -o %t.mlir
// RUN: filecheck %s < %t.mlir
// RUN: meshc-run %t.mlir --split-input-file --seed 3 --check | filecheck %s --check-prefix=SIM
// RUN: meshc-run %t.mlir --split-input-file --target ttmetal --seed 3 --check | filecheck %s --check-prefix=SIM
// CHECK: meshShape = 2x2
// CHECK: "ttir.mesh_shard"(%{{.*}}) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 2>, shard_dims = array<i64: 0, 1>} : (tensor<128x128xf32>) -> tensor<64x64xf32>
// CHECK: "ttir.all_gather"(%{{.*}}) {all_gather_dim = 0 : si32, cluster_axis = 0 : ui32}
// CHECK: "ttir.reduce_scatter"(%{{.*}}) {scatter_dim = 0 : si32, cluster_axis = 0 : ui32, reduce_type = #ttir.reduce_type<sum>}
// CHECK: "ttir.collective_permute"(%{{.*}}) {source_target_pairs = dense<{{\[\[}}0, 1], [1, 0], [2, 3], [3, 2]]> : tensor<4x2xi64>}
// CHECK: "ttir.all_reduce"(%{{.*}}) {cluster_axis = 0 : ui32, reduce_type = #ttir.reduce_type<sum>}
// CHECK: "ttir.all_reduce"(%{{.*}}) {cluster_axis = 1 : ui32, reduce_type = #ttir.reduce_type<sum>}
// CHECK: "ttir.all_reduce"(%{{.*}}) {cluster_axis = 1 : ui32, reduce_type = #ttir.reduce_type<max>}
// CHECK: "ttir.mesh_shard"(%{{.*}}) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1>, shard_dims = array<i64: 0, -1>}
// CHECK: "ttir.multiply"
// CHECK: "ttir.maximum"
// CHECK: "ttir.ne"
// CHECK: "ttir.minimum"
// CHECK: "ttir.pow"
// CHECK: "ttir.erf"
// CHECK: "ttir.all_to_all"(%{{.*}}) {split_dim = 0 : si32, concat_dim = 1 : si32, cluster_axis = 1 : ui32} : (tensor<32x32xf32>) -> tensor<16x64xf32>
// CHECK: "ttir.all_to_all"(%{{.*}}) {split_dim = 1 : si32, concat_dim = 0 : si32, cluster_axis = 0 : ui32} : (tensor<16x32xf32>) -> tensor<32x16xf32>
// CHECK: "ttir.all_gather"(%{{.*}}) {all_gather_dim = 1 : si32, cluster_axis = 0 : ui32} : (tensor<32x32xf32>) -> tensor<32x64xf32>
// CHECK-NEXT: "ttir.all_gather"(%{{.*}}) {all_gather_dim = 1 : si32, cluster_axis = 1 : ui32} : (tensor<32x64xf32>) -> tensor<32x128xf32>
// CHECK-NEXT: "ttir.reduce_scatter"(%{{.*}}) {scatter_dim = 0 : si32, cluster_axis = 1 : ui32, reduce_type = #ttir.reduce_type<sum>} : (tensor<32x128xf32>) -> tensor<16x128xf32>
// CHECK-NEXT: "ttir.reduce_scatter"(%{{.*}}) {scatter_dim = 0 : si32, cluster_axis = 0 : ui32, reduce_type = #ttir.reduce_type<sum>} : (tensor<16x128xf32>) -> tensor<8x128xf32>
// SIM: check: result0 matches the golden run
// SIM: check: result1 matches the golden run
// SIM: check: result0 matches the golden run
// SIM: check: result0 matches the golden run (exact)
// SIM: check: result1 matches the golden run (exact)
// SIM: check: result0 matches the golden run
"builtin.module"() <{sym_name = "jit_body"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=2]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 2 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<128x128xf32>, tensor<128x64xf32>) -> (tensor<128x64xf32>, tensor<128x64xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<128x128xf32>, %arg1: tensor<128x64xf32>):
    %0:2 = "sdy.manual_computation"(%arg0, %arg1) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>, <@mesh, [{"y"}, {}]>]>, manual_axes = #sdy<manual_axes{"x", "y"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {}]>]>}> ({
    ^bb0(%arg2: tensor<64x64xf32>, %arg3: tensor<64x64xf32>):
      %1 = "stablehlo.dot_general"(%arg2, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %2 = "stablehlo.all_gather"(%1) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<64x64xf32>) -> tensor<128x64xf32>
      %3 = "stablehlo.reduce_scatter"(%2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
      ^bb0(%arg8: tensor<f32>, %arg9: tensor<f32>):
        %10 = "stablehlo.add"(%arg8, %arg9) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%10) : (tensor<f32>) -> ()
      }) : (tensor<128x64xf32>) -> tensor<64x64xf32>
      %4 = "stablehlo.collective_permute"(%3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 0], [2, 3], [3, 2]]> : tensor<4x2xi64>}> : (tensor<64x64xf32>) -> tensor<64x64xf32>
      %5 = "stablehlo.add"(%1, %4) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %6 = "stablehlo.all_reduce"(%5) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
        %9 = "stablehlo.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%9) : (tensor<f32>) -> ()
      }) : (tensor<64x64xf32>) -> tensor<64x64xf32>
      %7 = "stablehlo.all_reduce"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %8 = "stablehlo.maximum"(%arg4, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%8) : (tensor<f32>) -> ()
      }) : (tensor<64x64xf32>) -> tensor<64x64xf32>
      "sdy.return"(%6, %7) : (tensor<64x64xf32>, tensor<64x64xf32>) -> ()
    }) : (tensor<128x128xf32>, tensor<128x64xf32>) -> (tensor<128x64xf32>, tensor<128x64xf32>)
    "func.return"(%0#0, %0#1) : (tensor<128x64xf32>, tensor<128x64xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} : () -> ()

// -----
"builtin.module"() <{sym_name = "jit_g"}> ({
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg3: tensor<64x64xf32>, %arg4: tensor<64x64xf32>):
    %1 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x64xf32>
    %3 = "stablehlo.compare"(%arg3, %2) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xi1>
    %4 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x64xf32>
    %6 = "stablehlo.compare"(%arg4, %5) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xi1>
    %7 = "stablehlo.and"(%3, %6) : (tensor<64x64xi1>, tensor<64x64xi1>) -> tensor<64x64xi1>
    %8 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x64xf32>
    %10 = "stablehlo.compare"(%arg3, %9) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xi1>
    %11 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %12 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x64xf32>
    %13 = "stablehlo.compare"(%arg4, %12) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xi1>
    %14 = "stablehlo.or"(%10, %13) : (tensor<64x64xi1>, tensor<64x64xi1>) -> tensor<64x64xi1>
    %15 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x64xf32>
    %17 = "stablehlo.compare"(%arg3, %16) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xi1>
    %18 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %19 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x64xf32>
    %20 = "stablehlo.compare"(%arg4, %19) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xi1>
    %21 = "stablehlo.not"(%20) : (tensor<64x64xi1>) -> tensor<64x64xi1>
    %22 = "stablehlo.xor"(%17, %21) : (tensor<64x64xi1>, tensor<64x64xi1>) -> tensor<64x64xi1>
    %23 = "stablehlo.minimum"(%arg3, %arg4) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %24 = "stablehlo.exponential"(%arg3) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %25 = "stablehlo.power"(%24, %arg4) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %26 = "func.call"(%7, %23, %25) <{callee = @_where}> : (tensor<64x64xi1>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %27 = "chlo.erf"(%arg3) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %28 = "stablehlo.convert"(%22) : (tensor<64x64xi1>) -> tensor<64x64xf32>
    %29 = "stablehlo.multiply"(%27, %28) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %30 = "stablehlo.add"(%26, %29) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %31 = "stablehlo.convert"(%14) : (tensor<64x64xi1>) -> tensor<64x64xf32>
    %32 = "stablehlo.subtract"(%30, %31) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    "func.return"(%32) : (tensor<64x64xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<64x64xi1>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>, res_attrs = [{}], sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<64x64xi1>, %arg1: tensor<64x64xf32>, %arg2: tensor<64x64xf32>):
    %0 = "stablehlo.select"(%arg0, %arg1, %arg2) : (tensor<64x64xi1>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    "func.return"(%0) : (tensor<64x64xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()

// -----
"builtin.module"() <{sym_name = "jit_body"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=2]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 2 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<64x64xf32>, tensor<32x64xf32>) -> (tensor<32x128xf32>, tensor<64x32xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<64x64xf32>, %arg1: tensor<32x64xf32>):
    %0:2 = "sdy.manual_computation"(%arg0, %arg1) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>, <@mesh, [{"x"}, {"y"}]>]>, manual_axes = #sdy<manual_axes{"x", "y"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>, <@mesh, [{"x"}, {"y"}]>]>}> ({
    ^bb0(%arg2: tensor<32x32xf32>, %arg3: tensor<16x32xf32>):
      %1 = "stablehlo.all_to_all"(%arg2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 1 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64}> : (tensor<32x32xf32>) -> tensor<16x64xf32>
      %2 = "stablehlo.all_to_all"(%arg3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<16x32xf32>) -> tensor<32x16xf32>
      "sdy.return"(%1, %2) : (tensor<16x64xf32>, tensor<32x16xf32>) -> ()
    }) : (tensor<64x64xf32>, tensor<32x64xf32>) -> (tensor<32x128xf32>, tensor<64x32xf32>)
    "func.return"(%0#0, %0#1) : (tensor<32x128xf32>, tensor<64x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} : () -> ()

// -----
"builtin.module"() <{sym_name = "jit_body"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=2]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 2 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<64x64xf32>) -> tensor<32x128xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<64x64xf32>):
    %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>, manual_axes = #sdy<manual_axes{"x", "y"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>}> ({
    ^bb0(%arg1: tensor<32x32xf32>):
      %1 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2, 1, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<32x32xf32>) -> tensor<32x128xf32>
      %2 = "stablehlo.reduce_scatter"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2, 1, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %3 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%3) : (tensor<f32>) -> ()
      }) : (tensor<32x128xf32>) -> tensor<8x128xf32>
      "sdy.return"(%2) : (tensor<8x128xf32>) -> ()
    }) : (tensor<64x64xf32>) -> tensor<32x128xf32>
    "func.return"(%0) : (tensor<32x128xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
