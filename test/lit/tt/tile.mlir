// RUN: meshc-opt %s | filecheck %s
// RUN: meshc-opt %s --print-op-generic | meshc-opt | filecheck %s

// !tt.tile<HxW, DTYPE>: the canonical form is `32x32`; tt-mlir's Device spec's `32 x 32` is accepted.
// Every supported tile shape and data type prints back as written.

// CHECK: a = !tt.tile<32x32, bf16>
// CHECK-SAME: b = !tt.tile<32x32, bfp_bf8>
// CHECK-SAME: c = !tt.tile<16x32, f32>
// CHECK-SAME: d = !tt.tile<32x16, f16>
// CHECK-SAME: e = !tt.tile<16x16, bfp_bf4>
// CHECK-SAME: f = !tt.tile<8x32, u32>
// CHECK-SAME: g = !tt.tile<4x32, u16>
// CHECK-SAME: h = !tt.tile<2x32, u8>
// CHECK-SAME: i = !tt.tile<1x32, si32>
func.func private @tiles() attributes {
  a = !tt.tile<32x32, bf16>,
  b = !tt.tile<32 x 32, bfp_bf8>,
  c = !tt.tile<16x32, f32>,
  d = !tt.tile<32x16, f16>,
  e = !tt.tile<16 x16, bfp_bf4>,
  f = !tt.tile<8x32, u32>,
  g = !tt.tile<4x32, u16>,
  h = !tt.tile<2x32, u8>,
  i = !tt.tile<1x32, si32>
}

// A tile is a type: a memref of tiles.
// CHECK: func.func @tiled(%arg0: memref<2x2x!tt.tile<32x32, bf16>>)
func.func @tiled(%arg0: memref<2x2x!tt.tile<32 x 32, bf16>>) {
  func.return
}
