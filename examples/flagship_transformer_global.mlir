// The flagship transformer block of flagship_transformer_t3k.mlir, written in global view: the
// program computes on whole tensors and six annotations say how to place them; the compiler
// (ttir-propagate-sharding, ttir-partition, reshard-to-collectives in the pipelines) writes the
// per-device program: one sequence of the batch a chip row ([S0, R] on x), one head and a
// quarter of the MLP's hidden units a chip ([R, S1] on the weights that make them).
//   x: 2 sequences x 32 tokens, model width 64; 4 heads of 16; MLP hidden width 128
//   attention: q, k, v = x Wq, x Wk, x Wv as [batch, head, token, 16], softmax(q k^T / 4) v,
//              heads joined, then Wo, plus the residual; MLP: gelu(h W1) W2, plus the residual
// meshc-run examples/flagship_transformer_global.mlir --check --report
// lowers it with ttir-to-ttnn-pipeline for the module's 2x4 device and checks it against numpy.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @main(%x: tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>},
                  %wq: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wk: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wv: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wo: tensor<64x64xf32>,
                  %w1: tensor<64x128xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %w2: tensor<128x64xf32>) -> (tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>}) {
    // attention: q, k, v as [batch, head, token, head dim]
    %q = "ttir.matmul"(%x, %wq) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %k = "ttir.matmul"(%x, %wk) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %v = "ttir.matmul"(%x, %wv) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %q4 = "ttir.reshape"(%q) : (tensor<64x64xf32>) -> tensor<2x32x4x16xf32>
    %k4 = "ttir.reshape"(%k) : (tensor<64x64xf32>) -> tensor<2x32x4x16xf32>
    %v4 = "ttir.reshape"(%v) : (tensor<64x64xf32>) -> tensor<2x32x4x16xf32>
    %qh = "ttir.permute"(%q4) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x32x4x16xf32>) -> tensor<2x4x32x16xf32>
    %kh = "ttir.permute"(%k4) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x32x4x16xf32>) -> tensor<2x4x32x16xf32>
    %vh = "ttir.permute"(%v4) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x32x4x16xf32>) -> tensor<2x4x32x16xf32>
    %s = "ttir.matmul"(%qh, %kh) {transpose_b = true} : (tensor<2x4x32x16xf32>, tensor<2x4x32x16xf32>) -> tensor<2x4x32x32xf32>
    %scale = "ttir.constant"() {value = dense<2.500000e-01> : tensor<2x4x32x32xf32>} : () -> tensor<2x4x32x32xf32>
    %ss = "ttir.multiply"(%s, %scale) : (tensor<2x4x32x32xf32>, tensor<2x4x32x32xf32>) -> tensor<2x4x32x32xf32>
    %p = "ttir.softmax"(%ss) {dimension = 3 : si32} : (tensor<2x4x32x32xf32>) -> tensor<2x4x32x32xf32>
    %a = "ttir.matmul"(%p, %vh) : (tensor<2x4x32x32xf32>, tensor<2x4x32x16xf32>) -> tensor<2x4x32x16xf32>
    %at = "ttir.permute"(%a) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x4x32x16xf32>) -> tensor<2x32x4x16xf32>
    %heads = "ttir.reshape"(%at) : (tensor<2x32x4x16xf32>) -> tensor<64x64xf32>
    %o = "ttir.matmul"(%heads, %wo) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %h = "ttir.add"(%x, %o) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    // MLP
    %u = "ttir.matmul"(%h, %w1) : (tensor<64x64xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
    %g = "ttir.gelu"(%u) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    %m = "ttir.matmul"(%g, %w2) : (tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
    %y = "ttir.add"(%h, %m) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    return %y : tensor<64x64xf32>
  }
}
