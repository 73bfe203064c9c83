// tt-mlir's ttir.linear (matmul(a, b) + bias) as tt-mlir's n300 runtime tests write it
// (Inputs/linear_sharded.mlir, Inputs/linear_replicated.mlir), with their RUN line's pipeline and
// mesh (1x2). linear_sharded splits the weight [10, 20] and the bias [20] along the output
// features: each chip computes x @ w[:, 10c : 10c + 10] + bias[10c : 10c + 10] and adds its half of
// `extra`; the result is the halves side by side, i.e. x @ w + bias + extra, checked here against
// numpy. linear_replicated computes the whole x @ w + bias + extra on both chips.
// RUN: python -c "import numpy as np; r = np.random.default_rng(7); np.savez('%t.sh.npz', arg0=r.standard_normal((10, 10)).astype(np.float32), arg1=r.standard_normal((10, 20)).astype(np.float32), arg2=r.standard_normal(20).astype(np.float32), arg3=r.standard_normal((10, 20)).astype(np.float32)); np.savez('%t.rep.npz', arg0=r.standard_normal((10, 10)).astype(np.float32), arg1=r.standard_normal((10, 10)).astype(np.float32), arg2=r.standard_normal(10).astype(np.float32), arg3=r.standard_normal((10, 10)).astype(np.float32))"
// RUN: meshc-opt %S/Inputs/linear_sharded.mlir -p 'ttir-to-ttnn-pipeline{mesh-shape=1,2}' -o %t.sh.mlir
// RUN: filecheck %s --check-prefix=TTNN < %t.sh.mlir
// TTNN: "ttnn.linear"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<10x10xf32, {{.*}}>, tensor<10x10xf32, {{.*}}>, tensor<10xf32, {{.*}}>) -> tensor<10x10xf32,
// TTNN: "ttnn.add"
// RUN: meshc-run %t.sh.mlir --input %t.sh.npz --check --save-outputs %t.sh.out | filecheck %s
// CHECK: check: result0 matches the golden run
// RUN: python -c "import numpy as np; z = np.load('%t.sh.npz'); want = z['arg0'] @ z['arg1'] + z['arg2'] + z['arg3']; np.testing.assert_allclose(np.load('%t.sh.out/result0.npy'), want, rtol=1e-5, atol=1e-5); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// NUMPY: numpy agrees
// On TTMetal (ttir-decompose-ttmlir-ops: the matmul program, then the bias added), the same values.
// RUN: meshc-opt %S/Inputs/linear_sharded.mlir -p 'ttir-to-ttmetal-pipeline{mesh-shape=1,2}' -o %t.sh.metal.mlir
// RUN: meshc-run %t.sh.metal.mlir --input %t.sh.npz --check --save-outputs %t.sh.metal.out | filecheck %s
// RUN: python -c "import numpy as np; z = np.load('%t.sh.npz'); want = z['arg0'] @ z['arg1'] + z['arg2'] + z['arg3']; np.testing.assert_allclose(np.load('%t.sh.metal.out/result0.npy'), want, rtol=1e-5, atol=1e-5); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// RUN: meshc-opt %S/Inputs/linear_replicated.mlir -p 'ttir-to-ttmetal-pipeline{mesh-shape=1,2}' -o %t.rep.metal.mlir
// RUN: meshc-run %t.rep.metal.mlir --input %t.rep.npz --check --save-outputs %t.rep.metal.out | filecheck %s
// RUN: python -c "import numpy as np; z = np.load('%t.rep.npz'); want = z['arg0'] @ z['arg1'] + z['arg2'] + z['arg3']; np.testing.assert_allclose(np.load('%t.rep.metal.out/result0.npy'), want, rtol=1e-5, atol=1e-5); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// RUN: meshc-opt %S/Inputs/linear_replicated.mlir -p 'ttir-to-ttnn-pipeline{mesh-shape=1,2}' -o %t.rep.mlir
// RUN: meshc-run %t.rep.mlir --input %t.rep.npz --check --save-outputs %t.rep.out | filecheck %s
// RUN: python -c "import numpy as np; z = np.load('%t.rep.npz'); want = z['arg0'] @ z['arg1'] + z['arg2'] + z['arg3']; np.testing.assert_allclose(np.load('%t.rep.out/result0.npy'), want, rtol=1e-5, atol=1e-5); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
