
// Verify that trace works correctly with presharded args.

module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
    // Verify that the slots are allocated with valid local shape tensors.

    // The capture function receives the presharded host inputs, then the slots.

    func.func @main(%arg0: tensor<5x128x512xbf16> {ttcore.argument_type = #ttcore.argument_type<input>, ttcore.shard_status = #ttcore.shard_status<presharded>, ttcore.local_shape = #ttcore<local_shape local_shape = tensor<5x128x512xbf16>>} loc("p0.2"), %arg1: tensor<5x128x512xbf16> {ttcore.argument_type = #ttcore.argument_type<input>, ttcore.shard_status = #ttcore.shard_status<presharded>, ttcore.local_shape = #ttcore<local_shape local_shape = tensor<5x128x512xbf16>>} loc("p1.3")) -> (tensor<5x128x512xbf16> {ttcore.shard_status = #ttcore.shard_status<presharded>, ttcore.local_shape = #ttcore<local_shape local_shape = tensor<5x128x512xbf16>>}) {
        %0 = "ttir.add"(%arg1, %arg0) : (tensor<5x128x512xbf16>, tensor<5x128x512xbf16>) -> tensor<5x128x512xbf16>
        return %0 : tensor<5x128x512xbf16>
    }
}
