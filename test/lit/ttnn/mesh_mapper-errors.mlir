// RUN: meshc-opt %s --split-input-file --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

// Bad #ttnn.mesh_mapper attributes are located errors that say what was expected.

// expected-error @+1 {{expected a mesh mapper kind: replicate, shard, shard_2d, shard_nd}}
func.func @f() attributes {a = #ttnn.mesh_mapper<shard_3d, dim = 0>} {
  func.return
}
// CHECK: mesh_mapper-errors.mlir:7:50: error: expected a mesh mapper kind
// CHECK-NOT: Traceback

// -----

// expected-error @+1 {{Expected 'dim' (the next field is 'dim = ...')}}
func.func @f() attributes {a = #ttnn.mesh_mapper<shard, dims = [0]>} {
  func.return
}
// CHECK: mesh_mapper-errors.mlir:16:57: error: Expected 'dim'

// -----

// expected-error @+1 {{ShardTensor2dMesh takes dims=(d0, d1), one per mesh axis; got (0, 1, 2)}}
func.func @f() attributes {a = #ttnn.mesh_mapper<shard_2d, dims = [0, 1, 2]>} {
  func.return
}
// CHECK: mesh_mapper-errors.mlir:24:50: error: ShardTensor2dMesh takes dims=(d0, d1)

// -----

// expected-error @+1 {{Expected 'padded' (the only option after the dims is 'padded')}}
func.func @f() attributes {a = #ttnn.mesh_mapper<shard_2d, dims = [0, 1], pad>} {
  func.return
}
// CHECK: mesh_mapper-errors.mlir:32:75: error: Expected 'padded'

// -----

// expected-error @+1 {{Expected integer literal}}
func.func @f() attributes {a = #ttnn.mesh_mapper<shard_2d, dims = [x, 1]>} {
  func.return
}
// CHECK: mesh_mapper-errors.mlir:40:68: error: Expected integer literal
