// tt-mlir's verifiers refuse these multi-device TTIR inputs (out-of-range gather and scatter dims,
// reductions other than sum / max / min, malformed source_target_pairs, a maximal mesh_shard, a
// devices mesh_shard whose shard_shape has the wrong rank); meshc's refuse
// the same inputs, in its own words. Written for this project after tt-mlir's negative tests.
// RUN: meshc-opt --split-input-file --verify-diagnostics %s

module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x4>]>} {
  func.func @gather_below_rank(%arg0: tensor<1x1x32x32xf32>) -> tensor<1x1x32x128xf32> {
    // expected-error @+1 {{all_gather_dim -5 is out of range for a tensor of rank 4 (expected -4 <= all_gather_dim < 4)}}
    %0 = "ttir.all_gather"(%arg0) <{all_gather_dim = -5 : si32, cluster_axis = 1 : ui32}> : (tensor<1x1x32x32xf32>) -> tensor<1x1x32x128xf32>
    return %0 : tensor<1x1x32x128xf32>
  }
}

// -----

module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x4>]>} {
  func.func @all_reduce_std(%arg0: tensor<1x1x64x64xf32>) -> tensor<1x1x64x64xf32> {
    // expected-error @+1 {{reduce_type std is not a reduction all_reduce applies across devices (expected sum, max or min)}}
    %0 = "ttir.all_reduce"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<std>}> : (tensor<1x1x64x64xf32>) -> tensor<1x1x64x64xf32>
    return %0 : tensor<1x1x64x64xf32>
  }
}

// -----

module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x4>]>} {
  func.func @all_reduce_var(%arg0: tensor<1x1x64x64xf32>) -> tensor<1x1x64x64xf32> {
    // expected-error @+1 {{reduce_type var is not a reduction all_reduce applies across devices}}
    %0 = "ttir.all_reduce"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #tt.reduce_type<var>}> : (tensor<1x1x64x64xf32>) -> tensor<1x1x64x64xf32>
    return %0 : tensor<1x1x64x64xf32>
  }
}

// -----

module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x4>]>} {
  func.func @reduce_scatter_mean(%arg0: tensor<1x1x64x256xf32>) -> tensor<1x1x64x64xf32> {
    // expected-error @+1 {{reduce_type mean is not a reduction reduce_scatter applies across devices}}
    %0 = "ttir.reduce_scatter"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<mean>, scatter_dim = 3 : si32}> : (tensor<1x1x64x256xf32>) -> tensor<1x1x64x64xf32>
    return %0 : tensor<1x1x64x64xf32>
  }
}

// -----

module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x4>]>} {
  func.func @reduce_scatter_std(%arg0: tensor<1x1x64x256xf32>) -> tensor<1x1x64x64xf32> {
    // expected-error @+1 {{reduce_type std is not a reduction reduce_scatter applies across devices}}
    %0 = "ttir.reduce_scatter"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<std>, scatter_dim = 3 : si32}> : (tensor<1x1x64x256xf32>) -> tensor<1x1x64x64xf32>
    return %0 : tensor<1x1x64x64xf32>
  }
}

// -----

module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x4>]>} {
  func.func @scatter_dim_at_rank(%arg0: tensor<1x1x64x256xf32>) -> tensor<1x1x64x64xf32> {
    // expected-error @+1 {{scatter_dim 4 is out of range for a tensor of rank 4}}
    %0 = "ttir.reduce_scatter"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>, scatter_dim = 4 : si32}> : (tensor<1x1x64x256xf32>) -> tensor<1x1x64x64xf32>
    return %0 : tensor<1x1x64x64xf32>
  }
}

// -----

module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x4>]>} {
  func.func @scatter_dim_below(%arg0: tensor<1x1x64x256xf32>) -> tensor<1x1x64x64xf32> {
    // expected-error @+1 {{scatter_dim -5 is out of range for a tensor of rank 4}}
    %0 = "ttir.reduce_scatter"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>, scatter_dim = -5 : si32}> : (tensor<1x1x64x256xf32>) -> tensor<1x1x64x64xf32>
    return %0 : tensor<1x1x64x64xf32>
  }
}

// -----

module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x4>]>} {
  func.func @pairs_rank_one(%arg0: tensor<64x64xf32>) -> tensor<64x64xf32> {
    // expected-error @+1 {{source_target_pairs must be an Nx2 tensor, got shape (2,)}}
    %0 = "ttir.collective_permute"(%arg0) <{source_target_pairs = dense<[0, 1]> : tensor<2xi64>}> : (tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
}

// -----

module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x4>]>} {
  func.func @pairs_two_sources(%arg0: tensor<64x64xf32>) -> tensor<64x64xf32> {
    // expected-error @+1 {{device 2 is a source of more than one pair}}
    %0 = "ttir.collective_permute"(%arg0) <{source_target_pairs = dense<[[2, 0], [2, 3]]> : tensor<2x2xi64>}> : (tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
}

// -----

module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x4>]>} {
  func.func @pairs_two_targets(%arg0: tensor<64x64xf32>) -> tensor<64x64xf32> {
    // expected-error @+1 {{device 0 is a target of more than one pair}}
    %0 = "ttir.collective_permute"(%arg0) <{source_target_pairs = dense<[[1, 0], [3, 0]]> : tensor<2x2xi64>}> : (tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
}

// -----

module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x4>]>} {
  func.func @mesh_shard_maximal(%arg0: tensor<64x64xf32>) -> tensor<64x64xf32> {
    // expected-error @+1 {{shard_type maximal (the whole tensor on one device) is not supported, as in tt-mlir; expected replicate, devices or identity}}
    %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<maximal>}> : (tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
}

// -----

module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x4>]>} {
  func.func @mesh_shard_shape_rank(%arg0: tensor<64x64xf32>) -> tensor<64x16xf32> {
    // expected-error @+1 {{shard_shape has 1 entries, expected one per tensor dim (2)}}
    %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<64x64xf32>) -> tensor<64x16xf32>
    return %0 : tensor<64x16xf32>
  }
}
