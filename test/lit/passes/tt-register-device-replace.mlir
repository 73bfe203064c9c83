// RUN: not meshc-opt %s -p 'tt-register-device{system=t3k mesh-shape=2,2}' 2>&1 | filecheck %s
// RUN: meshc-opt %s -p 'tt-register-device{system=n300 mesh-shape=1,2}' | filecheck %s --check-prefix=SAME

// A module that already runs on a device keeps it: registering another is an error, the same
// one is accepted (and the system is attached).
// CHECK: tt-register-device-replace.mlir:8:1: error: 'builtin.module' op the module already runs on the device #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>; tt-register-device{system=t3k mesh-shape=2,2} would replace it with #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 2, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 4, 5]>
// SAME: builtin.module attributes {tt.device = #device, tt.system_desc = #system_desc}
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @f(%x: tensor<32x32xf32>) -> tensor<32x32xf32> {
    func.return %x : tensor<32x32xf32>
  }
}
