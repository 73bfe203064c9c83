// The shapes tt-mlir's linear takes beyond a plain 2-d product, run on one device and checked
// against numpy: a vector a (numpy's matmul prepends 1 and drops it), both transposes, batch dims
// that broadcast (2 against 1), no bias, and a vector-vector product as tensor<1>.
// RUN: python -c "import numpy as np; r = np.random.default_rng(5); np.savez('%t.npz', v=r.standard_normal(8).astype(np.float32), a=r.standard_normal((8, 4)).astype(np.float32), b=r.standard_normal((16, 8)).astype(np.float32), bias=r.standard_normal(16).astype(np.float32), p=r.standard_normal((2, 4, 8)).astype(np.float32), q=r.standard_normal((1, 8, 16)).astype(np.float32))"
// RUN: meshc-opt %s -p 'ttir-to-ttnn-pipeline' -o %t.mlir
// RUN: meshc-run %t.mlir --input %t.npz --check --save-outputs %t.out | filecheck %s
// CHECK-COUNT-4: matches the golden run
// RUN: python -c "import numpy as np; z = np.load('%t.npz'); o = [np.load('%t.out/result%%d.npy' %% i) for i in range(4)]; t = lambda x, y: np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-5); t(o[0], z['v'] @ z['b'].T + z['bias']); t(o[1], z['a'].T @ z['b'].T + z['bias']); t(o[2], z['p'] @ z['q']); t(o[3], np.array([z['v'] @ z['v']])); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// The same four on TTMetal (ttir-decompose-ttmlir-ops: the vectors reshaped, a matmul program, the bias added).
// RUN: meshc-opt %s -p 'ttir-to-ttmetal-pipeline' -o %t.metal.mlir
// RUN: meshc-run %t.metal.mlir --input %t.npz --check --save-outputs %t.metal.out | filecheck %s
// RUN: python -c "import numpy as np; z = np.load('%t.npz'); o = [np.load('%t.metal.out/result%%d.npy' %% i) for i in range(4)]; t = lambda x, y: np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-5); t(o[0], z['v'] @ z['b'].T + z['bias']); t(o[1], z['a'].T @ z['b'].T + z['bias']); t(o[2], z['p'] @ z['q']); t(o[3], np.array([z['v'] @ z['v']])); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// NUMPY: numpy agrees
func.func @main(%v: tensor<8xf32>, %a: tensor<8x4xf32>, %b: tensor<16x8xf32>, %bias: tensor<16xf32>,
                    %p: tensor<2x4x8xf32>, %q: tensor<1x8x16xf32>) -> (tensor<16xf32>, tensor<4x16xf32>, tensor<2x4x16xf32>, tensor<1xf32>) {
  %0 = "ttir.linear"(%v, %b, %bias) <{transpose_b = true}> : (tensor<8xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<16xf32>
  %1 = "ttir.linear"(%a, %b, %bias) <{transpose_a = true, transpose_b = true}> : (tensor<8x4xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %2 = "ttir.linear"(%p, %q) : (tensor<2x4x8xf32>, tensor<1x8x16xf32>) -> tensor<2x4x16xf32>
  %3 = "ttir.linear"(%v, %v) : (tensor<8xf32>, tensor<8xf32>) -> tensor<1xf32>
  return %0, %1, %2, %3 : tensor<16xf32>, tensor<4x16xf32>, tensor<2x4x16xf32>, tensor<1xf32>
}
