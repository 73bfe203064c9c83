// RUN: python -c "import numpy as np; np.save('%t.x.npy', np.arange(32, dtype=np.float32).reshape(4, 8) - 8)"
// RUN: meshc-run %s --input x=%t.x.npy --full --save-outputs %t.out --check | filecheck %s
// RUN: python -c "import numpy as np; y = np.load('%t.out/result0.npy'); x = np.arange(32, dtype=np.float32).reshape(4, 8) - 8; assert (y == np.maximum(x, 0)).all(); print('saved ok')" | filecheck %s --check-prefix=SAVED
// RUN: meshc-run %s --seed 5 | filecheck %s --check-prefix=SUMMARY

// A one-chip ttnn program: relu of a 4x8 tensor moved through L1. The input is read from .npy;
// --full prints the output in full (numpy's printing of relu(x) for x = arange(32) - 8).
// --check compares with the ttir program the file carries as its reference (the nested module
// marked meshc.reference, as the lowering pipelines write it).
// CHECK: result0: 4x8 float32
// CHECK-NEXT: {{\[\[}} 0.  0.  0.  0.  0.  0.  0.  0.]
// CHECK-NEXT: [ 0.  1.  2.  3.  4.  5.  6.  7.]
// CHECK: check: result0 matches the golden run (within the f32 tolerance)
// SAVED: saved ok
// SUMMARY: result0: 4x8 float32  min {{.*}} max {{.*}} mean {{.*}} [{{.*}}, ...]
module {
  func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
    %a = "ttnn.to_device"(%x, %d) {memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <interleaved>>} : (tensor<4x8xf32>, !ttnn.device) -> tensor<4x8xf32>
    %r = "ttnn.relu"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %b = "ttnn.from_device"(%r) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    func.return %b : tensor<4x8xf32>
  }
  module attributes {meshc.reference} {
    func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
      %r = "ttir.relu"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
      func.return %r : tensor<4x8xf32>
    }
  }
}
