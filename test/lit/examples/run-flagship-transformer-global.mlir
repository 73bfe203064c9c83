// RUN: meshc-run %examples/flagship_transformer_global.mlir --check --report | filecheck %s
// RUN: meshc-opt %examples/flagship_transformer_global.mlir -p ttir-partition | filecheck %s --check-prefix=SPMD

// The flagship in global view lowers to the hand-written program's collectives: the heads and
// the MLP's hidden units are gathered along each row of chips, so the ethernet traffic is the
// hand-derived figure of run-flagship-transformer-t3k.mlir (all_gathers of 2,048 B and 4,096 B
// pieces along a line of 4: 6,144 / 12,288 / 18,432 B a link, 147,456 B in all).
// CHECK: chip 0 -> chip 1 │   6,144
// CHECK: chip 1 -> chip 0 │  18,432
// CHECK: chip 1 -> chip 2 │  12,288
// CHECK-NOT: chip 0 -> chip 4
// CHECK: total{{ *}}│ 147,456
// CHECK: check: result0 matches the golden run (within the f32 tolerance)

// SPMD: "ttir.reshard"(%{{.*}}) {source = #tt.sharding<[S0, S1], mesh = 2x4>, target = #tt.sharding<[S0, R], mesh = 2x4>} : (tensor<32x16xf32>) -> tensor<32x64xf32>
// SPMD: "ttir.reshard"(%{{.*}}) {source = #tt.sharding<[S0, S1], mesh = 2x4>, target = #tt.sharding<[S0, R], mesh = 2x4>} : (tensor<32x32xf32>) -> tensor<32x128xf32>
// SPMD-NOT: "ttir.reshard"
