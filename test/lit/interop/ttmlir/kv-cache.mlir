// tt-mlir's ttir.fill_cache and ttir.update_cache write their cache in place (no result; later
// uses of the cache value read the write), TT-Metal's meaning, on a 1x2 mesh with the heads
// (dim 1) split: cache [2, 8, 64, 32], each device 4 heads.
// By hand: fill_cache with batch_offset 1 writes input [1, H, 40, D] to cache[1, :, :40, :] and
// zeros rows 40 .. 63 (the input's last 32-row tile, padded); update_cache with batch_offset 0 at
// position 50 (the index tensor's first element) writes cache[b, h, 50, d] = input[0, h, b, d] for
// b < 2. The values are small integers, exact in bf16; the result is checked against numpy.
// RUN: python -c "import numpy as np; r = np.random.default_rng(1); np.savez('%t.npz', arg0=r.integers(-8, 8, (2, 8, 64, 32)).astype(np.float32), arg1=r.integers(-8, 8, (1, 8, 2, 32)).astype(np.float32), arg2=r.integers(-8, 8, (1, 8, 40, 32)).astype(np.float32))"
// RUN: meshc-opt %s -p 'ttir-to-ttnn-pipeline{mesh-shape=1,2}' -o %t.mlir
// RUN: filecheck %s --check-prefix=TTNN < %t.mlir
// TTNN: "ttnn.fill_cache"(%{{.*}}, %{{.*}}) {batch_offset = 1 : i32} : (tensor<2x4x64x32xbf16, {{.*}}>, tensor<1x4x40x32xbf16, {{.*}}>) -> ()
// TTNN: "ttnn.update_cache"(%{{.*}}, %{{.*}}, %{{.*}}) {batch_offset = 0 : i32}
// RUN: meshc-run %t.mlir --input %t.npz --check --report --save-outputs %t.out | filecheck %s
// CHECK: moved: ethernet 0 B,
// CHECK: check: result0 matches the golden run (exact)
// RUN: python -c "import numpy as np; z = np.load('%t.npz'); c = z['arg0'].copy(); c[1, :, :40] = z['arg2'][0]; c[1, :, 40:] = 0; c[0:2, :, 50, :] = np.swapaxes(z['arg1'][0], 0, 1); np.testing.assert_array_equal(np.load('%t.out/result0.npy'), c); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// On TTMetal each write is a one-core program writing the new cache into the cache's buffer (convert_ttir_to_ttmetal_cache.py): the same values.
// RUN: meshc-opt %s -p 'ttir-to-ttmetal-pipeline{mesh-shape=1,2}' -o %t.metal.mlir
// RUN: meshc-run %t.metal.mlir --input %t.npz --check --report --save-outputs %t.metal.out | filecheck %s
// RUN: python -c "import numpy as np; z = np.load('%t.npz'); c = z['arg0'].copy(); c[1, :, :40] = z['arg2'][0]; c[1, :, 40:] = 0; c[0:2, :, 50, :] = np.swapaxes(z['arg1'][0], 0, 1); np.testing.assert_array_equal(np.load('%t.metal.out/result0.npy'), c); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// NUMPY: numpy agrees
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @main(%arg0: tensor<2x8x64x32xbf16>, %arg1: tensor<1x8x2x32xbf16>, %arg2: tensor<1x8x40x32xbf16>) -> tensor<2x8x64x32xbf16> {
    %cache = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2, 1, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<2x8x64x32xbf16>) -> tensor<2x4x64x32xbf16>
    %upd = "ttir.mesh_shard"(%arg1) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2, 1, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<1x8x2x32xbf16>) -> tensor<1x4x2x32xbf16>
    %fill = "ttir.mesh_shard"(%arg2) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2, 1, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<1x8x40x32xbf16>) -> tensor<1x4x40x32xbf16>
    "ttir.fill_cache"(%cache, %fill) <{batch_offset = 1 : i32}> : (tensor<2x4x64x32xbf16>, tensor<1x4x40x32xbf16>) -> ()
    %idx = "ttir.constant"() <{value = dense<50> : tensor<1xi32>}> : () -> tensor<1xi32>
    "ttir.update_cache"(%cache, %upd, %idx) <{batch_offset = 0 : i32}> : (tensor<2x4x64x32xbf16>, tensor<1x4x2x32xbf16>, tensor<1xi32>) -> ()
    %out = "ttir.mesh_shard"(%cache) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2, 1, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<2x4x64x32xbf16>) -> tensor<2x8x64x32xbf16>
    return %out : tensor<2x8x64x32xbf16>
  }
}
