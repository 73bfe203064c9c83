
func.func @forward2(%arg0: tensor<1x1x256x512xf32>) -> tensor<1x1x256x256xf32> {
  %1 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 3>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1, 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<1x1x256x512xf32>) -> tensor<1x1x256x256xf32>
  %3 = "ttir.all_reduce"(%1) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<1x1x256x256xf32>) -> tensor<1x1x256x256xf32>
  %5 = "ttir.mesh_shard"(%3) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<1x1x256x256xf32>) -> tensor<1x1x256x256xf32>
  return %5 : tensor<1x1x256x256xf32>
}
