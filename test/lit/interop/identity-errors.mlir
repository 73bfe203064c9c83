// `#ttcore.shard_type<identity>` passes the tensor through unchanged: its result has the operand's shape.
// RUN: meshc-opt --verify-diagnostics %s

module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @identity_reshaped(%arg0: tensor<32x64xf32>) -> tensor<32x32xf32> {
    // expected-error @+1 {{an identity mesh_shard passes its operand through unchanged, but the result shape 32x32 is not the operand's 32x64}}
    %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<identity>}> : (tensor<32x64xf32>) -> tensor<32x32xf32>
    return %0 : tensor<32x32xf32>
  }
}
