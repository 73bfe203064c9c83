// RUN: meshc-opt --split-input-file --verify-diagnostics %s
// RUN: not meshc-opt --split-input-file %s 2>&1 | filecheck %s
// A device is checked against the module's system: chip ids must exist and every logical
// core must land inside its chip's worker grid (8x8 when the module names no system).

// expected-error @+1 {{chip id 2 is not in the system, which has 2 chips}}
module attributes {tt.system_desc = #tt.system_desc<n300>, tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chipIds = [2]>} {
}
// CHECK: device-system-invalid.mlir:7:1: error: 'builtin.module' op 'tt.device' is not a legal device on the module's #tt.system_desc: chip id 2 is not in the system, which has 2 chips

// -----

// expected-error @+1 {{logical core (0, 8) maps to core (0, 8) of chip 0, outside its 8x8 grid}}
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chipIds = [0]>} {
}
// CHECK: device-system-invalid.mlir:14:1: error: {{.*}}on 8x8 chips (no tt.system_desc): logical core (0, 8) maps to core (0, 8) of chip 0, outside its 8x8 grid

// -----

// A legal two-chip device on an n300 verifies.
module attributes {tt.system_desc = #tt.system_desc<n300>, tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
}
