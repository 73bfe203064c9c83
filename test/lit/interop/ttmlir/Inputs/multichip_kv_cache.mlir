// SPDX-FileCopyrightText: (c) 2025 Tenstorrent AI ULC
//
// SPDX-License-Identifier: Apache-2.0


// Verify that KV cache arguments are correctly detected and kept on device
// during trace hoisting (not moved to host).

module {
    // In the capture function, the KV cache arg should remain on DRAM (device),
    // while the regular input should be on system_memory (host).
    // Constants are hoisted as the first arguments.
    //
    // The slot allocation function takes only the device-resident arguments -
    // the KV cache and the const-eval'd constant - as pass-through slots.



    // The capture function takes the host-staged inputs first, then every slot.





    func.func @main(
        %arg0: tensor<5x128x512xbf16> {ttcore.argument_type = #ttcore.argument_type<input>, ttcore.shard_status = #ttcore.shard_status<presharded>} loc("p0.2"),
        %cache: tensor<1x32x64x512xbf16> {ttcore.argument_type = #ttcore.argument_type<input>, ttcore.shard_status = #ttcore.shard_status<presharded>} loc("p1.3"),
        %update_input: tensor<1x32x1x512xbf16> {ttcore.argument_type = #ttcore.argument_type<input>, ttcore.shard_status = #ttcore.shard_status<unsharded>}
    ) -> (tensor<5x128x512xbf16> {ttcore.shard_status = #ttcore.shard_status<presharded>},
          tensor<1x32x64x512xbf16> {ttcore.shard_status = #ttcore.shard_status<presharded>}) {
        %idx = "ttir.constant"() <{value = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
        "ttir.update_cache"(%cache, %update_input, %idx) <{batch_offset = 0 : i32}> : (tensor<1x32x64x512xbf16>, tensor<1x32x1x512xbf16>, tensor<1xi32>) -> ()
        %1 = "ttir.add"(%arg0, %arg0) : (tensor<5x128x512xbf16>, tensor<5x128x512xbf16>) -> tensor<5x128x512xbf16>
        return %1, %cache : tensor<5x128x512xbf16>, tensor<1x32x64x512xbf16>
    }
}
