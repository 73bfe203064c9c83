// The Megatron MLP of examples/mlp_global.mlir, annotated over the module's mesh
// (#tt.sharding<[S0, R]> names no mesh) but with no #tt.device and no tt.meshes.
module {
  func.func @main(%x: tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>},
                  %w1: tensor<64x128xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %w2: tensor<128x64xf32> {tt.sharding = #tt.sharding<[S1, R]>}) -> (tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>}) {
    %h = "ttir.matmul"(%x, %w1) : (tensor<64x64xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
    %g = "ttir.gelu"(%h) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    %y = "ttir.matmul"(%g, %w2) : (tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
    return %y : tensor<64x64xf32>
  }
}
