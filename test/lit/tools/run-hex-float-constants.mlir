// RUN: meshc-run %s --full | filecheck %s
// RUN: meshc-opt %s -o %t.mlir
// RUN: meshc-run %t.mlir --full | filecheck %s

// A hexadecimal float literal is its bit pattern in the element type, in a ttir file as in the
// importer, and meshc-opt's output (xDSL prints inf and nan in hex) reads back the same:
// f32 0xFF800000 = -inf, 0x7F800000 = inf, 0x80000000 = -0.0, 0x00000001 = 2**-149 (the smallest
// subnormal, 1.4013e-45); bf16 0xFF80 = -inf, 0x7FC0 = nan, 0x3F80 = 1.0; f16 0xFC00 = -inf,
// 0x3C00 = 1.0, 0x0001 = 2**-24 (5.96046e-08).
// CHECK: result0: 5 float32
// CHECK-NEXT: [-inf  inf -0.  0.  0.]
// CHECK: result1: 3 float32
// CHECK-NEXT: [-inf  nan  1.]
// CHECK: result2: 3 float16
// CHECK-NEXT: [{{ *}}-inf 1.e+00 6.e-08]
// CHECK: result3: 2 float32
// CHECK-NEXT: [1.e-45 0.e+00]
func.func @main() -> (tensor<5xf32>, tensor<3xbf16>, tensor<3xf16>, tensor<2xf32>) {
  %0 = "ttir.constant"() <{value = dense<[0xFF800000, 0x7F800000, 0x80000000, 0x0, 0x0]> : tensor<5xf32>}> : () -> tensor<5xf32>
  %1 = "ttir.constant"() <{value = dense<[0xFF80, 0x7FC0, 0x3F80]> : tensor<3xbf16>}> : () -> tensor<3xbf16>
  %2 = "ttir.constant"() <{value = dense<[0xFC00, 0x3C00, 0x0001]> : tensor<3xf16>}> : () -> tensor<3xf16>
  %3 = "ttir.constant"() <{value = dense<[0x00000001, 0x0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  func.return %0, %1, %2, %3 : tensor<5xf32>, tensor<3xbf16>, tensor<3xf16>, tensor<2xf32>
}
