// RUN: meshc-opt %s -p 'tt-register-device{system=t3k mesh-shape=2,2,2}' | filecheck %s
// RUN: meshc-opt %s -p 'tt-register-device{system=galaxy mesh-shape=2,2,2}' | filecheck %s --check-prefix=GALAXY
// RUN: meshc-opt %s -p 'tt-register-device{system=t3k mesh-shape=2,2}' | filecheck %s --check-prefix=CORNER
// RUN: not meshc-opt %s -p 'tt-register-device{system=t3k mesh-shape=2,2,4}' 2>&1 | filecheck %s --check-prefix=TOOMANY
// RUN: not meshc-opt %s -p 'tt-register-device{system=n300 mesh-shape=2,2,2}' 2>&1 | filecheck %s --check-prefix=N300

// A logical mesh whose shape is not the system's chip mesh but whose volume fits is a view of
// the first chips in row-major chip order (device i on chip i): the 2x2x2 attention mesh of
// examples/moe_ep8.mlir on a t3k (chip mesh 2x4) takes all 8 chips, the t3k's own links under it.
// CHECK: meshShape = 2x4
// CHECK-SAME: links = {{\[}}[0, 1], [0, 4], [1, 2], [1, 5], [2, 3], [2, 6], [3, 7], [4, 5], [5, 6], [6, 7]]
// CHECK: #tt.device<workerGrid = #tt.grid<2x16x16, (d0, d1, d2) -> (d2 floordiv 8 + (d1 floordiv 8) * 2 + d0 * 4, d1 mod 8, d2 mod 8)>, meshShape = 2x2x2, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>

// On a galaxy (chip mesh 8x4) the same mesh takes chips 0..7: the first two rows of chips.
// GALAXY: meshShape = 8x4
// GALAXY: meshShape = 2x2x2, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>

// A mesh that fits the chip mesh takes the chips at the same coordinates: a 2x2 on a t3k is
// its 2x2 corner, chips (0,0) (0,1) (1,0) (1,1) = ids 0, 1, 4, 5, linked along both mesh axes.
// CORNER: meshShape = 2x2, chipIds = [0, 1, 4, 5]>

// A mesh with more devices than the system has chips stays a located error.
// TOOMANY: tt-register-device-mesh-view.mlir:25:1: error: 'builtin.module' op mesh 2x2x4 needs 16 chips, but system 't3k' has 8 (chip mesh 2x4)
// N300: tt-register-device-mesh-view.mlir:25:1: error: 'builtin.module' op mesh 2x2x2 needs 8 chips, but system 'n300' has 2 (chip mesh 1x2)
module {
  func.func @f(%x: tensor<32x32xf32>) -> tensor<32x32xf32> {
    func.return %x : tensor<32x32xf32>
  }
}
