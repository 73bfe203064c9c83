// meshc-opt --emit=ttmlir prints tt-mlir's spelling: ttcore names, an op's own attributes as
// properties, generic form, an async all_reduce under tt-mlir's name. Read back, it is the module
// it was printed from, and the real mlir-opt parses it.
// RUN: meshc-opt %S/Inputs/simple_add_2x4.mlir -p 'ttir-to-ttnn-pipeline{mesh-shape=2,4 keep-reference=false}' --emit=ttmlir -o %t.lowered.mlir
// RUN: meshc-opt %s --emit=ttmlir -o %t.mlir
// RUN: filecheck %s < %t.mlir
// CHECK: "ttir.all_reduce_async"(%{{.*}}) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}>
// CHECK: "ttir.mesh_shard"(%{{.*}}) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}>
// CHECK: ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>
// CHECK-NOT: #tt.
// RUN: meshc-opt %s > %t.direct.mlir
// RUN: meshc-opt %t.mlir > %t.back.mlir
// RUN: diff %t.direct.mlir %t.back.mlir
// RUN: %if mlir-opt %{ %mlir-opt --allow-unregistered-dialect %t.mlir -o /dev/null %}
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @main(%arg0: tensor<32x64xf32>) -> tensor<32x128xf32> {
    %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %1 = "ttir.all_reduce_async"(%0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %2 = "ttir.mesh_shard"(%1) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x64xf32>) -> tensor<32x128xf32>
    return %2 : tensor<32x128xf32>
  }
}
