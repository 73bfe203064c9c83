// RUN: meshc-opt %s -p 'tt-register-device{system=t3k mesh-shape=2,4},ttir-layout' --mlir-print-ir-after-all 2>&1 >/dev/null | filecheck %s
// RUN: meshc-opt %s -p 'tt-register-device{system=t3k mesh-shape=2,4},ttir-layout' --print-between-passes 2>&1 >/dev/null | filecheck %s
// RUN: meshc-opt %s -p 'tt-register-device{system=t3k mesh-shape=2,4},ttir-layout' --mlir-print-ir-after-all 2>/dev/null | filecheck %s --check-prefix=OUT

// The IR after every pass goes to stderr, headed as mlir-opt heads it; stdout keeps the result.
// CHECK: // -----// IR Dump After tt-register-device //----- //
// CHECK: builtin.module attributes {tt.system_desc = #system_desc, tt.device = #device}
// CHECK: "ttir.relu"(%{{.*}}) : (tensor<64x64xf32>) -> tensor<64x64xf32>
// CHECK: // -----// IR Dump After ttir-layout //----- //
// CHECK: "ttir.relu"(%{{.*}}) : (tensor<64x64xf32>) -> tensor<64x64xf32, #layout>
// OUT-NOT: IR Dump
// OUT: "ttir.relu"(%{{.*}}) : (tensor<64x64xf32>) -> tensor<64x64xf32, #layout>

func.func @f(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = "ttir.relu"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  func.return %0 : tensor<64x64xf32>
}
