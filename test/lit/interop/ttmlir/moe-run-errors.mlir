// tt-mlir's verifiers check ranks and attribute ranges only, so a MoE op whose attributes or shapes
// do not fit the mesh verifies and is refused when it runs, located at the op, naming what is wrong.
// RUN: meshc-opt %s > /dev/null
// RUN: not meshc-run %s 2>&1 | filecheck %s
// CHECK: moe-run-errors.mlir:[[# @LINE + 6]]:5: error: 'ttnn.all_to_all_dispatch' op num_devices = 4, but the mesh has 2 devices along cluster_axis 1
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @main(%x: tensor<4x1x1x4xf32>, %ids: tensor<4x1x1x2xsi32>, %map: tensor<1x1x4x2xsi32>) -> tensor<1x4x1x4xf32> {
    %xs = "ttir.mesh_shard"(%x) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1, 1, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<4x1x1x4xf32>) -> tensor<2x1x1x4xf32>
    %is = "ttir.mesh_shard"(%ids) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1, 1, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<4x1x1x2xsi32>) -> tensor<2x1x1x2xsi32>
    %ms = "ttir.mesh_shard"(%map) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<1x1x4x2xsi32>) -> tensor<1x1x4x2xsi32>
    %d, %md = "ttir.all_to_all_dispatch"(%xs, %is, %ms) <{cluster_axis = 1 : i64, num_devices = 4 : i64}> : (tensor<2x1x1x4xf32>, tensor<2x1x1x2xsi32>, tensor<1x1x4x2xsi32>) -> (tensor<1x4x1x4xf32>, tensor<1x4x1x2xsi32>)
    return %d : tensor<1x4x1x4xf32>
  }
}
