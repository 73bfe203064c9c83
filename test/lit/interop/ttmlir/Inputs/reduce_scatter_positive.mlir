// Unit tests for ttnn reduce_scatter op

// Verify lowering of ttir reduce_scatter to ttnn ops

module attributes {} {
  func.func @reduce_scatter_positive(%arg0: tensor<1x1x8192x256xf32>) -> tensor<1x1x8192x256xf32> {
    %0 = "ttir.reduce_scatter"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>, scatter_dim = 3 : si32}> : (tensor<1x1x8192x256xf32>) -> tensor<1x1x8192x256xf32>
    return %0 : tensor<1x1x8192x256xf32>
  }
}

// -----

// Verify op folding for single mesh device communication

module attributes {} {
  func.func @reduce_scatter_positive_folding(%arg0: tensor<1x1x8192x256xf32>) -> tensor<1x1x8192x256xf32> {
    %0 = "ttir.reduce_scatter"(%arg0) <{cluster_axis = 0 : ui32, reduce_type = #ttcore.reduce_type<sum>, scatter_dim = 3 : si32}> : (tensor<1x1x8192x256xf32>) -> tensor<1x1x8192x256xf32>
    return %0 : tensor<1x1x8192x256xf32>
  }
}
