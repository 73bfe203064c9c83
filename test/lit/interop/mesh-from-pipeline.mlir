// A program parsed without a mesh is checked against the one the pipeline registers: a
// reduce_scatter whose declared result does not shrink over the 2 devices of axis 1 (tt-mlir's
// verifier does not read it) takes the 64x64 TTNN's reduce_scatter yields, with a warning at the
// op, in both lowerings (ttir-ttnn-result-shapes), and runs as the ttir program does.
// RUN: meshc-opt %s -p 'ttir-to-ttnn-pipeline{mesh-shape=1,2}' -o %t.ttnn.mlir 2>&1 | filecheck %s --check-prefix=WARN
// RUN: meshc-opt %s -p 'ttir-to-ttmetal-pipeline{mesh-shape=1,2}' -o %t.metal.mlir 2>&1 | filecheck %s --check-prefix=WARN
// RUN: meshc-run %t.ttnn.mlir --check | filecheck %s --check-prefix=RAN
// RUN: meshc-run %t.metal.mlir --check | filecheck %s --check-prefix=RAN
// WARN: mesh-from-pipeline.mlir:[[# @LINE + 5]]:5: warning: 'ttir.reduce_scatter' op result shape 64x128 is not the 64x64 that TTNN's reduce_scatter over the 2 devices of cluster_axis 1 yields; the result takes TTNN's shape
// RAN: check: result0 matches the golden run
module {
  func.func @main(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = ttir.empty() : tensor<64x128xf32>
    %1 = "ttir.reduce_scatter"(%arg0, %0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>, scatter_dim = 1 : si32}> : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
    return %1 : tensor<64x128xf32>
  }
}
