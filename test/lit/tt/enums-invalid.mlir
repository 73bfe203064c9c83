// RUN: meshc-opt %s --split-input-file --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

// expected-error @+1 {{Expected `system`, `dram`, or `l1`}}
func.func private @memory_space() attributes {s = #tt.memory_space<sram>}
// CHECK: enums-invalid.mlir:5:68: error: Expected `system`, `dram`, or `l1`

// -----

// expected-error @+1 {{Expected `undef`, `zero`, `one`, `inf`, or `neginf`}}
func.func private @oob() attributes {o = #tt.oob_val<nan>}
// CHECK: enums-invalid.mlir:11:{{[0-9]+}}: error: Expected `undef`, `zero`, `one`, `inf`, or `neginf`

// -----

// expected-error @+1 {{Expected `f32`, `f16`, `bf16`, `bfp_bf8`, `bfp_bf4`, `u32`, `u16`, `u8`, or `si32`}}
func.func private @dtype() attributes {t = #tt.data_type<f64>}
// CHECK: enums-invalid.mlir:17:{{[0-9]+}}: error: Expected `f32`

// CHECK-NOT: Traceback
