// tt-mlir's spelling: ttcore enums, properties, ttir.empty destinations, a one-entry replicate
// shard_dims. Through both pipelines on a 1x2 mesh, checked against the numpy run.
// RUN: meshc-opt %s | filecheck %s
// RUN: meshc-opt %s -p 'tt-register-device{system=n300 mesh-shape=1,2}' -o %t.mlir
// RUN: meshc-run %t.mlir --seed 0 --check | filecheck %s --check-prefix=SIM
// RUN: meshc-run %t.mlir --target ttmetal --seed 0 --check | filecheck %s --check-prefix=SIM
// CHECK-NOT: ttir.empty
// CHECK: "ttir.mesh_shard"(%{{.*}}) {shard_dims = array<i64: -1, 3>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1, 1, 2>, shard_type = #ttir.shard_type<devices>} : (tensor<1x1x64x128xf32>) -> tensor<1x1x64x64xf32>
// CHECK: "ttir.all_gather"(%{{.*}}) {all_gather_dim = 3 : si32, cluster_axis = 1 : ui32} : (tensor<1x1x64x64xf32>) -> tensor<1x1x64x128xf32>
// SIM: check: result0 matches the golden run
module attributes {} {
  func.func @main(%arg0: tensor<1x1x64x128xf32>) -> tensor<1x1x64x128xf32> {
    %0 = ttir.empty() : tensor<1x1x64x64xf32>
    %1 = "ttir.mesh_shard"(%arg0, %0) <{shard_dims = array<i64: -1, 3>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1, 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<1x1x64x128xf32>, tensor<1x1x64x64xf32>) -> tensor<1x1x64x64xf32>
    %2 = ttir.empty() : tensor<1x1x64x64xf32>
    %3 = "ttir.exp"(%1, %2) : (tensor<1x1x64x64xf32>, tensor<1x1x64x64xf32>) -> tensor<1x1x64x64xf32>
    %4 = ttir.empty() : tensor<1x1x64x128xf32>
    %5 = "ttir.all_gather"(%3, %4) <{all_gather_dim = 3 : si32, cluster_axis = 1 : ui32}> : (tensor<1x1x64x64xf32>, tensor<1x1x64x128xf32>) -> tensor<1x1x64x128xf32>
    %6 = ttir.empty() : tensor<1x1x64x128xf32>
    %7 = "ttir.mesh_shard"(%5, %6) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<1x1x64x128xf32>, tensor<1x1x64x128xf32>) -> tensor<1x1x64x128xf32>
    return %7 : tensor<1x1x64x128xf32>
  }
}
