// RUN: meshc-opt %examples/t3k_block_shard.mlir -p ttir-to-ttnn-pipeline | filecheck %s --check-prefix=TTNN
// RUN: meshc-opt %examples/t3k_block_shard.mlir -p ttir-to-ttmetal-pipeline | filecheck %s --check-prefix=METAL

// The TT-Mesh sharding spec Example 3, golden: shard (64, 64), global (256, 128), ROW_MAJOR,
// size 128 * 256 * 4 bytes; each device holds [1, 1, 64, 64].
// TTNN: #sharded_buffer_config = #ttnn.sharded_buffer_config<global_buffer_size = 131072, shard_shape = [64, 64], global_buffer_shape = [256, 128], orientation = row_major>
// TTNN: "ttnn.distribute_tensor"(%x, %{{.*}}) {shard_dims = array<i64: 2, 3>, config = #sharded_buffer_config{{.*}} -> tensor<1x1x64x64xf32
// METAL: "ttmetal.enqueue_write_buffer"(%x, %{{.*}}) {shard_dims = array<i64: 2, 3>, config = #sharded_buffer_config}
