// RUN: meshc-opt %s --split-input-file -p 'ttir-partition' --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file -p 'ttir-partition' 2>&1 | filecheck %s

// An annotation that splits a dim unevenly: meshc partitions even splits only.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  // CHECK: ttir-partition-errors.mlir:8:3: error: 'func.func' op argument #0: sharding [R, S1] splits dim 1 of size 10 into 4 pieces, which do not divide it; meshc partitions even splits only (pad dim 1 to a multiple of 4)
  // expected-error @+1 {{argument #0: sharding [R, S1] splits dim 1 of size 10 into 4 pieces, which do not divide it; meshc partitions even splits only (pad dim 1 to a multiple of 4)}}
  func.func @f(%x: tensor<8x10xf32> {tt.sharding = #tt.sharding<[R, S1]>}) -> tensor<8x10xf32> {
    %0 = "ttir.relu"(%x) : (tensor<8x10xf32>) -> tensor<8x10xf32>
    return %0 : tensor<8x10xf32>
  }
}

// -----

// The same for a constraint inside the program.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @f(%x: tensor<6x8xf32>) -> tensor<6x8xf32> {
    // CHECK: error: 'ttir.sharding_constraint' op reshard: sharding [S01, R] splits dim 0 of size 6 into 8 pieces, which do not divide it
    // expected-error @+1 {{reshard: sharding [S01, R] splits dim 0 of size 6 into 8 pieces, which do not divide it; meshc partitions even splits only (pad dim 0 to a multiple of 8)}}
    %0 = "ttir.sharding_constraint"(%x) {sharding = #tt.sharding<[S01, R]>} : (tensor<6x8xf32>) -> tensor<6x8xf32>
    return %0 : tensor<6x8xf32>
  }
}

// -----

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
