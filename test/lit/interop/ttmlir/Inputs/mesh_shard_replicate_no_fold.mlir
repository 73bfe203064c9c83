#ttcore_shard_direction = #ttcore.shard_direction<full_to_shard>
#ttcore_shard_type = #ttcore.shard_type<devices>

module {
  func.func @mesh_shard_replicate_no_fold(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.mesh_shard"(%arg0) <{
        shard_type = #ttcore.shard_type<replicate>,
        shard_direction = #ttcore_shard_direction,
        shard_shape = array<i64: 1>,
        shard_dims = array<i64: 0, 1>
    }> : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
