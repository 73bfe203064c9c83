// The simulator moves host data through the #ttnn.sharded_buffer_config a transfer carries, in
// either form: the ND config of the same placement as the lowering's 2D one (TT-Mesh sharding
// spec, Example 3: 64x64 blocks of a 128x256 tensor, block (r, c) on device (r, c)) runs and
// matches the golden run. A config that places the blocks elsewhere than the op's shard_dims
// (the same blocks COL_MAJOR: block i = (i // 4, i % 4) goes down a mesh column, to device
// (i % 2, i // 2), so device (0, 1) would get block 2, columns 128..191, instead of block 1)
// is refused at the op before anything runs, on ttnn and on ttmetal.

// RUN: meshc-opt %examples/t3k_block_shard.mlir -p ttir-to-ttnn-pipeline -o %t.ttnn.mlir
// RUN: meshc-run %t.ttnn.mlir --check --golden %examples/t3k_block_shard.mlir | filecheck %s --check-prefix=SAME
// RUN: sed -e '/distribute_tensor/s/config = #sharded_buffer_config/config = #ttnn.sharded_buffer_config<nd, global_buffer_size = 131072, global_shape = [1, 1, 128, 256], shard_shape = [1, 1, 64, 64], mesh_shape = [2, 4], dim_axes = [[], [], [0], [1]]>/' %t.ttnn.mlir > %t.nd.mlir
// RUN: grep -c "sharded_buffer_config<nd" %t.nd.mlir | filecheck %s --check-prefix=EDITED
// RUN: meshc-run %t.nd.mlir --check --golden %examples/t3k_block_shard.mlir | filecheck %s --check-prefix=SAME
// RUN: sed -e '/distribute_tensor/s/config = #sharded_buffer_config/config = #ttnn.sharded_buffer_config<global_buffer_size = 131072, shard_shape = [64, 64], global_buffer_shape = [256, 128], orientation = col_major>/' %t.ttnn.mlir > %t.moved.mlir
// RUN: grep -c "orientation = col_major" %t.moved.mlir | filecheck %s --check-prefix=EDITED
// RUN: not meshc-run %t.moved.mlir --check --golden %examples/t3k_block_shard.mlir 2>&1 | filecheck %s --check-prefix=MOVED

// The same edit on the ttmetal lowering.
// RUN: meshc-opt %examples/t3k_block_shard.mlir -p ttir-to-ttmetal-pipeline -o %t.metal.mlir
// RUN: sed -e '/enqueue_write_buffer/s/config = #sharded_buffer_config/config = #ttnn.sharded_buffer_config<global_buffer_size = 131072, shard_shape = [64, 64], global_buffer_shape = [256, 128], orientation = col_major>/' %t.metal.mlir > %t.metal-moved.mlir
// RUN: not meshc-run %t.metal-moved.mlir --check --golden %examples/t3k_block_shard.mlir 2>&1 | filecheck %s --check-prefix=MOVED

// SAME: check: result0 matches the golden run
// EDITED: 1
// MOVED: error: {{.*}} op #ttnn.sharded_buffer_config does not match this transfer: the config gives device (0, 1) the block at [0, 128] of the 2D buffer (y, x), but the sharding [R, R, S0, S1] gives it the block at [0, 64] (6 of 8 devices differ)
// MOVED-NOT: Traceback
