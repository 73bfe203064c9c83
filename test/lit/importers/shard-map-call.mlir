// RUN: meshc-import %s -o %t.mlir
// RUN: filecheck %s < %t.mlir
// RUN: meshc-run %t.mlir --check | filecheck %s --check-prefix=SIM
// RUN: meshc-run %t.mlir --check --target ttmetal | filecheck %s --check-prefix=SIM

// A shard_map whose body calls a helper (as JAX writes a jnp function or a nested jit: a
// func.call to a private function) that itself calls another: both are inlined into the body,
// between the mesh_shards, the all_reduce after them.
// CHECK: "ttir.mesh_shard"(%{{.*}}) {{.*}}full_to_shard
// CHECK-NOT: func.call
// CHECK: "ttir.tanh"
// CHECK-NEXT: "ttir.multiply"
// CHECK-NEXT: "ttir.all_reduce"
// CHECK: "ttir.mesh_shard"(%{{.*}}) {{.*}}shard_to_full
// SIM: check: result0 matches the golden run
"builtin.module"() <{sym_name = "jit_f"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{function_type = (tensor<64x32xf32>) -> tensor<64x32xf32>, sym_name = "square", sym_visibility = "private"}> ({
  ^bb0(%a: tensor<64x32xf32>):
    %m = "stablehlo.multiply"(%a, %a) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    "func.return"(%m) : (tensor<64x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<64x32xf32>) -> tensor<64x32xf32>, sym_name = "helper", sym_visibility = "private"}> ({
  ^bb0(%a: tensor<64x32xf32>):
    %t = "stablehlo.tanh"(%a) : (tensor<64x32xf32>) -> tensor<64x32xf32>
    %s = "func.call"(%t) <{callee = @square}> : (tensor<64x32xf32>) -> tensor<64x32xf32>
    "func.return"(%s) : (tensor<64x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<128x32xf32>) -> tensor<64x32xf32>, sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<128x32xf32>):
    %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>, manual_axes = #sdy<manual_axes{"x"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>}> ({
    ^bb0(%arg1: tensor<64x32xf32>):
      %1 = "func.call"(%arg1) <{callee = @helper}> : (tensor<64x32xf32>) -> tensor<64x32xf32>
      %2 = "stablehlo.all_reduce"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %3 = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%3) : (tensor<f32>) -> ()
      }) : (tensor<64x32xf32>) -> tensor<64x32xf32>
      "sdy.return"(%2) : (tensor<64x32xf32>) -> ()
    }) : (tensor<128x32xf32>) -> tensor<64x32xf32>
    "func.return"(%0) : (tensor<64x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
