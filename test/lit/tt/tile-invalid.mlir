// RUN: meshc-opt %s --split-input-file --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

// expected-error @+1 {{tile shape 32x8 is not supported; expected one of 32x32, 16x32, 32x16, 16x16, 8x32, 4x32, 2x32, 1x32}}
func.func private @shape() attributes {t = !tt.tile<32x8, bf16>}
// CHECK: tile-invalid.mlir:5:44: error: invalid type '!tt.tile': tile shape 32x8 is not supported; expected one of 32x32, 16x32, 32x16, 16x16, 8x32, 4x32, 2x32, 1x32

// -----

// expected-error @+1 {{a tile is 2-d, got 32x32x2}}
func.func private @rank() attributes {t = !tt.tile<32x32x2, bf16>}
// CHECK: tile-invalid.mlir:11:{{[0-9]+}}: error: {{.*}}a tile is 2-d, got 32x32x2

// -----

// expected-error @+1 {{Expected `f32`, `f16`, `bf16`, `bfp_bf8`, `bfp_bf4`, `u32`, `u16`, `u8`, or `si32`}}
func.func private @dtype() attributes {t = !tt.tile<32x32, bf17>}
// CHECK: tile-invalid.mlir:17:60: error: Expected `f32`, `f16`, `bf16`, `bfp_bf8`, `bfp_bf4`, `u32`, `u16`, `u8`, or `si32`

// -----

// expected-error @+1 {{expected a tile shape such as 8x8}}
func.func private @no_shape() attributes {t = !tt.tile<bf16>}
// CHECK: tile-invalid.mlir:23:{{[0-9]+}}: error: expected a tile shape such as 8x8

// CHECK-NOT: Traceback
