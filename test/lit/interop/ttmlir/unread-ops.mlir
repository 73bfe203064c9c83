// tt-mlir's fused GPT-OSS MoE ops (moe_gpt, moe_compute, selective_reduce_combine), whose operands
// and results are one TT-Metal kernel's own buffers, are not read: a located error at the op
// naming it and saying what it is (tt-mlir's Dialect/TTNN/ccl/moe_gpt and selective_reduce_combine
// tests take this path).
// RUN: not meshc-opt --split-input-file %s 2>&1 | filecheck %s
// CHECK: unread-ops.mlir:[[# @LINE + 3]]:{{[0-9]+}}: error: Operation ttir.moe_gpt is not registered: tt-mlir's ttir.moe_gpt is a fused kernel of TT-Metal's GPT-OSS MoE
// CHECK-SAME: meshc does not read it (docs/importers.md)
func.func @gpt(%x: tensor<128x2880xbf16>, %i: tensor<128x4xui16>, %s: tensor<128x4xbf16>, %m: tensor<1x128xui16>, %w0: tensor<12x1x4x6x2880x128xbf16>, %w2: tensor<12x1x4x2x2880x128xbf16>) {
  %0:5 = "ttir.moe_gpt"(%x, %i, %s, %m, %w0, %w2) : (tensor<128x2880xbf16>, tensor<128x4xui16>, tensor<128x4xbf16>, tensor<1x128xui16>, tensor<12x1x4x6x2880x128xbf16>, tensor<12x1x4x2x2880x128xbf16>) -> (tensor<1x8xui32>, tensor<1x1032xui32>, tensor<4x1032xui32>, tensor<12x2x32x2880xbf16>, tensor<12x2x32x2880xbf16>)
  return
}

// -----

// CHECK: unread-ops.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: Operation ttnn.selective_reduce_combine is not registered: tt-mlir's ttnn.selective_reduce_combine is the combine stage of TT-Metal's fused GPT-OSS MoE kernel
func.func @combine(%a: tensor<16x128x1x2880xbf16>, %b: tensor<16x128x1x2880xbf16>, %c: tensor<1x128x1x4xi32>, %d: tensor<1x128x1x1xi32>) -> tensor<16x128x1x2880xbf16> {
  %0 = "ttnn.selective_reduce_combine"(%a, %b, %c, %d) <{hidden_size = 2880 : ui32, batch_size = 128 : ui32, seq_size = 1 : ui32, select_experts_k = 4 : ui32, experts = 32 : ui32}> : (tensor<16x128x1x2880xbf16>, tensor<16x128x1x2880xbf16>, tensor<1x128x1x4xi32>, tensor<1x128x1x1xi32>) -> tensor<16x128x1x2880xbf16>
  return %0 : tensor<16x128x1x2880xbf16>
}

// -----

// CHECK: unread-ops.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: Operation ttir.moe_compute is not registered: tt-mlir's ttir.moe_compute is a fused kernel
func.func @compute(%a: tensor<4x4xbf16>) -> tensor<4x4xbf16> {
  %0 = "ttir.moe_compute"(%a) : (tensor<4x4xbf16>) -> tensor<4x4xbf16>
  return %0 : tensor<4x4xbf16>
}
