// Softmax over any dim on TTMetal (before: "lowers softmax over the last dim only"). Over dim 0 of
// a 2-d tensor each core takes its column block ([all, x]) and reduces along the block's rows:
// 64x128 on the layout's 1x4 column blocks of 32; 100x784 (784 columns ragged over 5 cores) on the
// most cores up to 5 that split 784 columns evenly: 4 blocks of 196 (784 = 2^4 x 7^2). Over any other dim d, core y takes its rows ([y, all]: its share of the elements of the
// dims before d with everything after), turns d last (tile_permute), takes the softmax along the
// cols and turns it back: 4x64x32 over dim 1 on 4x1 cores (one batch element a core), 3x100x64
// over dim -3 (0) on one core. Every result matches the golden run (a middle dim's sums in another
// order than numpy's: within the f32 rule).
// RUN: meshc-opt %s --split-input-file -p 'ttir-to-ttmetal-pipeline' -o %t.mlir
// RUN: filecheck %s < %t.mlir
// RUN: meshc-run %t.mlir --split-input-file --check | filecheck %s --check-prefix=RUN1
// RUN1: check: result0: 0 of 8192 elements differ (0 outside the rule), max abs error 0,
// RUN1: check: result0: 0 of 78400 elements differ (0 outside the rule), max abs error 0,
// RUN1: check: result0: {{[0-9]+}} of 8192 elements differ (0 outside the rule),
// RUN1: check: result0: 0 of 19200 elements differ (0 outside the rule), max abs error 0,

// CHECK-LABEL: func.func @softmax_cols
// CHECK: "ttmetal.read_tiles"(%{{.*}}) {select = ["all", "x"]} : (!ttmetal.buffer<64x128xf32>) -> tensor<64x32xf32>
// CHECK-NEXT: "ttmetal.tile_reduce"(%{{.*}}) {op = "max", dim = 0 : i64} : (tensor<64x32xf32>) -> tensor<1x32xf32>
// CHECK: "ttmetal.tile_reduce"(%{{.*}}) {op = "sum", dim = 0 : i64} : (tensor<64x32xf32>) -> tensor<1x32xf32>
// CHECK-NEXT: "ttmetal.tile_binary"(%{{.*}}, %{{.*}}) {op = "div"} : (tensor<64x32xf32>, tensor<1x32xf32>) -> tensor<64x32xf32>
// CHECK-NEXT: "ttmetal.write_tiles"(%{{.*}}, %{{.*}}) {select = ["all", "x"]} : (tensor<64x32xf32>, !ttmetal.buffer<64x128xf32>) -> ()
// CHECK: grid = array<i64: 1, 4>
func.func @softmax_cols(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = "ttir.softmax"(%x) {dimension = 0 : si32} : (tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// -----

// CHECK-LABEL: func.func @softmax_ragged_cols
// CHECK: "ttmetal.read_tiles"(%{{.*}}) {select = ["all", "x"]} : (!ttmetal.buffer<100x784xf32>) -> tensor<100x196xf32>
// CHECK: "ttmetal.write_tiles"(%{{.*}}, %{{.*}}) {select = ["all", "x"]} : (tensor<100x196xf32>, !ttmetal.buffer<100x784xf32>) -> ()
// CHECK: grid = array<i64: 1, 4>
func.func @softmax_ragged_cols(%x: tensor<100x784xf32>) -> tensor<100x784xf32> {
  %0 = "ttir.softmax"(%x) {dimension = 0 : si32} : (tensor<100x784xf32>) -> tensor<100x784xf32>
  return %0 : tensor<100x784xf32>
}

// -----

// CHECK-LABEL: func.func @softmax_middle
// CHECK: "ttmetal.read_tiles"(%{{.*}}) {select = ["y", "all"]} : (!ttmetal.buffer<4x64x32xf32>) -> tensor<64x32xf32>
// CHECK-NEXT: "ttmetal.tile_permute"(%{{.*}}) {shape = array<i64: 1, 64, 32>, permutation = array<i64: 0, 2, 1>} : (tensor<64x32xf32>) -> tensor<32x64xf32>
// CHECK-NEXT: "ttmetal.tile_reduce"(%{{.*}}) {op = "max", dim = 1 : i64} : (tensor<32x64xf32>) -> tensor<32x1xf32>
// CHECK: "ttmetal.tile_permute"(%{{.*}}) {shape = array<i64: 1, 32, 64>, permutation = array<i64: 0, 2, 1>} : (tensor<32x64xf32>) -> tensor<64x32xf32>
// CHECK-NEXT: "ttmetal.write_tiles"(%{{.*}}, %{{.*}}) {select = ["y", "all"]} : (tensor<64x32xf32>, !ttmetal.buffer<4x64x32xf32>) -> ()
// CHECK: grid = array<i64: 4, 1>
func.func @softmax_middle(%x: tensor<4x64x32xf32>) -> tensor<4x64x32xf32> {
  %0 = "ttir.softmax"(%x) {dimension = 1 : si32} : (tensor<4x64x32xf32>) -> tensor<4x64x32xf32>
  return %0 : tensor<4x64x32xf32>
}

// -----

// CHECK-LABEL: func.func @softmax_first
// CHECK: "ttmetal.tile_permute"(%{{.*}}) {shape = array<i64: 1, 3, 100, 64>, permutation = array<i64: 0, 2, 3, 1>} : (tensor<300x64xf32>) -> tensor<6400x3xf32>
// CHECK: "ttmetal.tile_permute"(%{{.*}}) {shape = array<i64: 1, 100, 64, 3>, permutation = array<i64: 0, 3, 1, 2>} : (tensor<6400x3xf32>) -> tensor<300x64xf32>
// CHECK: grid = array<i64: 1, 1>
func.func @softmax_first(%x: tensor<3x100x64xf32>) -> tensor<3x100x64xf32> {
  %0 = "ttir.softmax"(%x) {dimension = -3 : si32} : (tensor<3x100x64xf32>) -> tensor<3x100x64xf32>
  return %0 : tensor<3x100x64xf32>
}
