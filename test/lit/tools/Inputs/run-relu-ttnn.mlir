// A ttnn relu on one chip, checked against ../Inputs/run-golden-exp.mlir (exp) by run-outputs-on-failure.mlir.
module {
  func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
    %a = "ttnn.to_device"(%x, %d) : (tensor<4x8xf32>, !ttnn.device) -> tensor<4x8xf32>
    %r = "ttnn.relu"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %b = "ttnn.from_device"(%r) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    func.return %b : tensor<4x8xf32>
  }
}
