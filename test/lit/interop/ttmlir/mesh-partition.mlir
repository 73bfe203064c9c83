// tt-mlir's ttir.mesh_partition (its lowering of Shardy's all_slice; TT-Metal's mesh_partition):
// each device keeps piece p of n equal pieces along `dim`, n the devices along cluster_axis and p
// the device's coordinate on it (with no cluster_axis: all the mesh's devices, p its row-major
// index). Moves nothing.
// @two_axes is tt-mlir's Dialect/TTNN/ccl/mesh_partition.mlir with its presharded argument made a
// replicated mesh_shard (meshc takes whole host tensors): on the 2x4 mesh device (r, c) keeps row
// c of x [4, 32] (cluster_axis 1), then columns 16r .. 16r + 15 of it (cluster_axis 0); the
// shard_to_full puts mesh axis 1 on dim 0 and mesh axis 0 on dim 1, so the result is x again.
// RUN: python -c "import numpy as np; np.savez('%t.npz', arg0=np.arange(128, dtype=np.float32).reshape(4, 32))"
// RUN: meshc-opt %s -p 'ttir-to-ttnn-pipeline{mesh-shape=2,4}' -o %t.mlir
// RUN: filecheck %s --check-prefix=TTNN < %t.mlir
// TTNN: "ttnn.mesh_partition"(%{{.*}}) {cluster_axis = 1 : ui32, dim = 0 : si32} : (tensor<4x32xbf16, {{.*}}>) -> tensor<1x32xbf16,
// TTNN: "ttnn.mesh_partition"(%{{.*}}) {cluster_axis = 0 : ui32, dim = 1 : si32} : (tensor<1x32xbf16, {{.*}}>) -> tensor<1x16xbf16,
// RUN: meshc-run %t.mlir --input %t.npz --check --report --save-outputs %t.out | filecheck %s
// CHECK: moved: ethernet 0 B,
// CHECK: check: result0 matches the golden run (exact)
// RUN: python -c "import numpy as np; np.testing.assert_array_equal(np.load('%t.out/result0.npy'), np.arange(128).reshape(4, 32)); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// On TTMetal each mesh_partition is an all_slice (ttir-decompose-ttmlir-ops): the same pieces, no link traffic.
// RUN: meshc-opt %s -p 'ttir-to-ttmetal-pipeline{mesh-shape=2,4}' -o %t.metal.mlir
// RUN: meshc-run %t.metal.mlir --input %t.npz --check --report --save-outputs %t.metal.out | filecheck %s --check-prefix=METAL
// RUN: python -c "import numpy as np; np.testing.assert_array_equal(np.load('%t.metal.out/result0.npy'), np.arange(128).reshape(4, 32)); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// METAL: moved: ethernet 0 B,
// METAL: check: result0 matches the golden run (exact)
// NUMPY: numpy agrees
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 2x4>]>} {
  func.func @two_axes(%arg0: tensor<4x32xbf16>) -> tensor<4x32xbf16> {
    %r = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<4x32xbf16>) -> tensor<4x32xbf16>
    %0 = "ttir.mesh_partition"(%r) <{cluster_axis = 1 : ui32, dim = 0 : si32}> : (tensor<4x32xbf16>) -> tensor<1x32xbf16>
    %1 = "ttir.mesh_partition"(%0) <{cluster_axis = 0 : ui32, dim = 1 : si32}> : (tensor<1x32xbf16>) -> tensor<1x16xbf16>
    %2 = "ttir.mesh_shard"(%1) <{shard_dims = array<i64: 1, 0>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 4, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<1x16xbf16>) -> tensor<4x32xbf16>
    return %2 : tensor<4x32xbf16>
  }
}
