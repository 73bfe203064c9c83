// RUN: meshc-opt %s | filecheck %s
// RUN: meshc-opt %s --print-op-generic | meshc-opt | filecheck %s

// CHECK-LABEL: func.func @ops
func.func @ops(%0: tensor<64x128xf32>, %1: tensor<128x256xf32>, %i: tensor<4x8xsi32>, %w: tensor<100x64xf32>) -> tensor<64x256xf32> {
  // CHECK: "ttir.matmul"(%{{.*}}, %{{.*}}) : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
  %2 = "ttir.matmul"(%0, %1) : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
  // CHECK: "ttir.matmul"(%{{.*}}, %{{.*}}) {transpose_b = true}
  %t = "ttir.matmul"(%0, %0) {transpose_b = true} : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x64xf32>
  %3 = "ttir.exp"(%2) : (tensor<64x256xf32>) -> tensor<64x256xf32>
  // CHECK: "ttir.sum"(%{{.*}}) {dim_arg = [1 : i32], keep_dim = true} : (tensor<64x256xf32>) -> tensor<64x1xf32>
  %4 = "ttir.sum"(%3) {dim_arg = [1 : i32], keep_dim = true} : (tensor<64x256xf32>) -> tensor<64x1xf32>
  %m = "ttir.max"(%3) {dim_arg = [0 : i32]} : (tensor<64x256xf32>) -> tensor<256xf32>
  %5 = "ttir.div"(%3, %4) : (tensor<64x256xf32>, tensor<64x1xf32>) -> tensor<64x256xf32>
  %6 = "ttir.transpose"(%5) {dim0 = -2 : si32, dim1 = -1 : si32} : (tensor<64x256xf32>) -> tensor<256x64xf32>
  %7 = "ttir.permute"(%6) {permutation = array<i64: 1, 0>} : (tensor<256x64xf32>) -> tensor<64x256xf32>
  %8 = "ttir.reshape"(%7) {shape = [16 : i32, 1024 : i32]} : (tensor<64x256xf32>) -> tensor<16x1024xf32>
  %9 = "ttir.broadcast"(%4) {broadcast_dimensions = array<i64: 1, 256>} : (tensor<64x1xf32>) -> tensor<64x256xf32>
  %10 = "ttir.concat"(%9, %9) {dim = 0 : si32} : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<128x256xf32>
  %11 = "ttir.softmax"(%10) {dimension = 1 : si32} : (tensor<128x256xf32>) -> tensor<128x256xf32>
  // CHECK: "ttir.embedding"
  %12 = "ttir.embedding"(%i, %w) : (tensor<4x8xsi32>, tensor<100x64xf32>) -> tensor<4x8x64xf32>
  %13 = "ttir.typecast"(%5) : (tensor<64x256xf32>) -> tensor<64x256xbf16>
  %14 = "ttir.empty"() : () -> tensor<2x2xf32>
  // CHECK: "ttir.constant"() {value = dense<1.000000e+00> : tensor<2x2xf32>}
  %15 = "ttir.constant"() {value = dense<1.0> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %16 = "ttir.maximum"(%14, %15) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %17 = "ttir.gelu"(%5) : (tensor<64x256xf32>) -> tensor<64x256xf32>
  func.return %17 : tensor<64x256xf32>
}
