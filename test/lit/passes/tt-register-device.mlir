// RUN: meshc-opt %s -p 'tt-register-device{system=t3k mesh-shape=2,4}' | filecheck %s --check-prefix=T3K
// RUN: meshc-opt %s -p 'tt-register-device{system=n300 mesh-shape=1,2}' | filecheck %s --check-prefix=N300
// RUN: meshc-opt %s -p 'tt-register-device{system=t3k}' | filecheck %s --check-prefix=T3K
// RUN: meshc-opt %s -p 'tt-register-device' | filecheck %s --check-prefix=N150
// RUN: meshc-opt %s -p 'tt-register-device{system="%S/Inputs/n300_system.mlir"}' | filecheck %s --check-prefix=N300

// The derived devices of docs/design.md: 2x4 -> 16x32, 1x2 -> 8x16.
// T3K: #device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>
// T3K: builtin.module attributes {tt.system_desc = #system_desc, tt.device = #device}
// N300: #device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>
// N150: #device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1x1, chipIds = [0]>
func.func @f(%x: tensor<32x32xf32>) -> tensor<32x32xf32> {
  func.return %x : tensor<32x32xf32>
}
