// RUN: meshc-run %s --check | filecheck %s

// A ttnn program that returns its device tensor without ttnn.from_device (its reference, to
// exercise exactly this comparison, is the same ttnn program, read by the numpy interpreter): the simulator reads
// the one device's tensor back as an array, the golden run of the ttnn program gives a one-device
// distributed value. They are the same values, and the check says so (no NaN statistics from
// comparing an array with a list of one array).
// CHECK: check: result0 matches the golden run (within the f32 tolerance)
// CHECK-NEXT: check: result0: 0 of 32 elements differ (0 outside the rule), max abs error 0, max rel error 0, PCC 1
// CHECK-NOT: nan
module {
  func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
    %a = "ttnn.to_device"(%x, %d) : (tensor<4x8xf32>, !ttnn.device) -> tensor<4x8xf32>
    %r = "ttnn.relu"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    func.return %r : tensor<4x8xf32>
  }
  module attributes {meshc.reference} {
    func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
      %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
      %a = "ttnn.to_device"(%x, %d) : (tensor<4x8xf32>, !ttnn.device) -> tensor<4x8xf32>
      %r = "ttnn.relu"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
      func.return %r : tensor<4x8xf32>
    }
  }
}
