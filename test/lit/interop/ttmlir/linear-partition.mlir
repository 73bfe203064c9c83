// A global-view ttir.linear partitioned on a 2x4 mesh: x [64, 128] rows over axis 0 and K over
// axis 1, w [128, 64] K over axis 1, bias [64] split over axis 1. With a bias K is `keep` in
// linear's rule, so the partitioned program gathers K before the product (no partial sums); the
// values are checked against numpy's x @ w + bias.
// RUN: python -c "import numpy as np; r = np.random.default_rng(3); np.savez('%t.npz', x=r.standard_normal((64, 128)).astype(np.float32), w=r.standard_normal((128, 64)).astype(np.float32), b=r.standard_normal(64).astype(np.float32))"
// RUN: meshc-opt %s -p 'ttir-to-ttnn-pipeline{system=t3k mesh-shape=2,4}' -o %t.mlir
// RUN: filecheck %s --check-prefix=TTNN < %t.mlir
// TTNN-NOT: ttnn.all_reduce
// TTNN-NOT: ttnn.reduce_scatter
// TTNN: "ttnn.linear"
// RUN: meshc-run %t.mlir --input %t.npz --check --save-outputs %t.out | filecheck %s
// CHECK: check: result0 matches the golden run
// RUN: python -c "import numpy as np; z = np.load('%t.npz'); np.testing.assert_allclose(np.load('%t.out/result0.npy'), z['x'] @ z['w'] + z['b'], rtol=1e-4, atol=1e-4); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// On TTMetal (the same partitioning; the linear a matmul program and an add), the same values.
// RUN: meshc-opt %s -p 'ttir-to-ttmetal-pipeline{system=t3k mesh-shape=2,4}' -o %t.metal.mlir
// RUN: meshc-run %t.metal.mlir --input %t.npz --check --save-outputs %t.metal.out | filecheck %s
// RUN: python -c "import numpy as np; z = np.load('%t.npz'); np.testing.assert_allclose(np.load('%t.metal.out/result0.npy'), z['x'] @ z['w'] + z['b'], rtol=1e-4, atol=1e-4); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// NUMPY: numpy agrees
func.func @main(%x: tensor<64x128xf32> {tt.sharding = #tt.sharding<[S0, S1]>}, %w: tensor<128x64xf32> {tt.sharding = #tt.sharding<[S1, R]>}, %b: tensor<64xf32> {tt.sharding = #tt.sharding<[S1]>}) -> tensor<64x64xf32> {
  %0 = "ttir.linear"(%x, %w, %b) : (tensor<64x128xf32>, tensor<128x64xf32>, tensor<64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
