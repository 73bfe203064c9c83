// RUN: meshc-opt %s --split-input-file --verify-diagnostics -p 'ttir-layout,convert-ttir-to-ttmetal'

func.func @reshape(%a: tensor<64x64xf32>) {
  // expected-error @+1 {{convert-ttir-to-ttmetal cannot lower 'ttir.reshape': TTMetal kernels here cover elementwise ops (comparisons and where included), matmul, 2-d transpose, last-dim reductions and softmax, to_layout, constants and collectives}}
  %0 = "ttir.reshape"(%a) : (tensor<64x64xf32>) -> tensor<32x128xf32>
  func.return
}
// -----
func.func @bmm(%a: tensor<2x64x64xf32>) {
  // expected-error @+1 {{convert-ttir-to-ttmetal lowers 2-d matmul, or a batched a (not transposed) times a 2-d b, only; b has batch dims [2]: fold them first}}
  %0 = "ttir.matmul"(%a, %a) : (tensor<2x64x64xf32>, tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  func.return
}
// -----
func.func @keep(%a: tensor<64x64xf32>) {
  // expected-error @+1 {{convert-ttir-to-ttmetal lowers 'ttir.sum' with keep_dim = true only}}
  %0 = "ttir.sum"(%a) {dim_arg = [1 : i32]} : (tensor<64x64xf32>) -> tensor<64xf32>
  func.return
}
// -----
func.func @dims(%a: tensor<2x64x64xf32>) {
  // expected-error @+1 {{convert-ttir-to-ttmetal lowers 'ttir.mean' over the last dim (or dim 0 of a 2-d tensor) only, not over dims [1]}}
  %0 = "ttir.mean"(%a) {dim_arg = [1 : i32], keep_dim = true} : (tensor<2x64x64xf32>) -> tensor<2x1x64xf32>
  func.return
}
// -----
func.func @softmax(%a: tensor<64x64xf32>) {
  // expected-error @+1 {{convert-ttir-to-ttmetal lowers softmax over the last dim only, not dim 0}}
  %0 = "ttir.softmax"(%a) {dimension = 0 : si32} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  func.return
}
// -----
func.func @bcast(%a: tensor<2x64x64xf32>, %b: tensor<64x64xf32>) {
  // expected-error @+1 {{convert-ttir-to-ttmetal broadcasts a row, a column or a scalar only; cannot broadcast [64, 64] to [2, 64, 64]}}
  %0 = "ttir.add"(%a, %b) : (tensor<2x64x64xf32>, tensor<64x64xf32>) -> tensor<2x64x64xf32>
  func.return
}
// -----
func.func @uneven(%a: tensor<64x64xf32>) {
  // expected-error @+1 {{the result 64x64 (folded to 2-d) does not split evenly over the core grid 3x1}}
  %0 = "ttir.exp"(%a) : (tensor<64x64xf32>) -> tensor<64x64xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x1>, memref<1x2x!tt.tile<32x32, f32>, #tt.memory_space<l1>>>>
  func.return
}
// -----
func.func @grid3(%a: tensor<2x64x64xf32>) {
  // expected-error @+1 {{programs run on 2-d core grids of a chip; the layout grid 2x2x2 of}}
  %0 = "ttir.exp"(%a) : (tensor<2x64x64xf32>) -> tensor<2x64x64xf32, #tt.metal_layout<(d0, d1, d2) -> (d0, d1, d2), undef, <2x2x2>, memref<1x1x1x!tt.tile<32x32, f32>, #tt.memory_space<l1>>>>
  func.return
}
