// RUN: meshc-opt %examples/t3k_height_shard.mlir -p ttir-to-ttnn-pipeline | filecheck %s --check-prefix=TTNN
// RUN: meshc-opt %examples/t3k_height_shard.mlir -p ttir-to-ttmetal-pipeline | filecheck %s --check-prefix=METAL

// The TT-Mesh sharding spec Example 1, golden: shard (x = 0, y = 96), global (32, 4 * 3 * 32), ROW_MAJOR,
// size 4 * 3 * 32 * 32 * 4 bytes; each device holds [1, 3, 32, 32].
// TTNN: #sharded_buffer_config = #ttnn.sharded_buffer_config<global_buffer_size = 49152, shard_shape = [0, 96], global_buffer_shape = [32, 384], orientation = row_major>
// TTNN: "ttnn.distribute_tensor"(%x, %{{.*}}) {shard_dims = array<i64: -1, 0>, config = #sharded_buffer_config{{.*}} -> tensor<1x3x32x32xf32
// METAL: "ttmetal.enqueue_write_buffer"(%x, %{{.*}}) {shard_dims = array<i64: -1, 0>, config = #sharded_buffer_config}
