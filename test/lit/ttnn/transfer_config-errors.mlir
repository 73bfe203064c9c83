// RUN: meshc-opt %s --split-input-file --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

// The simulator executes a transfer's #ttnn.sharded_buffer_config, so a config that disagrees
// with its op (the blocks its shard_dims give each device, the tensor, the per-device piece, the
// mesh) is a located error. Golden configs: the TT-Mesh sharding spec's Example 3 (128x256 over a
// 2x4 mesh, 64x64 blocks, ROW_MAJOR) and Example 1 (shard_shape (0, 96), ROW_MAJOR).

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @orientation(%x: tensor<128x256xf32>) {
    // COL_MAJOR puts block i = (i // 4, i % 4) on device (i % 2, i // 2): device (0, 1) gets block 2, at
    // x = 128, where shard_dims [0, 1] give it block (0, 1), at x = 64; only (0, 0) and (1, 3) agree.
    // expected-error @+1 {{the config gives device (0, 1) the block at [0, 128] of the 2D buffer (y, x), but the sharding [S0, S1] gives it the block at [0, 64] (6 of 8 devices differ)}}
    %0 = "ttnn.distribute_tensor"(%x) {shard_dims = array<i64: 0, 1>, config = #ttnn.sharded_buffer_config<global_buffer_size = 131072, shard_shape = [64, 64], global_buffer_shape = [256, 128], orientation = col_major>} : (tensor<128x256xf32>) -> tensor<64x64xf32>
    func.return
  }
}
// CHECK: transfer_config-errors.mlir:14:5: error: 'ttnn.distribute_tensor' op #ttnn.sharded_buffer_config does not match this transfer: the config gives device (0, 1)
// CHECK-NOT: Traceback

// -----

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @transposed_axes(%x: tensor<128x256xf32>) {
    // shard_dims [1, 0]: mesh axis 1 (4 devices) splits dim 0, axis 0 (2 devices) dim 1, so device
    // (r, c) holds rows 32c.., columns 128r..; ROW_MAJOR 128x32 shards put shard i = 4r + c, at
    // y = 32 (i // 2), x = 128 (i % 2): device (0, 1) gets y = 0, x = 128; only (0, 0) and (1, 3) agree.
    // expected-error @+1 {{the config gives device (0, 1) the block at [0, 128] of the 2D buffer (y, x), but the sharding [S1, S0] gives it the block at [32, 0] (6 of 8 devices differ)}}
    %0 = "ttnn.distribute_tensor"(%x) {shard_dims = array<i64: 1, 0>, config = #ttnn.sharded_buffer_config<global_buffer_size = 131072, shard_shape = [128, 32], global_buffer_shape = [256, 128], orientation = row_major>} : (tensor<128x256xf32>) -> tensor<32x128xf32>
    func.return
  }
}
// CHECK: transfer_config-errors.mlir:29:5: error: 'ttnn.distribute_tensor' op {{.*}}the sharding [S1, S0]

// -----

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @shard(%x: tensor<128x256xf32>) {
    // expected-error @+1 {{the config cuts the buffer into 16 shards (1x16) but COL_MAJOR with replication places them on the 2 rows of mesh 2x4: more shards than places}}
    %0 = "ttnn.distribute_tensor"(%x) {shard_dims = array<i64: 0, 1>, config = #ttnn.sharded_buffer_config<global_buffer_size = 131072, shard_shape = [16, 0], global_buffer_shape = [256, 128], orientation = col_major>} : (tensor<128x256xf32>) -> tensor<64x64xf32>
    func.return
  }
}

// -----

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @empty_devices(%x: tensor<64x64xf32>) {
    // expected-error @+1 {{the config leaves 4 device(s) of mesh 2x4 without a shard (the first at (0, 2)): 2 shards, row_major}}
    %0 = "ttnn.distribute_tensor"(%x) {shard_dims = array<i64: -1, -1>, config = #ttnn.sharded_buffer_config<global_buffer_size = 16384, shard_shape = [0, 32], global_buffer_shape = [64, 64], orientation = row_major>} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return
  }
}

// -----

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @buffer_shape(%x: tensor<4x3x32x32xf32>) {
    // expected-error @+1 {{global_buffer_shape [32, 96] is not [32, 384], the tensor [4, 3, 32, 32] flattened along y}}
    %0 = "ttnn.distribute_tensor"(%x) {shard_dims = array<i64: -1, 0>, config = #ttnn.sharded_buffer_config<global_buffer_size = 49152, shard_shape = [0, 96], global_buffer_shape = [32, 96], orientation = row_major>} : (tensor<4x3x32x32xf32>) -> tensor<1x3x32x32xf32>
    func.return
  }
}

// -----

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @nd_axes(%x: tensor<4x3x32x32xf32>) {
    // An ND config spreading dim 0 over both mesh axes (8 one-row pieces, the last four empty) where
    // shard_dims [-1, 0] split it over axis 1 only: device (1, 0) would get row 4 (past the end), not row 0.
    // expected-error @+1 {{the config gives device (1, 0) the block at [4, 0, 0, 0] of the tensor, but the sharding [S1, R, R, R] gives it the block at [0, 0, 0, 0] (4 of 8 devices differ)}}
    %0 = "ttnn.distribute_tensor"(%x) {shard_dims = array<i64: -1, 0>, config = #ttnn.sharded_buffer_config<nd, global_buffer_size = 49152, global_shape = [4, 3, 32, 32], shard_shape = [1, 3, 32, 32], mesh_shape = [2, 4], dim_axes = [[0, 1], [], [], []]>} : (tensor<4x3x32x32xf32>) -> tensor<1x3x32x32xf32>
    func.return
  }
}

// -----

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @aggregate(%x: tensor<64x64xf32>) {
    // expected-error @+1 {{the config gives device (0, 1) the block at [0, 128] of the 2D buffer (y, x), but the sharding [S0, S1] gives it the block at [0, 64]}}
    %0 = "ttnn.aggregate_tensor"(%x) {shard_dims = array<i64: 0, 1>, config = #ttnn.sharded_buffer_config<global_buffer_size = 131072, shard_shape = [64, 64], global_buffer_shape = [256, 128], orientation = col_major>} : (tensor<64x64xf32>) -> tensor<128x256xf32>
    func.return
  }
}

// -----

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @metal(%x: tensor<128x256xf32>, %b: !ttmetal.buffer<64x64xf32>) {
    // expected-error @+1 {{a shard of the config is 128x128 (x, y), but each device holds a 64x64 piece}}
    "ttmetal.enqueue_write_buffer"(%x, %b) {shard_dims = array<i64: 0, 1>, config = #ttnn.sharded_buffer_config<global_buffer_size = 131072, shard_shape = [128, 0], global_buffer_shape = [256, 128], orientation = col_major>} : (tensor<128x256xf32>, !ttmetal.buffer<64x64xf32>) -> ()
    func.return
  }
}
// CHECK: transfer_config-errors.mlir:92:5: error: 'ttmetal.enqueue_write_buffer' op #ttnn.sharded_buffer_config does not match this transfer
