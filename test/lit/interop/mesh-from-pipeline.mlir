// A program parsed without a mesh is checked against the one the pipeline registers: a
// reduce_scatter whose result does not shrink over the 2 devices of axis 1 is refused at the op
// by both lowerings (the ttmetal one once lowered it silently).
// RUN: not meshc-opt %s -p 'ttir-to-ttnn-pipeline{mesh-shape=1,2}' 2>&1 | filecheck %s --check-prefix=TTNN
// RUN: not meshc-opt %s -p 'ttir-to-ttmetal-pipeline{mesh-shape=1,2}' 2>&1 | filecheck %s --check-prefix=METAL
// TTNN: mesh-from-pipeline-errors.mlir:11:5: error: 'ttnn.reduce_scatter' op result shape (64, 128) does not match the expected shape (64, 64)
// METAL: mesh-from-pipeline-errors.mlir:11:5: error: 'ttir.reduce_scatter' op convert-ttir-to-ttmetal cannot lower this op: result shape (64, 128) does not match the expected shape (64, 64)
module {
  func.func @main(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = ttir.empty() : tensor<64x128xf32>
    %1 = "ttir.reduce_scatter"(%arg0, %0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>, scatter_dim = 1 : si32}> : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
    return %1 : tensor<64x128xf32>
  }
}
