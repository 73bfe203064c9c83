// A matmul run batch by batch whose operands' batch dims differ (one broadcast along the batch:
// none, or some of size 1) or whose a is transposed with batch dims and b has none runs on one core,
// which reads the broadcast operand whole and repeats it along the batch (tile_broadcast) before
// tile_matmul {batch}. Before, both were located errors ("lowers a batched matmul whose operands
// have the same batch dims", "lowers a transposed a with batch dims only when b has the same batch
// dims"). 100 rows a matrix (a ragged row count: 4 tiles, the last partial). Every result matches
// the golden run.
// RUN: meshc-opt %s --split-input-file -p 'ttir-to-ttmetal-pipeline' -o %t.mlir
// RUN: filecheck %s < %t.mlir
// RUN: meshc-run %t.mlir --split-input-file --check | filecheck %s --check-prefix=RUN1
// RUN1: check: result0: 0 of 14400 elements differ (0 outside the rule), max abs error 0,
// RUN1: check: result0: 0 of 14400 elements differ (0 outside the rule), max abs error 0,
// RUN1: check: result0: 0 of 28800 elements differ (0 outside the rule), max abs error 0,

// CHECK-LABEL: func.func @a_2d
// CHECK: "ttmetal.read_tiles"(%{{.*}}) {select = ["all", "all"]} : (!ttmetal.buffer<100x64xf32>) -> tensor<100x64xf32>
// CHECK-NEXT: "ttmetal.tile_broadcast"(%{{.*}}) {shape = array<i64: 1, 100, 64>, to = array<i64: 3, 100, 64>} : (tensor<100x64xf32>) -> tensor<300x64xf32>
// CHECK-NEXT: "ttmetal.read_tiles"(%{{.*}}) {select = ["y", "all"]} : (!ttmetal.buffer<3x64x48xf32>) -> tensor<192x48xf32>
// CHECK-NEXT: "ttmetal.tile_matmul"(%{{.*}}, %{{.*}}) {batch = 3 : i64} : (tensor<300x64xf32>, tensor<192x48xf32>) -> tensor<300x48xf32>
// CHECK: grid = array<i64: 1, 1>
func.func @a_2d(%a: tensor<100x64xf32>, %b: tensor<3x64x48xf32>) -> tensor<3x100x48xf32> {
  %0 = "ttir.matmul"(%a, %b) : (tensor<100x64xf32>, tensor<3x64x48xf32>) -> tensor<3x100x48xf32>
  return %0 : tensor<3x100x48xf32>
}

// -----

// CHECK-LABEL: func.func @a_transposed
// CHECK: "ttmetal.tile_permute"(%{{.*}}) {shape = array<i64: 3, 64, 100>, permutation = array<i64: 0, 2, 1>} : (tensor<192x100xf32>) -> tensor<300x64xf32>
// CHECK-NEXT: "ttmetal.read_tiles"(%{{.*}}) {select = ["all", "all"]} : (!ttmetal.buffer<64x48xf32>) -> tensor<64x48xf32>
// CHECK-NEXT: "ttmetal.tile_broadcast"(%{{.*}}) {shape = array<i64: 1, 64, 48>, to = array<i64: 3, 64, 48>} : (tensor<64x48xf32>) -> tensor<192x48xf32>
// CHECK-NEXT: "ttmetal.tile_matmul"(%{{.*}}, %{{.*}}) {batch = 3 : i64} : (tensor<300x64xf32>, tensor<192x48xf32>) -> tensor<300x48xf32>
// CHECK: grid = array<i64: 1, 1>
func.func @a_transposed(%a: tensor<3x64x100xf32>, %b: tensor<64x48xf32>) -> tensor<3x100x48xf32> {
  %0 = "ttir.matmul"(%a, %b) {transpose_a = true} : (tensor<3x64x100xf32>, tensor<64x48xf32>) -> tensor<3x100x48xf32>
  return %0 : tensor<3x100x48xf32>
}

// -----

// CHECK-LABEL: func.func @both_broadcast
// CHECK: "ttmetal.tile_broadcast"(%{{.*}}) {shape = array<i64: 2, 1, 100, 64>, to = array<i64: 2, 3, 100, 64>} : (tensor<200x64xf32>) -> tensor<600x64xf32>
// CHECK: "ttmetal.tile_broadcast"(%{{.*}}) {shape = array<i64: 1, 3, 64, 48>, to = array<i64: 2, 3, 64, 48>} : (tensor<192x48xf32>) -> tensor<384x48xf32>
// CHECK-NEXT: "ttmetal.tile_matmul"(%{{.*}}, %{{.*}}) {batch = 6 : i64} : (tensor<600x64xf32>, tensor<384x48xf32>) -> tensor<600x48xf32>
// CHECK: grid = array<i64: 1, 1>
func.func @both_broadcast(%a: tensor<2x1x100x64xf32>, %b: tensor<1x3x64x48xf32>) -> tensor<2x3x100x48xf32> {
  %0 = "ttir.matmul"(%a, %b) : (tensor<2x1x100x64xf32>, tensor<1x3x64x48xf32>) -> tensor<2x3x100x48xf32>
  return %0 : tensor<2x3x100x48xf32>
}
