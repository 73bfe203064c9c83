// A tt-mlir program that names no mesh, given one by the pipeline's mesh-shape: `--check` runs
// the golden program on that mesh too (the pipeline gives the ttir reference it keeps the device
// it registered), whether meshc-run lowers it or checks an already lowered file alone.
// RUN: meshc-run %s --pipeline 'ttir-to-ttnn-pipeline{system=n300 mesh-shape=1,2}' --seed 0 --check | filecheck %s
// RUN: meshc-run %s --target ttmetal --pipeline 'ttir-to-ttmetal-pipeline{system=n300 mesh-shape=1,2}' --seed 0 --check | filecheck %s
// RUN: meshc-opt %s -p 'ttir-to-ttnn-pipeline{system=n300 mesh-shape=1,2}' -o %t.ttnn.mlir
// RUN: meshc-run %t.ttnn.mlir --seed 0 --check | filecheck %s
// RUN: meshc-opt %s -p 'ttir-to-ttnn-pipeline{system=n300 mesh-shape=1,2}' | filecheck %s --check-prefix=REF
// CHECK: check: result0 matches the golden run
// REF: #device = #tt.device<{{.*}}meshShape = 1x2
// REF: module attributes {meshc.reference, tt.system_desc = #system_desc, tt.device = #device}
module {
  func.func @main(%arg0: tensor<32x128xf32>) -> tensor<32x128xf32> {
    %0 = ttir.empty() : tensor<32x64xf32>
    %1 = "ttir.mesh_shard"(%arg0, %0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x128xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %2 = ttir.empty() : tensor<32x64xf32>
    %3 = "ttir.exp"(%1, %2) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %4 = ttir.empty() : tensor<32x128xf32>
    %5 = "ttir.all_gather"(%3, %4) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x64xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %6 = ttir.empty() : tensor<32x128xf32>
    %7 = "ttir.mesh_shard"(%5, %6) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    return %7 : tensor<32x128xf32>
  }
}
