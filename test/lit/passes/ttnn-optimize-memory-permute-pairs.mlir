// RUN: not meshc-opt %s -p ttir-to-ttnn-pipeline 2>&1 | filecheck %s

// A collective_permute naming a device past its mesh is the verifier's located error even though
// ttnn-optimize-memory times the permute's sends before the lowered module is verified (it used to
// index past the mesh's chips: an internal error). The module names no device, so the pipeline
// opens a 1-device mesh and device 8 is not on it.
module {
  func.func @f(%x: tensor<32x32xf32>) -> tensor<32x32xf32> {
    // CHECK: ttnn-optimize-memory-permute-pairs.mlir:[[# @LINE + 1]]:5: error: 'ttnn.collective_permute' op target device 8 of pair (0, 8) is not on the mesh of 1 devices
    %0 = "ttir.collective_permute"(%x) {source_target_pairs = dense<[[0, 8]]> : tensor<1x2xi64>} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    return %0 : tensor<32x32xf32>
  }
}
