// RUN: meshc-opt %examples/t3k_width_shard.mlir -p ttir-to-ttnn-pipeline | filecheck %s --check-prefix=TTNN
// RUN: meshc-opt %examples/t3k_width_shard.mlir -p ttir-to-ttmetal-pipeline | filecheck %s --check-prefix=METAL

// The TT-Mesh sharding spec Example 2, golden: shard (x = 128, y = 0), global (256, 32 * 3 * 128), COL_MAJOR,
// size 32 * 3 * 128 * 256 * 4 bytes; each device holds [32, 3, 128, 128].
// TTNN: #sharded_buffer_config = #ttnn.sharded_buffer_config<global_buffer_size = 12582912, shard_shape = [128, 0], global_buffer_shape = [256, 12288], orientation = col_major>
// TTNN: "ttnn.distribute_tensor"(%x, %{{.*}}) {shard_dims = array<i64: 3, -1>, config = #sharded_buffer_config{{.*}} -> tensor<32x3x128x128xf32
// METAL: "ttmetal.enqueue_write_buffer"(%x, %{{.*}}) {shard_dims = array<i64: 3, -1>, config = #sharded_buffer_config}
