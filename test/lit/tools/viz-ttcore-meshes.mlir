// RUN: meshc-viz --text %s | filecheck %s
// RUN: meshc-viz --text %S/../interop/spmd-results.mlir | filecheck %s --check-prefix=RESULTS

// An SPMD module whose mesh comes only from tt-mlir's `ttcore.meshes` (no tt.device) is drawn on
// that mesh, as the passes read it: shard_dims [0, 1] on the 2x2 mesh split the 64x64 tensor into
// 2 x 2 blocks of 32x32; block B3 is rows 32:64, columns 32:64, on the device at (1,1).
// CHECK: %arg0: tensor<64x64xf32> (the host tensor, as distributed)  [S0, S1] on mesh 2x2
// CHECK-NEXT: 4 blocks on 4 devices
// CHECK: B3 {{.*}} [32:64, 32:64] {{.*}} 32x32 {{.*}} (1,1)

// tt-mlir's SPMD results test: shard_dims [-1, 1] on its 1x2 mesh, 32x64 in two 32x32 column halves.
// RESULTS: %arg0: tensor<32x64xf32> (the host tensor, as distributed)  [R, S1] on mesh 1x2
// RESULTS: B1 {{.*}} [0:32, 32:64] {{.*}} 32x32 {{.*}} (0,1)

module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 2x2>]>} {
  func.func @main(%arg0: tensor<64x64xf32>) -> tensor<32x32xf32> {
    %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: 0, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<64x64xf32>) -> tensor<32x32xf32>
    return %0 : tensor<32x32xf32>
  }
}
