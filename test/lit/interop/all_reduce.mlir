// All-reduce (max, then sum) and collective_permute on a 1x4 mesh in tt-mlir's spelling.
// RUN: meshc-opt %s -p 'tt-register-device{system=t3k mesh-shape=1,4}' -o %t.mlir
// RUN: meshc-run %t.mlir --seed 0 --check | filecheck %s
// RUN: meshc-run %t.mlir --target ttmetal --seed 0 --check | filecheck %s
// CHECK: check: result0 matches the golden run
module attributes {} {
  func.func @main(%arg0: tensor<32x256xf32>) -> tensor<32x256xf32> {
    %0 = ttir.empty() : tensor<32x64xf32>
    %1 = "ttir.mesh_shard"(%arg0, %0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x256xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %2 = ttir.empty() : tensor<32x64xf32>
    %3 = "ttir.all_reduce"(%1, %2) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<max>}> : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %4 = ttir.empty() : tensor<32x64xf32>
    %5 = "ttir.collective_permute"(%1, %4) <{source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %6 = ttir.empty() : tensor<32x64xf32>
    %7 = "ttir.add"(%3, %5, %6) : (tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %8 = ttir.empty() : tensor<32x64xf32>
    %9 = "ttir.all_reduce"(%7, %8) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %10 = ttir.empty() : tensor<32x256xf32>
    %11 = "ttir.mesh_shard"(%9, %10) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x64xf32>, tensor<32x256xf32>) -> tensor<32x256xf32>
    return %11 : tensor<32x256xf32>
  }
}
