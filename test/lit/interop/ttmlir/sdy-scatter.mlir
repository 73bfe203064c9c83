// tt-mlir's Shardy scatter tests, as written: sdy_scatter (two public functions, both imported,
// each a program as in tt-mlir; i64 indices read as i32) on its RUN line's 1x8 mesh, and
// sdy_fill_cache1x2 (a KV cache filled at 64 run-time positions, --automatic-arg-analysis as its
// RUN line asks, the operand split over "model") on 1x2. Each lowers with the ttnn pipeline and
// matches the numpy run of the imported program; importers/scatter.mlir checks the scatter
// forms against numpy by hand.
// RUN: meshc-import --mesh-shape 1,8 --automatic-arg-analysis %S/Inputs/sdy_scatter.mlir -o %t.scatter.mlir
// RUN: filecheck %s --check-prefix=IMPORT < %t.scatter.mlir
// IMPORT: func.func @scatter_test_replicate_input(%{{.*}}: tensor<71x4xbf16> {{.*}}, %{{.*}}: tensor<71x4x2xi32>
// IMPORT: func.func @scatter_test_shard_input(
// RUN: meshc-run %t.scatter.mlir --check | filecheck %s
// RUN: meshc-run %t.scatter.mlir --entry scatter_test_shard_input --check | filecheck %s
// RUN: meshc-import --mesh-shape 1,2 --automatic-arg-analysis %S/Inputs/sdy_fill_cache1x2.mlir -o %t.fill.mlir
// RUN: meshc-run %t.fill.mlir --check | filecheck %s
// CHECK: check: result0 matches the golden run
