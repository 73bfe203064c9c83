// RUN: meshc-opt %s --split-input-file -p 'ttir-partition' --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file -p 'ttir-partition' 2>&1 | filecheck %s

// An op with no sharding rule (here an op of another dialect) in a global-view program.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @f(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
    // CHECK: error: 'tensor.empty' op a global-view program holds ttir ops on tensors; 'tensor.empty' has no sharding rule
    // expected-error @+1 {{a global-view program holds ttir ops on tensors; 'tensor.empty' has no sharding rule}}
    %0 = tensor.empty() : tensor<8x8xf32>
    %1 = "ttir.add"(%x, %0) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
}
