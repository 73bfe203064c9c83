// Unit tests for all_gather 1D tensor reshape workaround

// Verify that 1D tensor all_gather is decomposed into reshape(2D) -> all_gather -> reshape(1D)

#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0) -> (d0, 0), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout_out = #ttnn.ttnn_layout<(d0) -> (d0, 0), <1x1>, memref<4x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module attributes {} {
  func.func @all_gather_1d_reshape_workaround(%arg0: tensor<32xbf16, #ttnn_layout>) -> tensor<128xbf16, #ttnn_layout_out> {
    %0 = "ttnn.all_gather"(%arg0) <{all_gather_dim = 0 : si32, cluster_axis = 1 : ui32}> : (tensor<32xbf16, #ttnn_layout>) -> tensor<128xbf16, #ttnn_layout_out>
    return %0 : tensor<128xbf16, #ttnn_layout_out>
  }
}
