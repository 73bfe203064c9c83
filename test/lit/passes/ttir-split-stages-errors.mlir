// RUN: not meshc-opt %s --split-input-file -p 'ttir-split-stages{stages=2 stage-mesh=2,2 system=t3k}' 2>&1 | filecheck %s
// RUN: not meshc-opt %s --split-input-file -p 'ttir-split-stages{stages=2 stage-mesh=2,3 system=t3k}' 2>&1 | filecheck %s --check-prefix=TILE

// @main computes between its calls: not a chain of layers.
// TILE: error: 'builtin.module' op ttir-split-stages: the chip mesh 2x4 does not tile into 2x3 blocks
module {
  func.func @layer(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = "ttir.relu"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %0 : tensor<64x64xf32>
  }
  func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = func.call @layer(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    // CHECK: ttir-split-stages-errors.mlir:[[# @LINE + 1]]:5: error: 'ttir.tanh' op ttir-split-stages cuts a chain of layers: @main holds only calls of layer functions and its return
    %1 = "ttir.tanh"(%0) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %2 = func.call @layer(%1) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %2 : tensor<64x64xf32>
  }
}

// -----

// A layer reading a result of a call other than the one just before it.
module {
  func.func @layer(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = "ttir.add"(%x, %y) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %0 : tensor<64x64xf32>
  }
  func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = func.call @layer(%x, %x) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %1 = func.call @layer(%0, %x) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    // CHECK: ttir-split-stages-errors.mlir:[[# @LINE + 1]]:5: error: 'func.call' op reads a result of a call other than the one just before it: the layers are not a chain
    %2 = func.call @layer(%1, %0) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %2 : tensor<64x64xf32>
  }
}

// -----

// One layer cannot make two stages.
module {
  func.func @layer(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = "ttir.relu"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %0 : tensor<64x64xf32>
  }
  // CHECK: error: 'builtin.module' op ttir-split-stages: cannot cut 1 layers into 2 non-empty stages
  func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = func.call @layer(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %0 : tensor<64x64xf32>
  }
}
