// Where tt-mlir's verifiers refuse a program, meshc's refuse it too (in meshc's words).
// RUN: meshc-opt --split-input-file --verify-diagnostics %s

module attributes {} {
  func.func @all_reduce_mean(%arg0: tensor<1x1x256x256xf32>) -> tensor<1x1x256x256xf32> {
    %0 = ttir.empty() : tensor<1x1x256x256xf32>
    // expected-error @+1 {{'ttir.all_reduce' op reduce_type mean is not a reduction all_reduce applies across devices (expected sum, max or min)}}
    %1 = "ttir.all_reduce"(%arg0, %0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<mean>}> : (tensor<1x1x256x256xf32>, tensor<1x1x256x256xf32>) -> tensor<1x1x256x256xf32>
    return %1 : tensor<1x1x256x256xf32>
  }
}

// -----

module attributes {} {
  func.func @reduce_scatter_var(%arg0: tensor<1x1x64x256xf32>) -> tensor<1x1x64x256xf32> {
    %0 = tensor.empty() : tensor<1x1x64x256xf32>
    // expected-error @+1 {{'ttir.reduce_scatter' op reduce_type var is not a reduction reduce_scatter applies across devices (expected sum, max or min)}}
    %1 = "ttir.reduce_scatter"(%arg0, %0) <{cluster_axis = 1 : ui32, reduce_type = #tt.reduce_type<var>, scatter_dim = 3 : si32}> : (tensor<1x1x64x256xf32>, tensor<1x1x64x256xf32>) -> tensor<1x1x64x256xf32>
    return %1 : tensor<1x1x64x256xf32>
  }
}

// -----

module attributes {} {
  func.func @all_gather_dim(%arg0: tensor<1x1x32x32xbf16>) -> tensor<1x1x32x128xbf16> {
    %0 = ttir.empty() : tensor<1x1x32x128xbf16>
    // expected-error @+1 {{all_gather_dim 4 is out of range for a tensor of rank 4}}
    %1 = "ttir.all_gather"(%arg0, %0) <{all_gather_dim = 4 : si32, cluster_axis = 1 : ui32}> : (tensor<1x1x32x32xbf16>, tensor<1x1x32x128xbf16>) -> tensor<1x1x32x128xbf16>
    return %1 : tensor<1x1x32x128xbf16>
  }
}
