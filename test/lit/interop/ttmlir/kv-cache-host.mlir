// A cache that is a function argument on one device: the ttnn lowering copies it to the device
// (ttnn.to_device) and update_cache writes the device copy; the write is a write to the argument
// (the one tensor tt-mlir keeps on the device), so the returned %c holds it. Position 3 of every
// head is the input's row (by hand: cache[0, h, 3, :] = input[0, h, 0, :]); checked against numpy.
// RUN: python -c "import numpy as np; r = np.random.default_rng(0); np.savez('%t.npz', c=r.integers(-4, 4, (1, 8, 16, 64)).astype(np.float32), x=r.integers(-4, 4, (1, 8, 1, 64)).astype(np.float32))"
// RUN: meshc-opt %s -p 'ttir-to-ttnn-pipeline' -o %t.mlir
// RUN: meshc-run %t.mlir --input %t.npz --check --save-outputs %t.out | filecheck %s
// CHECK: check: result0 matches the golden run (exact)
// RUN: python -c "import numpy as np; z = np.load('%t.npz'); c = z['c'].copy(); c[0, :, 3, :] = z['x'][0, :, 0, :]; np.testing.assert_array_equal(np.load('%t.out/result0.npy'), c); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// On TTMetal each write is a one-core program writing the new cache into the cache's buffer (convert_ttir_to_ttmetal_cache.py): the same values.
// RUN: meshc-opt %s -p 'ttir-to-ttmetal-pipeline' -o %t.metal.mlir
// RUN: meshc-run %t.metal.mlir --input %t.npz --check --save-outputs %t.metal.out | filecheck %s
// RUN: python -c "import numpy as np; z = np.load('%t.npz'); c = z['c'].copy(); c[0, :, 3, :] = z['x'][0, :, 0, :]; np.testing.assert_array_equal(np.load('%t.metal.out/result0.npy'), c); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// NUMPY: numpy agrees
func.func @main(%c: tensor<1x8x16x64xf32>, %x: tensor<1x8x1x64xf32>) -> tensor<1x8x16x64xf32> {
  %i = "ttir.constant"() <{value = dense<3> : tensor<1xi32>}> : () -> tensor<1xi32>
  "ttir.update_cache"(%c, %x, %i) <{batch_offset = 0 : i32}> : (tensor<1x8x16x64xf32>, tensor<1x8x1x64xf32>, tensor<1xi32>) -> ()
  return %c : tensor<1x8x16x64xf32>
}
