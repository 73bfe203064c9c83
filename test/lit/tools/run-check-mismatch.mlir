// RUN: not meshc-run %s --split-input-file --golden %S/Inputs/run-golden-exp.mlir --check 2>&1 | filecheck %s

// --check against a golden program that computes something else: the mismatch names the output,
// the first index that differs and both values, and meshc-run exits 1. The input is seeded
// random; relu(x) and exp(x) first differ at the first element (exp(x) > 0 = relu(x) for x < 0,
// and exp(x) > x for x >= 0), so the index is [0, 0].
// CHECK: check: MISMATCH at result0[0, 0]: simulator {{.*}}, golden {{.*}} (f32: |sim - golden| <= {{[0-9.e+-]+}} + 0.0001 * |golden|)
module {
  func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
    %a = "ttnn.to_device"(%x, %d) : (tensor<4x8xf32>, !ttnn.device) -> tensor<4x8xf32>
    %r = "ttnn.relu"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %b = "ttnn.from_device"(%r) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    func.return %b : tensor<4x8xf32>
  }
}
