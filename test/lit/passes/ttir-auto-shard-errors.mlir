// RUN: meshc-opt %s --split-input-file -p 'ttir-auto-shard{mesh-shape=2,2}' --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file -p 'ttir-auto-shard{mesh-shape=2,2}' 2>&1 | filecheck %s

// mesh-shape must be the module's device mesh.
// CHECK: error: 'builtin.module' op mesh-shape 2x2 differs from the module's device mesh 2x4
// expected-error @+1 {{mesh-shape 2x2 differs from the module's device mesh 2x4}}
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @f(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = "ttir.relu"(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}

// -----

// An SPMD program is not a global view.
// CHECK: error: 'builtin.module' op ttir-auto-shard takes a global-view program; this one already has SPMD ops
// expected-error @+1 {{ttir-auto-shard takes a global-view program; this one already has SPMD ops (ttir.mesh_shard, collectives)}}
module {
  func.func @f(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<replicate>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1>, shard_dims = array<i64: -1, -1>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = "ttir.mesh_shard"(%0) {shard_type = #ttir.shard_type<replicate>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 1>, shard_dims = array<i64: -1, -1>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
}
