// Unit tests for reduce_scatter compute config workaround

// Verify that reduce_scatter gets a high-precision compute config with
// fp32_dest_acc_en=true when no config is present.

module attributes {} {
  func.func @reduce_scatter_fp32_accum_config(%arg0: tensor<1x1x8192x256xf32>) -> tensor<1x1x8192x256xf32> {
    %0 = "ttir.reduce_scatter"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>, scatter_dim = 3 : si32}> : (tensor<1x1x8192x256xf32>) -> tensor<1x1x8192x256xf32>
    return %0 : tensor<1x1x8192x256xf32>
  }
}

// -----

// Verify that the workaround also applies to bf16 inputs.

module attributes {} {
  func.func @reduce_scatter_fp32_accum_config_bf16(%arg0: tensor<1x1x8192x256xbf16>) -> tensor<1x1x8192x256xbf16> {
    %0 = "ttir.reduce_scatter"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>, scatter_dim = 3 : si32}> : (tensor<1x1x8192x256xbf16>) -> tensor<1x1x8192x256xbf16>
    return %0 : tensor<1x1x8192x256xbf16>
  }
}
