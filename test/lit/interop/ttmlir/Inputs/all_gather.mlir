
func.func @forward(%arg0: tensor<1x1x256x512xf32>) -> tensor<1x1x256x512xf32> {
  %1 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: 2, 3>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1, 2, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<1x1x256x512xf32>) -> tensor<1x1x128x128xf32>
  %3 = "ttir.all_gather"(%1) <{all_gather_dim = 3 : si32, cluster_axis = 1 : ui32}> : (tensor<1x1x128x128xf32>) -> tensor<1x1x128x512xf32>
  %5 = "ttir.mesh_shard"(%3) <{shard_dims = array<i64: 2, -1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 1, 2, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<1x1x128x512xf32>) -> tensor<1x1x256x512xf32>
  return %5 : tensor<1x1x256x512xf32>
}
