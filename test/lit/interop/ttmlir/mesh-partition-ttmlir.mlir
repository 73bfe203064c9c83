// tt-mlir's Dialect/TTNN/ccl/mesh_partition.mlir as written (Inputs/mesh_partition.mlir: a
// ttcore.device_module, a presharded argument, mesh 2x4). Device d = (r, c) holds its own piece
// x[d] [4, 32] (the input is the pieces stacked, [8, 4, 32]); it keeps row c (cluster_axis 1,
// dim 0), then columns 16r .. 16r + 15 of it (cluster_axis 0, dim 1); the shard_to_full puts mesh
// axis 1 on dim 0 and mesh axis 0 on dim 1, so result[c, 16r : 16r + 16] = x[4r + c][c, 16r : 16r + 16].
// bf16 holds the integers to 256 exactly, so two runs: values 32d + j name the device and column,
// values 32i + j the row and column.
// RUN: python -c "import numpy as np; d, i, j = np.meshgrid(np.arange(8), np.arange(4), np.arange(32), indexing='ij'); np.savez('%t.dev.npz', arg0=(32 * d + j).astype(np.float32)); np.savez('%t.row.npz', arg0=(32 * i + j).astype(np.float32))"
// RUN: meshc-opt %S/Inputs/mesh_partition.mlir -p 'ttir-to-ttnn-pipeline{mesh-shape=2,4}' -o %t.mlir
// RUN: filecheck %s --check-prefix=TTNN < %t.mlir
// TTNN: "ttnn.to_device"(%arg0
// TTNN: "ttnn.mesh_partition"(%{{.*}}) {cluster_axis = 1 : ui32, dim = 0 : si32
// TTNN: "ttnn.mesh_partition"(%{{.*}}) {cluster_axis = 0 : ui32, dim = 1 : si32
// TTNN: "ttnn.aggregate_tensor"
// RUN: meshc-run %t.mlir --input %t.dev.npz --check --report --save-outputs %t.dev | filecheck %s
// RUN: meshc-run %t.mlir --input %t.row.npz --check --save-outputs %t.row | filecheck %s --check-prefix=ROW
// CHECK: moved: ethernet 0 B,
// CHECK: check: result0 matches the golden run (exact)
// ROW: check: result0 matches the golden run (exact)
// RUN: python -c "import numpy as np; r, c, j = np.meshgrid(np.arange(2), np.arange(4), np.arange(16), indexing='ij'); want = np.zeros((4, 32)); want[c, 16 * r + j] = 32 * (4 * r + c) + 16 * r + j; np.testing.assert_array_equal(np.load('%t.dev/result0.npy'), want); want[c, 16 * r + j] = 32 * c + 16 * r + j; np.testing.assert_array_equal(np.load('%t.row/result0.npy'), want); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// NUMPY: numpy agrees
// TTMetal: the presharded argument's pieces go to their devices by enqueue_write_shards (device d's
// x[d] to device d), the two mesh_partitions are all_slice CCLs (no ethernet byte: each device keeps
// part of its own piece), the shard_to_full reads the pieces back; both runs byte exact against the
// golden run and the same numpy check.
// RUN: meshc-opt %S/Inputs/mesh_partition.mlir -p 'ttir-to-ttmetal-pipeline{mesh-shape=2,4}' -o %t.metal.mlir
// RUN: filecheck %s --check-prefix=METAL < %t.metal.mlir
// METAL: "ttmetal.enqueue_write_shards"(%arg0
// METAL: "ttmetal.enqueue_ccl"(%{{.*}}) {slice_dim = 0 : si32, cluster_axis = 1 : ui32, kind = "all_slice"}
// METAL: "ttmetal.enqueue_ccl"(%{{.*}}) {slice_dim = 1 : si32, cluster_axis = 0 : ui32, kind = "all_slice"}
// METAL: "ttmetal.enqueue_read_buffer"
// RUN: meshc-run %t.metal.mlir --input %t.dev.npz --check --report --save-outputs %t.metal.dev | filecheck %s
// RUN: meshc-run %t.metal.mlir --input %t.row.npz --check --save-outputs %t.metal.row | filecheck %s --check-prefix=ROW
// RUN: python -c "import numpy as np; r, c, j = np.meshgrid(np.arange(2), np.arange(4), np.arange(16), indexing='ij'); want = np.zeros((4, 32)); want[c, 16 * r + j] = 32 * (4 * r + c) + 16 * r + j; np.testing.assert_array_equal(np.load('%t.metal.dev/result0.npy'), want); want[c, 16 * r + j] = 32 * c + 16 * r + j; np.testing.assert_array_equal(np.load('%t.metal.row/result0.npy'), want); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
