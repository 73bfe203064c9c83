// The golden program of ../run-check-mismatch.mlir: exp instead of relu.
module {
  func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %r = "ttir.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    func.return %r : tensor<4x8xf32>
  }
}
