// tt-mlir's `ttcore.meshes` module attribute is the module's mesh: it prints as meshc's
// `tt.meshes`, the verifiers check collectives against it, and tt-register-device, both
// pipelines and meshc-run take the device for it (here the n300 for a 1x2 mesh) with no option.
// RUN: meshc-opt %s | filecheck %s
// RUN: meshc-opt %s -p tt-register-device | filecheck %s --check-prefix=DEV
// RUN: meshc-run %s --seed 1 --check | filecheck %s --check-prefix=SIM
// RUN: meshc-run %s --target ttmetal --seed 1 --check | filecheck %s --check-prefix=SIM
// RUN: not meshc-opt %s -p 'tt-register-device{mesh-shape=2,2}' 2>&1 | filecheck %s --check-prefix=OTHER
// CHECK: builtin.module @gather attributes {tt.meshes = #tt.meshes<[<"mesh" = 1x2>]>}
// DEV: #device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>
// DEV: builtin.module @gather attributes {tt.meshes = #tt.meshes<[<"mesh" = 1x2>]>, tt.system_desc = #system_desc, tt.device = #device}
// SIM: check: result0 matches the golden run
// OTHER: meshes.mlir:14:1: error: 'builtin.module' op the module's mesh (tt.meshes) is 1x2; tt-register-device{mesh-shape=2,2} would run it on 2x2
module @gather attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @main(%arg0: tensor<32x64xf32>) -> tensor<32x64xf32> {
    %0 = ttir.empty() : tensor<32x32xf32>
    %1 = "ttir.mesh_shard"(%arg0, %0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x64xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %2 = ttir.empty() : tensor<32x64xf32>
    %3 = "ttir.all_gather"(%1, %2) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %4 = ttir.empty() : tensor<32x64xf32>
    %5 = "ttir.mesh_shard"(%3, %4) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    return %5 : tensor<32x64xf32>
  }
}
