// ttir.mesh_partition with no cluster_axis splits over all the mesh's devices in row-major order:
// on the 1x4 mesh device d keeps rows 2d, 2d + 1 of x [8, 3] (dim -2, counted from the end); the
// shard_to_full along dim 0 over mesh axis 1 gives x back, and each device's piece is checked too (result1, saved one piece a device).
// RUN: python -c "import numpy as np; np.savez('%t.npz', arg0=np.arange(24, dtype=np.float32).reshape(8, 3))"
// RUN: meshc-opt %s -p 'ttir-to-ttnn-pipeline{mesh-shape=1,4}' -o %t.mlir
// RUN: meshc-run %t.mlir --input %t.npz --check --save-outputs %t.out | filecheck %s
// CHECK-COUNT-2: matches the golden run (exact)
// RUN: python -c "import numpy as np; x = np.arange(24).reshape(8, 3); np.testing.assert_array_equal(np.load('%t.out/result0.npy'), x); np.testing.assert_array_equal(np.load('%t.out/result1.npy'), x.reshape(4, 2, 3)); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// On TTMetal each mesh_partition is an all_slice (ttir-decompose-ttmlir-ops): the same pieces, no link traffic.
// RUN: meshc-opt %s -p 'ttir-to-ttmetal-pipeline{mesh-shape=1,4}' -o %t.metal.mlir
// RUN: meshc-run %t.metal.mlir --input %t.npz --check --report --save-outputs %t.metal.out | filecheck %s --check-prefix=METAL
// RUN: python -c "import numpy as np; x = np.arange(24).reshape(8, 3); np.testing.assert_array_equal(np.load('%t.metal.out/result0.npy'), x); np.testing.assert_array_equal(np.load('%t.metal.out/result1.npy'), x.reshape(4, 2, 3)); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// METAL: moved: ethernet 0 B,
// METAL-COUNT-2: matches the golden run (exact)
// NUMPY: numpy agrees
func.func @flat(%arg0: tensor<8x3xf32>) -> (tensor<8x3xf32>, tensor<2x3xf32>) {
  %r = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<8x3xf32>) -> tensor<8x3xf32>
  %0 = "ttir.mesh_partition"(%r) <{dim = -2 : si32}> : (tensor<8x3xf32>) -> tensor<2x3xf32>
  %1 = "ttir.mesh_shard"(%0) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 4, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<2x3xf32>) -> tensor<8x3xf32>
  return %1, %0 : tensor<8x3xf32>, tensor<2x3xf32>
}
