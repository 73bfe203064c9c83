// The flagship: a small transformer block on a t3k (2x4 chips of 8x8 cores).
// Data parallel over mesh axis 0 (each row of chips holds one sequence of the batch of 2),
// tensor parallel over mesh axis 1 (each of the 4 chips of a row holds one attention head and a
// quarter of the MLP's hidden units). The heads and the hidden units are joined with
// all_gather along cluster_axis 1; the output projections are replicated.
//   x: 2 sequences x 32 tokens, model width 64 -> rows 0..31 on chip row 0, 32..63 on row 1
//   attention: q, k, v = x Wq, x Wk, x Wv (one 16-wide head a chip), softmax(q k^T / 4) v,
//              heads gathered, then Wo, plus the residual
//   MLP: gelu(h W1) (32 of the 128 hidden units a chip), gathered, then W2, plus the residual
// `make demo` lowers it with ttir-to-ttnn-pipeline{system=t3k mesh-shape=2,4} and runs it with
// meshc-run --check --report (the check runs this file on numpy).
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @main(%x: tensor<64x64xf32>, %wq: tensor<64x64xf32>, %wk: tensor<64x64xf32>, %wv: tensor<64x64xf32>,
                  %wo: tensor<64x64xf32>, %w1: tensor<64x128xf32>, %w2: tensor<128x64xf32>) -> tensor<64x64xf32> {
    // distribute: the batch over mesh axis 0, the heads / hidden units over mesh axis 1
    %xl = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1>, shard_dims = array<i64: 0, -1>} : (tensor<64x64xf32>) -> tensor<32x64xf32>
    %wql = "ttir.mesh_shard"(%wq) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 4>, shard_dims = array<i64: -1, 1>} : (tensor<64x64xf32>) -> tensor<64x16xf32>
    %wkl = "ttir.mesh_shard"(%wk) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 4>, shard_dims = array<i64: -1, 1>} : (tensor<64x64xf32>) -> tensor<64x16xf32>
    %wvl = "ttir.mesh_shard"(%wv) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 4>, shard_dims = array<i64: -1, 1>} : (tensor<64x64xf32>) -> tensor<64x16xf32>
    %wol = "ttir.mesh_shard"(%wo) {shard_type = #ttir.shard_type<replicate>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1>, shard_dims = array<i64: -1, -1>} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %w1l = "ttir.mesh_shard"(%w1) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 4>, shard_dims = array<i64: -1, 1>} : (tensor<64x128xf32>) -> tensor<64x32xf32>
    %w2l = "ttir.mesh_shard"(%w2) {shard_type = #ttir.shard_type<replicate>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1>, shard_dims = array<i64: -1, -1>} : (tensor<128x64xf32>) -> tensor<128x64xf32>
    // attention, one head a chip
    %q = "ttir.matmul"(%xl, %wql) : (tensor<32x64xf32>, tensor<64x16xf32>) -> tensor<32x16xf32>
    %k = "ttir.matmul"(%xl, %wkl) : (tensor<32x64xf32>, tensor<64x16xf32>) -> tensor<32x16xf32>
    %v = "ttir.matmul"(%xl, %wvl) : (tensor<32x64xf32>, tensor<64x16xf32>) -> tensor<32x16xf32>
    %s = "ttir.matmul"(%q, %k) {transpose_b = true} : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x32xf32>
    %scale = "ttir.constant"() {value = dense<2.500000e-01> : tensor<32x32xf32>} : () -> tensor<32x32xf32>
    %ss = "ttir.multiply"(%s, %scale) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %p = "ttir.softmax"(%ss) {dimension = 1 : si32} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %a = "ttir.matmul"(%p, %v) : (tensor<32x32xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %heads = "ttir.all_gather"(%a) {all_gather_dim = 1 : si32, cluster_axis = 1 : ui32} : (tensor<32x16xf32>) -> tensor<32x64xf32>
    %o = "ttir.matmul"(%heads, %wol) : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
    %h = "ttir.add"(%xl, %o) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    // MLP, a quarter of the hidden units a chip
    %u = "ttir.matmul"(%h, %w1l) : (tensor<32x64xf32>, tensor<64x32xf32>) -> tensor<32x32xf32>
    %g = "ttir.gelu"(%u) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %gg = "ttir.all_gather"(%g) {all_gather_dim = 1 : si32, cluster_axis = 1 : ui32} : (tensor<32x32xf32>) -> tensor<32x128xf32>
    %m = "ttir.matmul"(%gg, %w2l) : (tensor<32x128xf32>, tensor<128x64xf32>) -> tensor<32x64xf32>
    %y = "ttir.add"(%h, %m) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    // assemble the batch back on the host
    %out = "ttir.mesh_shard"(%y) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1>, shard_dims = array<i64: 0, -1>} : (tensor<32x64xf32>) -> tensor<64x64xf32>
    return %out : tensor<64x64xf32>
  }
}
