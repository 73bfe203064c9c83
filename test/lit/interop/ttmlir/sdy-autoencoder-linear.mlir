// tt-mlir's Shardy autoencoder (Silicon/StableHLO/n300/sdy_autoencoder_linear.mlir, a scale
// factor written as `arith.constant dense<1> : tensor<1xi64>`, converted to f32 and broadcast to
// each layer's 32xN activations: the first is 1.0 over 32x128) imports on its RUN line's 1x2 mesh,
// lowers with the ttnn pipeline and matches the numpy run of the imported program.
// RUN: meshc-import --mesh-shape 1,2 %S/Inputs/sdy_autoencoder_linear.mlir -o %t.ttir.mlir
// RUN: filecheck %s --check-prefix=IMPORT < %t.ttir.mlir
// IMPORT: "ttir.constant"() {value = dense<1.000000e+00> : tensor<32x128xf32>}
// RUN: meshc-opt %t.ttir.mlir -p 'ttir-to-ttnn-pipeline{mesh-shape=1,2}' -o %t.ttnn.mlir
// RUN: meshc-run %t.ttnn.mlir --check | filecheck %s
// CHECK: check: result0 matches the golden run
// TTMetal: its 784-column tensors (the input reshape, the last matmul, its bias, scale and
// typecast) are 25 tiles, the last partial, which ttir-layout spreads over 5 cores; a block
// selector splits exactly (784 / 5 is not whole), so their programs run those columns on the most
// cores, at most 5, that split 784 evenly: 4 of 196 columns (784 = 2^4 x 7^2;
// convert_ttir_to_ttmetal_kernel.even_grid) while the buffers keep their 5-core layout.
// Inputs of -1, 0 and 1 keep every f32 sum exact, so the run is byte exact against the golden
// run and equal to the ttnn pipeline's output. (With random floats the f32 matmul blocks of the
// 1x4 and 1x2 grids sum in another order than the whole-tensor golden matmul: one bf16 rounding
// apart, within the tolerance.)
// RUN: meshc-opt %t.ttir.mlir -p 'ttir-to-ttmetal-pipeline{mesh-shape=1,2}' -o %t.metal.mlir
// RUN: filecheck %s --check-prefix=METAL < %t.metal.mlir
// METAL: "ttmetal.read_tiles"(%{{.*}}) {select = ["y", "x"]} : (!ttmetal.buffer<32x1x1x784xbf16>) -> tensor<32x196xbf16>
// METAL: grid = array<i64: 1, 4>
// RUN: python -c "import re, numpy as np; s = open('%t.ttir.mlir').read(); sig = s[s.index('func.func @'):].split('{', 1)[0]; r = np.random.default_rng(3); np.savez('%t.int.npz', **{n: r.integers(-1, 2, tuple(map(int, d.split('x')))).astype(np.float32) for n, d in re.findall(r'(\w+): tensor<([0-9x]+)x', sig)})"
// RUN: meshc-run %t.metal.mlir --input %t.int.npz --check --save-outputs %t.metal.out | filecheck %s --check-prefix=EXACT
// RUN: meshc-run %t.ttnn.mlir --input %t.int.npz --save-outputs %t.ttnn.out
// EXACT: check: result0: 0 of 25088 elements differ (0 outside the rule), max abs error 0
// RUN: python -c "import numpy as np; np.testing.assert_array_equal(np.load('%t.metal.out/result0.npy'), np.load('%t.ttnn.out/result0.npy')); print('pipelines agree')" | filecheck %s --check-prefix=AGREE
// AGREE: pipelines agree
// RUN: meshc-run %t.metal.mlir --check | filecheck %s
