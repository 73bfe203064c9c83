// RUN: not meshc-opt %s -p ttir-to-ttnn-pipeline 2>&1 | filecheck %s
// RUN: not meshc-opt %s -p ttnn-check-l1 2>&1 | filecheck %s

// An i8 tensor, which no device holds, reaching the L1 check (here a ttnn program put through the
// ttnn pipeline): a located error at the op that makes it. The placement model's LayoutError
// escaped the pass as an internal error (exit 2); any LayoutError a pass lets out is now located
// at the module, naming the pass.
// CHECK: ttnn-check-l1-element-types.mlir:[[# @LINE + 4]]:3: error: 'ttnn.to_device' op integer type i8 is not one the device holds (i32, si32, ui32, ui16, ui8)
// CHECK-NOT: internal error
func.func @main(%x: tensor<4x8xi8>) -> tensor<4x8xi8> {
  %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
  %a = "ttnn.to_device"(%x, %d) : (tensor<4x8xi8>, !ttnn.device) -> tensor<4x8xi8>
  %r = "ttnn.relu"(%a) : (tensor<4x8xi8>) -> tensor<4x8xi8>
  %b = "ttnn.from_device"(%r) : (tensor<4x8xi8>) -> tensor<4x8xi8>
  func.return %b : tensor<4x8xi8>
}
