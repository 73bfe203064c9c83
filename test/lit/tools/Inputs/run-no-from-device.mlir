module {
  func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
    %a = "ttnn.to_device"(%x, %d) : (tensor<4x8xf32>, !ttnn.device) -> tensor<4x8xf32>
    func.return %a : tensor<4x8xf32>
  }
  module attributes {meshc.reference} {
    func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
      %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
      %a = "ttnn.to_device"(%x, %d) : (tensor<4x8xf32>, !ttnn.device) -> tensor<4x8xf32>
      func.return %a : tensor<4x8xf32>
    }
  }
}
