// RUN: meshc-run %s --check --report-json %t.json | filecheck %s
// RUN: python -c "import json; r = json.load(open('%t.json')); print('in use', r['memory']['per_chip']['0']['l1_in_use'])" | filecheck %s --check-prefix=FREED

// A TTNN program whose @main calls two functions, each moving its operand to the device and its
// result back: a callee's device buffers are freed once its caller holds the result (before,
// the first callee's buffer was reported freed while its caller still read it). At the end no
// L1 byte is in use.
// CHECK: check: result0 matches the golden run
// FREED: in use 0
module {
  func.func @f(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
    %a = "ttnn.to_device"(%x, %d) {memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <interleaved>>} : (tensor<64x64xf32>, !ttnn.device) -> tensor<64x64xf32>
    %r = "ttnn.relu"(%a) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %r : tensor<64x64xf32>
  }
  func.func @g(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %s = "ttnn.add"(%x, %y) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %t = "ttnn.tanh"(%s) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %b = "ttnn.from_device"(%t) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %b : tensor<64x64xf32>
  }
  func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = func.call @f(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %1 = func.call @g(%0, %0) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %1 : tensor<64x64xf32>
  }
  module attributes {meshc.reference} {
    func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
      %r = "ttir.relu"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
      %s = "ttir.add"(%r, %r) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %t = "ttir.tanh"(%s) : (tensor<64x64xf32>) -> tensor<64x64xf32>
      func.return %t : tensor<64x64xf32>
    }
  }
}
