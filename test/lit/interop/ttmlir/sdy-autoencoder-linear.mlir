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
