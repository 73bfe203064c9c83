// RUN: meshc-opt %s --split-input-file --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

// Bad #ttnn.sharded_buffer_config attributes are located errors that say what is wrong.

// expected-error @+1 {{shard y 97 does not divide the global buffer's y 384 (TT-Mesh needs shards that divide the buffer)}}
func.func @f() attributes {e = #ttnn.sharded_buffer_config<global_buffer_size = 24576, shard_shape = [0, 97], global_buffer_shape = [32, 384], orientation = row_major>} {
  func.return
}
// CHECK: sharded_buffer_config-errors.mlir:7:60: error: shard y 97 does not divide
// CHECK-NOT: Traceback

// -----

// expected-error @+1 {{expected orientation row_major or col_major}}
func.func @f() attributes {e = #ttnn.sharded_buffer_config<global_buffer_size = 24576, shard_shape = [0, 96], global_buffer_shape = [32, 384], orientation = diagonal>} {
  func.return
}
// CHECK: sharded_buffer_config-errors.mlir:16:158: error: expected orientation row_major or col_major

// -----

// expected-error @+1 {{global_buffer_size 1000 is not a whole number of datums of the 32x384 buffer (expected x * y * datum_size)}}
func.func @f() attributes {e = #ttnn.sharded_buffer_config<global_buffer_size = 1000, shard_shape = [0, 96], global_buffer_shape = [32, 384], orientation = row_major>} {
  func.return
}
// CHECK: sharded_buffer_config-errors.mlir:24:60: error: global_buffer_size 1000 is not a whole number

// -----

// expected-error @+1 {{shard_shape must be a pair (x, y) of non-negative integers, got [0, 96, 1]}}
func.func @f() attributes {e = #ttnn.sharded_buffer_config<global_buffer_size = 24576, shard_shape = [0, 96, 1], global_buffer_shape = [32, 384], orientation = row_major>} {
  func.return
}
// CHECK: sharded_buffer_config-errors.mlir:32:60: error: shard_shape must be a pair

// -----

// expected-error @+1 {{Expected ',' before the next field, 'global_buffer_shape = ...'}}
func.func @f() attributes {e = #ttnn.sharded_buffer_config<global_buffer_size = 512, shard_shape = [2, 4]>} {
  func.return
}
// CHECK: sharded_buffer_config-errors.mlir:40:106: error: Expected ','

// -----

// expected-error @+1 {{dim 2: a shard of 4 over 2 pieces does not cover 16 elements (expected shard 8)}}
func.func @f() attributes {g = #ttnn.sharded_buffer_config<nd, global_buffer_size = 512, global_shape = [2, 4, 16], shard_shape = [2, 4, 4], mesh_shape = [2, 4], dim_axes = [[], [], [0]]>} {
  func.return
}
// CHECK: sharded_buffer_config-errors.mlir:48:60: error: dim 2: a shard of 4 over 2 pieces

// -----

// expected-error @+1 {{sharding spec uses mesh axis 2, but the mesh 2x4 has 2 axes}}
func.func @f() attributes {g = #ttnn.sharded_buffer_config<nd, global_buffer_size = 512, global_shape = [2, 4, 16], shard_shape = [2, 4, 8], mesh_shape = [2, 4], dim_axes = [[], [2], [0]]>} {
  func.return
}
// CHECK: sharded_buffer_config-errors.mlir:56:60: error: sharding spec uses mesh axis 2

// -----

// expected-error @+1 {{sharding spec uses a mesh axis more than once}}
func.func @f() attributes {g = #ttnn.sharded_buffer_config<nd, global_buffer_size = 512, global_shape = [2, 4, 16], shard_shape = [1, 4, 8], mesh_shape = [2, 4], dim_axes = [[0], [], [0]]>} {
  func.return
}
// CHECK: sharded_buffer_config-errors.mlir:64:60: error: sharding spec uses a mesh axis more than once
