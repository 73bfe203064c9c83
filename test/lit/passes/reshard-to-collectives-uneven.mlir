// RUN: not meshc-opt %s --split-input-file -p 'reshard-to-collectives' 2>/dev/null | filecheck %s
// RUN: meshc-opt %s --split-input-file -p 'reshard-to-collectives{point-to-point=false}' --verify-diagnostics

// 3 rows over mesh axis 0 of a 2x2 mesh: pieces of 2 and 1, buffers of 2x4. Gathering them
// moves the real rows only, by hand: device (0, c) = c needs row 2 from (1, c) = 2 + c, device
// (1, c) needs rows 0-1 from (0, c); 4 moves (step, src, dst, rows lo-hi, columns lo-hi), one
// step, no padding row sent.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @gather(%x: tensor<2x4xf32>) -> tensor<3x4xf32> {
    // expected-error @+1 {{cannot lower the reshard [S0, R] -> [R, R] of the (3, 4) tensor with point-to-point=false: an uneven split moves by point-to-point moves only (the collectives move even pieces)}}
    %0 = "ttir.reshard"(%x) {source = "[S0, R]", target = "[R, R]", full_shape = array<i64: 3, 4>} : (tensor<2x4xf32>) -> tensor<3x4xf32>
    func.return %0 : tensor<3x4xf32>
  }
}
// CHECK-LABEL: func.func @gather
// CHECK-NEXT: "ttir.point_to_point"(%x) {source = "[S0, R]", target = "[R, R]", transfers = array<i64: 0, 2, 0, 2, 3, 0, 4, 0, 3, 1, 2, 3, 0, 4, 0, 0, 2, 0, 2, 0, 4, 0, 1, 3, 0, 2, 0, 4>, full_shape = array<i64: 3, 4>} : (tensor<2x4xf32>) -> tensor<3x4xf32>

// -----

// Partial sums into an uneven placement: point-to-point moves cannot add (ttir-partition
// reduces on an even placement first)
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @partial(%x: tensor<3x4xf32>) -> tensor<2x4xf32> {
    // expected-error @+1 {{it reduces partial sums and splits a dim unevenly; reduce on an even placement first}}
    %0 = "ttir.reshard"(%x) {source = "[R, R] P1", target = "[S0, R]", full_shape = array<i64: 3, 4>} : (tensor<3x4xf32>) -> tensor<2x4xf32>
    func.return %0 : tensor<2x4xf32>
  }
}
