// RUN: not meshc-opt %s --split-input-file -p ttir-to-ttnn-pipeline 2>&1 | filecheck %s
// RUN: not meshc-opt %s --split-input-file -p 'ttir-to-ttnn-pipeline{system=t3k}' 2>&1 | filecheck %s --check-prefix=OPTIONS

// The host function of a pipelined module computes: that op would run on no device.
// OPTIONS: error: 'builtin.module' op a pipelined module names its virtual devices ('tt.devices'); the pipeline's system and mesh-shape options do not apply to it
module attributes {tt.system_desc = #tt.system_desc<t3k>, tt.devices = [#tt.device<workerGrid = #tt.grid<2x8x16, (d0, d1, d2) -> (d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1, d2 mod 8)>, meshShape = 2x1x2, chipIds = [0, 1, 2, 3]>, #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [4, 5, 6, 7]>]} {
  func.func @s0(%x: tensor<64x64xf32>) -> tensor<64x64xf32> attributes {tt.stage = 0} {
    %0 = "ttir.tanh"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %0 : tensor<64x64xf32>
  }
  func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = func.call @s0(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    // CHECK: pipeline-stages-errors.mlir:[[# @LINE + 1]]:5: error: 'ttir.relu' op @main runs on the host of a pipelined module and may only call stages; 'ttir.relu' would run on no device: put it in a stage (a function with 'tt.stage')
    %1 = "ttir.relu"(%0) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %1 : tensor<64x64xf32>
  }
}

// -----

// A stage result read both by the host (returned) and by a later stage.
module attributes {tt.system_desc = #tt.system_desc<t3k>, tt.devices = [#tt.device<workerGrid = #tt.grid<2x8x16, (d0, d1, d2) -> (d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1, d2 mod 8)>, meshShape = 2x1x2, chipIds = [0, 1, 2, 3]>, #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [4, 5, 6, 7]>]} {
  func.func @s0(%x: tensor<64x64xf32>) -> tensor<64x64xf32> attributes {tt.stage = 0} {
    %0 = "ttir.tanh"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %0 : tensor<64x64xf32>
  }
  func.func @s1(%x: tensor<64x64xf32>) -> tensor<64x64xf32> attributes {tt.stage = 1} {
    %0 = "ttir.relu"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %0 : tensor<64x64xf32>
  }
  func.func @main(%x: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
    // CHECK: pipeline-stages-errors.mlir:[[# @LINE + 1]]:5: error: 'func.call' op result #0 of stage @s0 goes both to a later stage and back to the host (not built: return it from the later stage)
    %0 = func.call @s0(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %1 = func.call @s1(%0) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %0, %1 : tensor<64x64xf32>, tensor<64x64xf32>
  }
}
