// tt-mlir's reduce_scatter tests declare results TTNN's reduce_scatter does not yield (its verifier
// does not read them): over the 2 devices of cluster_axis 1 of a 1x2 mesh, 1x1x8192x256 ->
// 1x1x8192x256 (reduce_scatter_positive.mlir, reduce_scatter_config_workaround.mlir); over the 4
// of an 8x4 mesh, 8192x512 -> 1024x128 (tg/perf/reduce_scatter.mlir's @reduce_scatter_2d_input).
// TTNN divides the scatter dim by the devices of the axis: 8192x128 a device (256 / 2 and
// 512 / 4 = 128). The result takes that shape with a warning (ttir-ttnn-result-shapes), then
// lowers and runs as the ttir program does; a reduce_scatter over the 1 device of axis 0
// (@reduce_scatter_positive_folding) changes nothing.
// RUN: meshc-opt %S/Inputs/reduce_scatter_positive.mlir --split-input-file -p 'ttir-to-ttnn-pipeline{mesh-shape=1,2}' -o %t.pos.mlir 2>&1 | filecheck %s --check-prefix=POS
// POS: reduce_scatter_positive.mlir:7:5: warning: 'ttir.reduce_scatter' op result shape 1x1x8192x256 is not the 1x1x8192x128 that TTNN's reduce_scatter over the 2 devices of cluster_axis 1 yields
// POS-NOT: warning
// RUN: filecheck %s --check-prefix=POSIR < %t.pos.mlir
// POSIR: "ttnn.reduce_scatter"({{.*}}) -> tensor<1x1x8192x128xf32,
// RUN: meshc-run %t.pos.mlir --split-input-file --check | filecheck %s --check-prefix=RAN
// RAN-COUNT-2: check: result0 matches the golden run
// RUN: meshc-opt %S/Inputs/reduce_scatter_config_workaround.mlir --split-input-file -p 'ttir-to-ttnn-pipeline{mesh-shape=1,2}' -o %t.wa.mlir 2>&1 | filecheck %s --check-prefix=WA
// WA: reduce_scatter_config_workaround.mlir:8:5: warning: 'ttir.reduce_scatter' op result shape 1x1x8192x256 is not the 1x1x8192x128
// WA: reduce_scatter_config_workaround.mlir:19:5: warning: 'ttir.reduce_scatter' op result shape 1x1x8192x256 is not the 1x1x8192x128
// RUN: meshc-opt %S/Inputs/reduce_scatter_tg.mlir -p 'ttir-to-ttnn-pipeline{mesh-shape=8,4}' -o %t.tg.mlir 2>&1 | filecheck %s --check-prefix=TG
// TG: reduce_scatter_tg.mlir:10:3: warning: 'ttir.reduce_scatter' op result shape 1024x128 is not the 8192x128 that TTNN's reduce_scatter over the 4 devices of cluster_axis 1 yields
// TG-NOT: warning
// RUN: filecheck %s --check-prefix=TGIR < %t.tg.mlir
// TGIR-LABEL: func.func @reduce_scatter_cluster1
// TGIR: "ttnn.reduce_scatter"({{.*}}) -> tensor<1x1x1024x32xf32,
// TGIR-LABEL: func.func @reduce_scatter_2d_input
// TGIR-SAME: -> tensor<8192x128xf32>
// TGIR: "ttnn.reduce_scatter"({{.*}}) -> tensor<8192x128xf32,
