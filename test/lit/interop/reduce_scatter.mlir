// A row-parallel matmul on a 2x2 mesh in tt-mlir's spelling (tensor.empty destinations, the
// older #tt. enum spelling): K split over axis 1, the partial sums reduce-scattered over axis 1,
// gathered back; rows split over axis 0.
// RUN: meshc-opt %s -p 'tt-register-device{system=t3k mesh-shape=2,2}' -o %t.mlir
// RUN: meshc-run %t.mlir --seed 0 --check | filecheck %s
// RUN: meshc-run %t.mlir --target ttmetal --seed 0 --check | filecheck %s
// CHECK: check: result0 matches the golden run
module {
  func.func @main(%x: tensor<64x128xf32>, %w: tensor<128x64xf32>) -> tensor<64x64xf32> {
    %0 = tensor.empty() : tensor<32x64xf32>
    %xs = "ttir.mesh_shard"(%x, %0) <{shard_dims = array<i64: 0, 1>, shard_direction = #tt.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 2>, shard_type = #tt.shard_type<devices>}> : (tensor<64x128xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %1 = tensor.empty() : tensor<64x64xf32>
    %ws = "ttir.mesh_shard"(%w, %1) <{shard_dims = array<i64: -1, 0>, shard_direction = #tt.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1>, shard_type = #tt.shard_type<devices>}> : (tensor<128x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %2 = tensor.empty() : tensor<32x64xf32>
    %p = "ttir.matmul"(%xs, %ws, %2) : (tensor<32x64xf32>, tensor<64x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %3 = tensor.empty() : tensor<32x32xf32>
    %r = "ttir.reduce_scatter"(%p, %3) <{cluster_axis = 1 : ui32, reduce_type = #tt.reduce_type<sum>, scatter_dim = 1 : si32}> : (tensor<32x64xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %4 = tensor.empty() : tensor<32x64xf32>
    %g = "ttir.all_gather"(%r, %4) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %5 = tensor.empty() : tensor<64x64xf32>
    %y = "ttir.mesh_shard"(%g, %5) <{shard_dims = array<i64: 0, -1>, shard_direction = #tt.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1>, shard_type = #tt.shard_type<devices>}> : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    return %y : tensor<64x64xf32>
  }
}
