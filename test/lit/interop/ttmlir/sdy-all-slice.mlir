// Shardy's sdy.all_slice (tt-mlir's Silicon/StableHLO/n300/sdy_all_slice.mlir) keeps the value and
// leaves it with its out_sharding: a 1x32 tensor replicated on the 1x2 mesh ("model"=1, "batch"=2)
// sliced along "batch" (mesh axis 1) on dim 1. By hand: each device keeps its own 32 / 2 = 16
// columns of the copy it holds, an all_slice on dim 1 over mesh axis 1 whose local result is 1x16.
// The function result has no sharding (left to propagation, `tt.unconstrained`): it leaves as its
// value lies, each device's 16 columns read by the host (aggregate_tensor over dim 1), no gather
// on the links.
// RUN: meshc-import --mesh-shape 1,2 %S/Inputs/sdy_all_slice.mlir -o %t.ttir.mlir
// RUN: filecheck %s --check-prefix=IMPORT < %t.ttir.mlir
// IMPORT: -> (tensor<1x32xbf16> {tt.unconstrained})
// IMPORT: "ttir.sharding_constraint"(%arg0) {sharding = #tt.sharding<[R, S1], mesh = 1x2>} : (tensor<1x32xbf16>) -> tensor<1x32xbf16>
// RUN: meshc-opt %t.ttir.mlir -p 'ttir-to-ttnn-pipeline{mesh-shape=1,2}' -o %t.ttnn.mlir
// RUN: filecheck %s --check-prefix=TTNN < %t.ttnn.mlir
// TTNN: "ttnn.all_slice"(%{{.*}}) {slice_dim = 1 : si32, cluster_axis = 1 : ui32} : (tensor<1x32xbf16, {{.*}}>) -> tensor<1x16xbf16,
// TTNN-NOT: all_gather
// TTNN: "ttnn.aggregate_tensor"(%{{.*}}) {shard_dims = array<i64: -1, 1>
// RUN: meshc-run %t.ttnn.mlir --check | filecheck %s
// CHECK: check: result0 matches the golden run (exact)
