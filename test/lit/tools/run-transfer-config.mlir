// The simulator moves host data through the #ttnn.sharded_buffer_config the compiler emits:
// a legal config that differs from the program's (here ROW_MAJOR -> COL_MAJOR on the
// distribute only, mapper dropped) puts the blocks on other devices, and --check fails.
// (TT-Mesh sharding spec, Example 3: COL_MAJOR fills down a mesh column, so device (0, 1) gets
// block 2 = columns 128..191 instead of block 1 = columns 64..127.)

// RUN: meshc-opt %examples/t3k_block_shard.mlir -p ttir-to-ttnn-pipeline -o %t.ttnn.mlir
// RUN: meshc-run %t.ttnn.mlir --check --golden %examples/t3k_block_shard.mlir | filecheck %s --check-prefix=SAME
// RUN: sed -e '/distribute_tensor/s/mapper = [^>]*>, config = #sharded_buffer_config/config = #ttnn.sharded_buffer_config<global_buffer_size = 131072, shard_shape = [64, 64], global_buffer_shape = [256, 128], orientation = col_major>/' %t.ttnn.mlir > %t.moved.mlir
// RUN: grep -c "orientation = col_major" %t.moved.mlir | filecheck %s --check-prefix=EDITED
// RUN: not meshc-run %t.moved.mlir --check --golden %examples/t3k_block_shard.mlir 2>&1 | filecheck %s --check-prefix=MOVED

// The same edit on the ttmetal lowering (its transfers carry no mapper).
// RUN: meshc-opt %examples/t3k_block_shard.mlir -p ttir-to-ttmetal-pipeline -o %t.metal.mlir
// RUN: sed -e '/enqueue_write_buffer/s/config = #sharded_buffer_config/config = #ttnn.sharded_buffer_config<global_buffer_size = 131072, shard_shape = [64, 64], global_buffer_shape = [256, 128], orientation = col_major>/' %t.metal.mlir > %t.metal-moved.mlir
// RUN: not meshc-run %t.metal-moved.mlir --check --golden %examples/t3k_block_shard.mlir 2>&1 | filecheck %s --check-prefix=MOVED

// SAME: check: result0 matches the golden run
// EDITED: 1
// MOVED: check: MISMATCH at result0[0, 0, {{[0-9]+}}, {{[0-9]+}}]
