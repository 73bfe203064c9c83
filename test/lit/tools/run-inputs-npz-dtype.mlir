// RUN: python -c "import numpy as np; x = np.arange(32, dtype=np.float32).reshape(4, 8) - 8; np.savez('%t.in.npz', x=x); np.savez('%t.two.npz', x=x, w=x); np.savez('%t.one.npz', anything=x); np.save('%t.f64.npy', x.astype(np.float64)); np.save('%t.i16.npy', np.zeros((4, 8), np.int16))"
// RUN: meshc-run %s --input %t.in.npz --full | filecheck %s
// RUN: meshc-run %s --input x=%t.one.npz --full | filecheck %s
// RUN: not meshc-run %s --input y=%t.two.npz 2>&1 | filecheck %s --check-prefix=NOKEY
// RUN: not meshc-run %s --input x=%t.f64.npy 2>&1 | filecheck %s --check-prefix=F64
// RUN: meshc-run %s --input x=%t.i16.npy | filecheck %s --check-prefix=WIDEN

// Inputs from .npz files (by name, or the only array), and types checked, never rounded silently.
// CHECK: result0: 4x8 float32
// CHECK-NEXT: {{\[\[}} 0.  0.  0.  0.  0.  0.  0.  0.]
// NOKEY: meshc-run: error: '{{.*}}two.npz' has no array 'y' (it holds x, w)
// F64: run-inputs-npz-dtype.mlir:17:3: error: 'func.func' op input 'x' holds float64 values, but @main takes tensor<4x8xf32> (float32 on the host): convert it first
// F64-NOT: Traceback
// An int16 array widens to float32 exactly: accepted.
// WIDEN: result0: 4x8 float32  min 0 max 0
module {
  func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
    %a = "ttnn.to_device"(%x, %d) {memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <interleaved>>} : (tensor<4x8xf32>, !ttnn.device) -> tensor<4x8xf32>
    %r = "ttnn.relu"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %b = "ttnn.from_device"(%r) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    func.return %b : tensor<4x8xf32>
  }
}
