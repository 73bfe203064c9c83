// RUN: meshc-run %s --check | filecheck %s
// RUN: meshc-run %s --check --pipeline 'ttir-to-ttnn-pipeline{system=t3k mesh-shape=2,4}' | filecheck %s

// A matmul whose operand is a constant (ttnn.constant is a host value, not a device tensor the
// memory plan places): ttnn-optimize-memory sizes the matmul from the constant's type and plans
// the device tensors around it (it stopped with an internal IndexError before).
// CHECK: check: result0: 0 of 4096 elements differ
func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c = "ttir.constant"() {value = dense<2.0> : tensor<64x64xf32>} : () -> tensor<64x64xf32>
  %y = "ttir.matmul"(%x, %c) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %z = "ttir.matmul"(%c, %y) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %z : tensor<64x64xf32>
}
