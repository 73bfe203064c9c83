// RUN: meshc-opt %s --split-input-file -p reshard-to-collectives --verify-diagnostics | filecheck %s

// A reshard of any element type the device holds lowers; its data type name comes from
// meshc.dialects.element_types, as every pass's does (ui8 is u8, one byte an element). Other
// element types are located errors listing the data types there are.

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  // CHECK-LABEL: func.func @ui8
  func.func @ui8(%x: tensor<2x4xui8>) -> tensor<4x2xui8> {
    // CHECK-NEXT: %0 = "ttir.all_to_all"(%x) {split_dim = 1 : si32, concat_dim = 0 : si32, cluster_axis = 0 : ui32} : (tensor<2x4xui8>) -> tensor<4x2xui8>
    %0 = "ttir.reshard"(%x) {source = "[S0, R]", target = "[R, S0]"} : (tensor<2x4xui8>) -> tensor<4x2xui8>
    func.return %0 : tensor<4x2xui8>
  }
  // CHECK-LABEL: func.func @ui16
  func.func @ui16(%x: tensor<2x4xui16>) -> tensor<4x2xui16> {
    // CHECK-NEXT: %0 = "ttir.all_to_all"(%x) {split_dim = 1 : si32, concat_dim = 0 : si32, cluster_axis = 0 : ui32} : (tensor<2x4xui16>) -> tensor<4x2xui16>
    %0 = "ttir.reshard"(%x) {source = "[S0, R]", target = "[R, S0]"} : (tensor<2x4xui16>) -> tensor<4x2xui16>
    func.return %0 : tensor<4x2xui16>
  }
}

// -----

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @f64(%x: tensor<2x4xf64>) -> tensor<4x2xf64> {
    // expected-error @+1 {{cannot lower the reshard [S0, R] -> [R, S0]: unknown data type 'f64'; expected one of f32, f16, bf16, bfp_bf8, bfp_bf4, u32, u16, u8, si32}}
    %0 = "ttir.reshard"(%x) {source = "[S0, R]", target = "[R, S0]"} : (tensor<2x4xf64>) -> tensor<4x2xf64>
    func.return %0 : tensor<4x2xf64>
  }
}

// -----

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @i16(%x: tensor<2x4xi16>) -> tensor<4x2xi16> {
    // expected-error @+1 {{cannot lower the reshard [S0, R] -> [R, S0]: unknown data type 'i16'; expected one of f32, f16, bf16, bfp_bf8, bfp_bf4, u32, u16, u8, si32}}
    %0 = "ttir.reshard"(%x) {source = "[S0, R]", target = "[R, S0]"} : (tensor<2x4xi16>) -> tensor<4x2xi16>
    func.return %0 : tensor<4x2xi16>
  }
}
