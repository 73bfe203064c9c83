// RUN: meshc-opt %s --no-aliases | filecheck %s
// RUN: meshc-opt %s | meshc-opt --no-aliases | filecheck %s
// RUN: meshc-opt %s --print-op-generic | meshc-opt --no-aliases | filecheck %s

// #ttnn.sharded_buffer_config: TT-Mesh's 2D config (fields as in the TT-Mesh sharding spec, shapes as (x, y))
// and the ND form print as they parse and survive a round trip.

// The TT-Mesh sharding spec's three T3K (2x4) examples, bf16 (datum size 2).
// CHECK-LABEL: func.func @ttmesh
// CHECK-SAME: ex1 = #ttnn.sharded_buffer_config<global_buffer_size = 24576, shard_shape = [0, 96], global_buffer_shape = [32, 384], orientation = row_major>
// CHECK-SAME: ex2 = #ttnn.sharded_buffer_config<global_buffer_size = 6291456, shard_shape = [128, 0], global_buffer_shape = [256, 12288], orientation = col_major>
// CHECK-SAME: ex3 = #ttnn.sharded_buffer_config<global_buffer_size = 65536, shard_shape = [64, 64], global_buffer_shape = [256, 128], orientation = row_major>
func.func @ttmesh() attributes {
    ex1 = #ttnn.sharded_buffer_config<global_buffer_size = 24576, shard_shape = [0, 96], global_buffer_shape = [32, 384], orientation = row_major>,
    ex2 = #ttnn.sharded_buffer_config<global_buffer_size = 6291456, shard_shape = [128, 0], global_buffer_shape = [256, 12288], orientation = col_major>,
    ex3 = #ttnn.sharded_buffer_config<global_buffer_size = 65536, shard_shape = [64, 64], global_buffer_shape = [256, 128], orientation = row_major>} {
  func.return
}

// Full replication, and the ND form of y-sharding with b, z > 1 (which the 2D form refuses).
// CHECK-LABEL: func.func @other
// CHECK-SAME: full = #ttnn.sharded_buffer_config<global_buffer_size = 4096, shard_shape = [0, 0], global_buffer_shape = [32, 64], orientation = row_major>
// CHECK-SAME: nd = #ttnn.sharded_buffer_config<nd, global_buffer_size = 24576, global_shape = [2, 3, 32, 64], shard_shape = [2, 3, 16, 64], mesh_shape = [2, 4], dim_axes = [[], [], [0], []]>
func.func @other() attributes {
    full = #ttnn.sharded_buffer_config<global_buffer_size = 4096, shard_shape = [0, 0], global_buffer_shape = [32, 64], orientation = row_major>,
    nd = #ttnn.sharded_buffer_config<nd, global_buffer_size = 24576, global_shape = [2, 3, 32, 64], shard_shape = [2, 3, 16, 64], mesh_shape = [2, 4], dim_axes = [[], [], [0], []]>} {
  func.return
}
