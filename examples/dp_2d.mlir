// tt-mlir's Device spec "Data Parallel Over 2d": 2 chips side by side as one 8x16 grid (meshShape 1x2);
// a 256x1024 activation split by columns, multiplied by a replicated 1024-wide scale, gathered.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @main(%x: tensor<256x1024xf32>, %s: tensor<1x512xf32>) -> tensor<256x1024xf32> {
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_dims = array<i64: -1, 1>} : (tensor<256x1024xf32>) -> tensor<256x512xf32>
    %1 = "ttir.mesh_shard"(%s) {shard_type = #ttir.shard_type<replicate>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1>, shard_dims = array<i64: -1, -1>} : (tensor<1x512xf32>) -> tensor<1x512xf32>
    %2 = "ttir.multiply"(%0, %1) : (tensor<256x512xf32>, tensor<1x512xf32>) -> tensor<256x512xf32>
    %3 = "ttir.gelu"(%2) : (tensor<256x512xf32>) -> tensor<256x512xf32>
    %4 = "ttir.all_gather"(%3) {all_gather_dim = 1 : si32, cluster_axis = 1 : ui32} : (tensor<256x512xf32>) -> tensor<256x1024xf32>
    %5 = "ttir.mesh_shard"(%4) {shard_type = #ttir.shard_type<replicate>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 1>, shard_dims = array<i64: -1, -1>} : (tensor<256x1024xf32>) -> tensor<256x1024xf32>
    func.return %5 : tensor<256x1024xf32>
  }
}
