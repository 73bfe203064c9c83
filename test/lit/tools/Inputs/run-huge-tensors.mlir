module {
  func.func @main(%x: tensor<65536x65536xf32>) -> tensor<65536x65536xf32> {
    return %x : tensor<65536x65536xf32>
  }
}
// -----
module {
  func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
    return %x : tensor<?x4xf32>
  }
}
// -----
module {
  func.func @main(%x: tensor<65536x1xf32>) -> tensor<65536x65536xf32> {
    %0 = "ttir.broadcast"(%x) {broadcast_dimensions = array<i64: 1, 65536>} : (tensor<65536x1xf32>) -> tensor<65536x65536xf32>
    return %0 : tensor<65536x65536xf32>
  }
}
