// RUN: meshc-opt %s --split-input-file --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

// Each verifier message of #tt.device and #tt.grid, located at the attribute.

// expected-error @+1 {{logical core (0, 32) maps to chip index 4, but the device has 4 chips}}
func.func private @chip_index_out_of_range() attributes {tt.device = #tt.device<workerGrid = #tt.grid<1x64, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 4, chipIds = [0, 1, 2, 3]>}
// CHECK: device-invalid.mlir:7:70: error: invalid attribute '#tt.device': logical core (0, 32) maps to chip index 4, but the device has 4 chips
// CHECK-NEXT: func.func private @chip_index_out_of_range()
// CHECK-NEXT: {{^ {69}\^$}}

// -----

// expected-error @+1 {{chipIds has 3 chips, but meshShape 1x2 needs 2}}
func.func private @chip_count() attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1, 2]>}
// CHECK: device-invalid.mlir:15:{{[0-9]+}}: error: invalid attribute '#tt.device': chipIds has 3 chips, but meshShape 1x2 needs 2

// -----

// expected-error @+1 {{chip id 1 appears twice in chipIds (at 0 and 1)}}
func.func private @duplicate_ids() attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [1, 1]>}
// CHECK: device-invalid.mlir:21:{{[0-9]+}}: error: {{.*}}chip id 1 appears twice in chipIds (at 0 and 1)

// -----

// expected-error @+1 {{the device map (d0, d1) -> (d0, d1) has 2 results; expected 3: (chip index, y, x)}}
func.func private @two_results() attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (d0, d1)>, meshShape = 1, chipIds = [0]>}
// CHECK: device-invalid.mlir:27:{{[0-9]+}}: error: {{.*}}has 2 results; expected 3: (chip index, y, x)

// -----

// expected-error @+1 {{the device map is not injective: logical cores (0, 0) and (0, 1) both map to core (0, 0) of chip 0}}
func.func private @not_injective() attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1 floordiv 2)>, meshShape = 1, chipIds = [0]>}
// CHECK: device-invalid.mlir:33:{{[0-9]+}}: error: {{.*}}not injective: logical cores (0, 0) and (0, 1) both map to core (0, 0) of chip 0

// -----

// expected-error @+1 {{logical core (0, 0) maps to core (0, -1) of chip 0; core coordinates cannot be negative}}
func.func private @negative_core() attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1 - 1)>, meshShape = 1, chipIds = [0]>}
// CHECK: device-invalid.mlir:39:{{[0-9]+}}: error: {{.*}}maps to core (0, -1) of chip 0; core coordinates cannot be negative

// -----

// expected-error @+1 {{the workerGrid of a device needs a map from the logical grid to (chip index, y, x)}}
func.func private @no_map() attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8>, meshShape = 1, chipIds = [0]>}
// CHECK: device-invalid.mlir:45:{{[0-9]+}}: error: {{.*}}the workerGrid of a device needs a map

// -----

// expected-error @+1 {{meshShape 0x2 must have positive sizes}}
func.func private @empty_mesh() attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 0x2, chipIds = []>}
// CHECK: device-invalid.mlir:51:{{[0-9]+}}: error: {{.*}}meshShape 0x2 must have positive sizes

// -----

// expected-error @+1 {{the grid map (d0, d1, d2) -> (0, d0, d1) takes 3 dims, but the grid 8x8 has rank 2}}
func.func private @map_rank() attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1, d2) -> (0, d0, d1)>, meshShape = 1, chipIds = [0]>}
// CHECK: device-invalid.mlir:57:{{[0-9]+}}: error: invalid attribute '#tt.grid': the grid map (d0, d1, d2) -> (0, d0, d1) takes 3 dims, but the grid 8x8 has rank 2

// -----

// expected-error @+1 {{grid 8x0 must have a rank of at least 1 and positive sizes}}
func.func private @empty_grid() attributes {g = #tt.grid<8x0>}
// CHECK: device-invalid.mlir:63:{{[0-9]+}}: error: {{.*}}grid 8x0 must have a rank of at least 1 and positive sizes

// -----

// A malformed map is reported at the offending token.
// expected-error @+1 {{use of undeclared dim 'd2' in affine map; the map declares (d0, d1)}}
func.func private @undeclared_dim() attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d2)>, meshShape = 1, chipIds = [0]>}
// CHECK: device-invalid.mlir:70:119: error: use of undeclared dim 'd2' in affine map; the map declares (d0, d1)

// -----

// expected-error @+1 {{non-affine expression: one operand of '*' must be a constant}}
func.func private @non_affine() attributes {g = #tt.grid<8x8, (d0, d1) -> (0, d0 * d1, d1)>}
// CHECK: device-invalid.mlir:76:{{[0-9]+}}: error: non-affine expression: one operand of '*' must be a constant

// -----

// expected-error @+1 {{expected an affine map such as '(d0, d1) -> (d0, d1)'}}
func.func private @not_a_map() attributes {g = #tt.grid<8x8, d0 -> d0>}
// CHECK: device-invalid.mlir:82:{{[0-9]+}}: error: expected an affine map

// -----

// expected-error @+1 {{Expected 'chipIds'}}
func.func private @wrong_key() attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chips = [0]>}
// CHECK: device-invalid.mlir:88:{{[0-9]+}}: error: Expected 'chipIds'

// -----

// expected-error @+1 {{'>' expected}}
func.func private @unclosed() attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chipIds = [0]}
// CHECK: device-invalid.mlir:94:{{[0-9]+}}: error: '>' expected

// CHECK-NOT: Traceback
