
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 2x4>]>} {
  ttcore.device_module {
    builtin.module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 2x4>]>} {
      func.func @test_sdy_all_slice_composite_row_major(%arg0: tensor<4x32xbf16> {ttcore.shard_status = #ttcore.shard_status<presharded>}) -> (tensor<4x32xbf16> {ttcore.shard_status = #ttcore.shard_status<unsharded>}) {
        %0 = "ttir.mesh_partition"(%arg0) <{cluster_axis = 1 : ui32, dim = 0 : si32}> : (tensor<4x32xbf16>) -> tensor<1x32xbf16>
        %1 = "ttir.mesh_partition"(%0) <{cluster_axis = 0 : ui32, dim = 1 : si32}> : (tensor<1x32xbf16>) -> tensor<1x16xbf16>
        %2 = "ttir.mesh_shard"(%1) <{shard_dims = array<i64: 1, 0>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 4, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<1x16xbf16>) -> tensor<4x32xbf16>
        return %2 : tensor<4x32xbf16>
      }
    }
  }
}

