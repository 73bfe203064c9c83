// tt-mlir's #ttnn.ttnn_layout<MAP, <GRID>, memref<SHARD x ELEM, #BUFFER>, <LAYOUT>> is read as meshc's
// #ttnn.ttnn_layout<tile, data type, memory config>.
// RUN: meshc-opt %S/Inputs/all_gather_1d_workaround.mlir | filecheck %s
// CHECK: #ttnn_layout = #ttnn.ttnn_layout<tile<32x32>, bf16, #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>>
// CHECK: "ttnn.all_gather"(%arg0) {all_gather_dim = 0 : si32, cluster_axis = 1 : ui32} : (tensor<32xbf16, #ttnn_layout>) -> tensor<128xbf16, #ttnn_layout>
// RUN: not meshc-opt --split-input-file %s 2>&1 | filecheck %s --check-prefix=ERR

// ERR: ttnn-layout.mlir:[[# @LINE + 1]]:57: error: the ttnn_layout's map (d0, d1, d2) -> (d0, d1, d2) collapses the tensor onto 3 dims
func.func @f(%a: tensor<2x32x32xbf16, #ttnn.ttnn_layout<(d0, d1, d2) -> (d0, d1, d2), <1x1x1>, memref<1x1x1x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>) {
  return
}

// -----

// ERR: ttnn-layout.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: a ttnn_layout with a tensor mesh (`mesh = ...`) is not supported
func.func @g(%a: tensor<32x32xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, mesh = <"mesh" = 1x2>, memref<1x1x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>) {
  return
}

// -----

// ERR: ttnn-layout.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: a ttnn_layout with `core_ranges = ...` is not supported
func.func @h(%a: tensor<32x32xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (0,0)>]>>>) {
  return
}
