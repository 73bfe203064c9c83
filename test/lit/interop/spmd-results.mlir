// An SPMD function may return device tensors (tt-mlir's tests do): the result stays distributed,
// one tensor a device. meshc-run prints each device's tensor, or with --aggregate the one tensor
// the pieces make under a sharding spec; --check compares every device's tensor with the golden
// run. `#ttcore.shard_type<identity>` passes a tensor through unchanged on every device: on the
// way in the host tensor is whole on each device, on the way out each device keeps its own.
// The values are checked against numpy on the inputs: result0 aggregated over [R, S1] is x * x,
// device d's result1 is x[:, 32d : 32d + 32] + y.
// RUN: python -c "import numpy as np; x = (np.arange(32 * 64) % 17 - 8).astype(np.float32).reshape(32, 64); y = (np.arange(32 * 32) % 5).astype(np.float32).reshape(32, 32); np.savez('%t.in.npz', arg0=x, arg1=y)"
// RUN: meshc-run %s --input %t.in.npz --check | filecheck %s --check-prefix=DEV
// RUN: meshc-run %s --input %t.in.npz --target ttmetal --check | filecheck %s --check-prefix=DEV
// RUN: meshc-run %s --input %t.in.npz --aggregate 'result0=[R, S1]' --save-outputs %t.ttnn | filecheck %s --check-prefix=AGG
// RUN: meshc-run %s --input %t.in.npz --target ttmetal --aggregate 'result0=[R, S1]' --save-outputs %t.metal | filecheck %s --check-prefix=AGG
// RUN: python -c "import numpy as np; z = np.load('%t.in.npz'); x, y = z['arg0'], z['arg1']; [np.testing.assert_array_equal(np.load(d + '/result0.npy'), x * x) for d in ('%t.ttnn', '%t.metal')]; [np.testing.assert_array_equal(np.load(d + '/result1.npy'), np.stack([x[:, :32] + y, x[:, 32:] + y])) for d in ('%t.ttnn', '%t.metal')]; print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// RUN: meshc-opt %s -p ttir-to-ttnn-pipeline | filecheck %s --check-prefix=TTNN
// RUN: meshc-opt %s -p ttir-to-ttmetal-pipeline | filecheck %s --check-prefix=METAL
// RUN: not meshc-run %s --aggregate 'result0=[R, S2]' 2>&1 | filecheck %s --check-prefix=BADSPEC
// DEV: result0@device0: 32x32 float32
// DEV: result0@device1: 32x32 float32
// DEV: result1@device0: 32x32 float32
// DEV: result1@device1: 32x32 float32
// DEV: check: result0 matches the golden run (within the f32 tolerance)
// DEV: check: result0: 0 of 2048 elements differ
// DEV: check: result1 matches the golden run (within the f32 tolerance)
// AGG: result0: 32x64 float32
// AGG: result1@device0: 32x32 float32
// NUMPY: numpy agrees
// TTNN: "ttnn.from_device"(%{{.*}}) : (tensor<32x32xf32, #ttnn_layout>) -> tensor<32x32xf32>
// TTNN: "ttnn.from_device"(%{{.*}}) : (tensor<32x32xf32, #ttnn_layout>) -> tensor<32x32xf32>
// TTNN-NOT: ttnn.aggregate_tensor
// METAL: "ttmetal.enqueue_read_shards"(%{{.*}}) : (!ttmetal.buffer<32x32xf32>) -> tensor<32x32xf32>
// METAL-NOT: ttmetal.enqueue_read_buffer
// BADSPEC: meshc-run: error: --aggregate [R, S2] for result0 on the 1x2 mesh: sharding spec '[R, S2]' at column 5: mesh axis 2 is out of range
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @main(%arg0: tensor<32x64xf32>, %arg1: tensor<32x32xf32>) -> (tensor<32x32xf32>, tensor<32x32xf32>) {
    %0 = ttir.empty() : tensor<32x32xf32>
    %1 = "ttir.mesh_shard"(%arg0, %0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x64xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %2 = ttir.empty() : tensor<32x32xf32>
    %3 = "ttir.mesh_shard"(%arg1, %2) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<identity>}> : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %4 = ttir.empty() : tensor<32x32xf32>
    %5 = "ttir.multiply"(%1, %1, %4) : (tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %6 = ttir.empty() : tensor<32x32xf32>
    %7 = "ttir.add"(%1, %3, %6) : (tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %8 = ttir.empty() : tensor<32x32xf32>
    %9 = "ttir.mesh_shard"(%7, %8) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<identity>}> : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    return %5, %9 : tensor<32x32xf32>, tensor<32x32xf32>
  }
}
