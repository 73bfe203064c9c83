// RUN: meshc-opt %s --split-input-file --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

// The simulator executes a transfer's #ttnn.sharded_buffer_config, so a config that disagrees
// with its op (the mapper, the tensor, the per-device piece, the mesh) is a located error.
// Golden configs: the TT-Mesh sharding spec's Example 3 (128x256 over a 2x4 mesh, 64x64 blocks,
// ROW_MAJOR) and Example 1 (shard_shape (0, 96), ROW_MAJOR).

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @orientation(%x: tensor<128x256xf32>) {
    // expected-error @+1 {{the config disagrees with the mapper ShardTensor2dMesh(dims=(0, 1)), which lowers to shard_shape [64, 64], global_buffer_shape [256, 128], orientation row_major}}
    %0 = "ttnn.distribute_tensor"(%x) {shard_dims = array<i64: 0, 1>, form = "2d", mapper = #ttnn.mesh_mapper<shard_2d, dims = [0, 1]>, config = #ttnn.sharded_buffer_config<global_buffer_size = 131072, shard_shape = [64, 64], global_buffer_shape = [256, 128], orientation = col_major>} : (tensor<128x256xf32>) -> tensor<64x64xf32>
    func.return
  }
}
// CHECK: transfer_config-errors.mlir:12:5: error: 'ttnn.distribute_tensor' op #ttnn.sharded_buffer_config does not match this transfer: the config disagrees with the mapper
// CHECK-NOT: Traceback

// -----

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @replicate(%x: tensor<128x256xf32>) {
    // expected-error @+1 {{the config disagrees with the mapper ReplicateTensorToMesh(), which lowers to shard_shape [0, 0]}}
    %0 = "ttnn.distribute_tensor"(%x) {shard_dims = array<i64: 0, 1>, form = "2d", mapper = #ttnn.mesh_mapper<replicate>, config = #ttnn.sharded_buffer_config<global_buffer_size = 131072, shard_shape = [64, 64], global_buffer_shape = [256, 128], orientation = row_major>} : (tensor<128x256xf32>) -> tensor<64x64xf32>
    func.return
  }
}
// CHECK: transfer_config-errors.mlir:24:5: error: 'ttnn.distribute_tensor' op {{.*}}ReplicateTensorToMesh()

// -----

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @shard(%x: tensor<128x256xf32>) {
    // expected-error @+1 {{the config cuts the buffer into 16 shards (1x16) but COL_MAJOR with replication places them on the 2 rows of mesh 2x4: more shards than places}}
    %0 = "ttnn.distribute_tensor"(%x) {shard_dims = array<i64: 0, 1>, form = "2d", config = #ttnn.sharded_buffer_config<global_buffer_size = 131072, shard_shape = [16, 0], global_buffer_shape = [256, 128], orientation = col_major>} : (tensor<128x256xf32>) -> tensor<64x64xf32>
    func.return
  }
}

// -----

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @empty_devices(%x: tensor<64x64xf32>) {
    // expected-error @+1 {{the config leaves 4 device(s) of mesh 2x4 without a shard (the first at (0, 2)): 2 shards, row_major}}
    %0 = "ttnn.distribute_tensor"(%x) {shard_dims = array<i64: -1, -1>, form = "2d", config = #ttnn.sharded_buffer_config<global_buffer_size = 16384, shard_shape = [0, 32], global_buffer_shape = [64, 64], orientation = row_major>} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return
  }
}

// -----

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @buffer_shape(%x: tensor<4x3x32x32xf32>) {
    // expected-error @+1 {{global_buffer_shape [32, 96] is not [32, 384], the tensor [4, 3, 32, 32] flattened along y}}
    %0 = "ttnn.distribute_tensor"(%x) {shard_dims = array<i64: -1, 0>, form = "2d", config = #ttnn.sharded_buffer_config<global_buffer_size = 49152, shard_shape = [0, 96], global_buffer_shape = [32, 96], orientation = row_major>} : (tensor<4x3x32x32xf32>) -> tensor<1x3x32x32xf32>
    func.return
  }
}

// -----

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @form(%x: tensor<4x3x32x32xf32>) {
    // expected-error @+1 {{form "nd" but the config is a 2D #ttnn.sharded_buffer_config}}
    %0 = "ttnn.distribute_tensor"(%x) {shard_dims = array<i64: -1, 0>, form = "nd", config = #ttnn.sharded_buffer_config<global_buffer_size = 49152, shard_shape = [0, 96], global_buffer_shape = [32, 384], orientation = row_major>} : (tensor<4x3x32x32xf32>) -> tensor<1x3x32x32xf32>
    func.return
  }
}

// -----

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @aggregate(%x: tensor<64x64xf32>) {
    // expected-error @+1 {{the config disagrees with the mapper ShardTensor2dMesh(dims=(0, 1))}}
    %0 = "ttnn.aggregate_tensor"(%x) {shard_dims = array<i64: 0, 1>, form = "2d", mapper = #ttnn.mesh_mapper<shard_2d, dims = [0, 1]>, config = #ttnn.sharded_buffer_config<global_buffer_size = 131072, shard_shape = [64, 64], global_buffer_shape = [256, 128], orientation = col_major>} : (tensor<64x64xf32>) -> tensor<128x256xf32>
    func.return
  }
}

// -----

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @metal(%x: tensor<128x256xf32>, %b: !ttmetal.buffer<64x64xf32>) {
    // expected-error @+1 {{a shard of the config is 128x128 (x, y), but each device holds a 64x64 piece}}
    "ttmetal.enqueue_write_buffer"(%x, %b) {shard_dims = array<i64: 0, 1>, form = "2d", config = #ttnn.sharded_buffer_config<global_buffer_size = 131072, shard_shape = [128, 0], global_buffer_shape = [256, 128], orientation = col_major>} : (tensor<128x256xf32>, !ttmetal.buffer<64x64xf32>) -> ()
    func.return
  }
}
// CHECK: transfer_config-errors.mlir:85:5: error: 'ttmetal.enqueue_write_buffer' op #ttnn.sharded_buffer_config does not match this transfer
