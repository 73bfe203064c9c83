// RUN: meshc-opt %s | filecheck %s
// RUN: meshc-opt %s | meshc-opt | filecheck %s
// RUN: meshc-opt %s --print-op-generic | meshc-opt | filecheck %s

// #ttnn.mesh_mapper: TTNN's mesh mappers print as they parse and survive a round trip.

// CHECK-LABEL: func.func @mappers
// CHECK-SAME: a = #ttnn.mesh_mapper<replicate>
// CHECK-SAME: b = #ttnn.mesh_mapper<shard, dim = 0>
// CHECK-SAME: c = #ttnn.mesh_mapper<shard, dim = -1, padded>
// CHECK-SAME: d = #ttnn.mesh_mapper<shard_2d, dims = [none, 0]>
// CHECK-SAME: e = #ttnn.mesh_mapper<shard_2d, dims = [3, none]>
// CHECK-SAME: f = #ttnn.mesh_mapper<shard_2d, dims = [2, 3]>
// CHECK-SAME: g = #ttnn.mesh_mapper<shard_nd, dims = [0, none, 1], padded>
func.func @mappers() attributes {
    a = #ttnn.mesh_mapper<replicate>,
    b = #ttnn.mesh_mapper<shard, dim = 0>,
    c = #ttnn.mesh_mapper<shard, dim = -1, padded>,
    d = #ttnn.mesh_mapper<shard_2d, dims = [none, 0]>,
    e = #ttnn.mesh_mapper<shard_2d, dims = [3, none]>,
    f = #ttnn.mesh_mapper<shard_2d, dims = [2, 3]>,
    g = #ttnn.mesh_mapper<shard_nd, dims = [0, none, 1], padded>} {
  func.return
}
