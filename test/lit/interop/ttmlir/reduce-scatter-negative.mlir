// tt-mlir's TTNN reduce_scatter negative tests (Inputs/reduce_scatter_negative.mlir), refused in
// its own words: TTNN's reduce_scatter reduces by sum only (max and min too: tt-mlir's TTNN
// verifier refuses all but sum), and its scatter_dim must name a dim of the operand.
// RUN: not meshc-opt %S/Inputs/reduce_scatter_negative.mlir --split-input-file 2>&1 | filecheck %s
// CHECK: reduce_scatter_negative.mlir:7:5: error: 'ttnn.reduce_scatter' op Invalid reduction type for reduce scatter op. TTNN reduces across devices by sum only, got mean
// CHECK: reduce_scatter_negative.mlir:18:5: error: 'ttnn.reduce_scatter' op Invalid reduction type for reduce scatter op. TTNN reduces across devices by sum only, got std
// CHECK: reduce_scatter_negative.mlir:29:5: error: 'ttnn.reduce_scatter' op Invalid reduction type for reduce scatter op. TTNN reduces across devices by sum only, got var
// CHECK: reduce_scatter_negative.mlir:40:5: error: 'ttnn.reduce_scatter' op Invalid reduction type for reduce scatter op. TTNN reduces across devices by sum only, got max
// CHECK: reduce_scatter_negative.mlir:51:5: error: 'ttnn.reduce_scatter' op Invalid reduction type for reduce scatter op. TTNN reduces across devices by sum only, got min
// CHECK: reduce_scatter_negative.mlir:62:5: error: 'ttnn.reduce_scatter' op Invalid scatter dimension for reduce scatter op. Scatter dimension must be >= to input tensor rank or < -input tensor rank, got scatter_dim = 2
// CHECK: reduce_scatter_negative.mlir:73:5: error: 'ttnn.reduce_scatter' op Invalid scatter dimension for reduce scatter op. Scatter dimension must be >= to input tensor rank or < -input tensor rank, got scatter_dim = -3
