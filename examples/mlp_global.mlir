// A two-layer MLP in global view on a t3k (2x4 chips): the batch split over the chip rows
// ([S0, R] on x and on the result), W1 split by columns and W2 by rows over each row of
// chips (Megatron's column- then row-parallel pair). The compiler writes the per-device
// program: no movement until the second matmul's partial sums, which one all_reduce per chip
// row adds up.
// meshc-run examples/mlp_global.mlir --check --report     (or --target ttmetal)
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @main(%x: tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>},
                  %w1: tensor<64x128xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %w2: tensor<128x64xf32> {tt.sharding = #tt.sharding<[S1, R]>}) -> (tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>}) {
    %h = "ttir.matmul"(%x, %w1) : (tensor<64x64xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
    %g = "ttir.gelu"(%h) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    %y = "ttir.matmul"(%g, %w2) : (tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
    return %y : tensor<64x64xf32>
  }
}
