// Softmax, reductions and batched matmuls on a ragged row (or column) count run on the most cores,
// at most the layout grid's, that split that dim's elements evenly, as the elementwise ops do
// (convert_ttir_to_ttmetal_kernel.even_grid; one core when none from 2 up does): a block selector
// splits a dim into equal blocks only. 784 columns are 25 tiles over 5 cores (blocks of 160, the
// last 144); 784 = 2^4 x 7^2, whose divisors up to 5 are 1, 2, 4: a sum over dim 0 of 100x784
// runs on 1x4 cores of 196 columns, not 1x5. 100 rows split over the 8
// devices of a 2x4 mesh are 13 a device (the last 9, padded): 3x13 = 39 folded rows, 2 tiles over
// 2 cores, not 2 equal blocks (39 = 3 x 13 has no divisor 2), so the softmax and the mean over the last dim run on 1x1 cores,
// not 2x1; the batched matmul has one batch element a core (3 over 1). Before, the reductions and
// the softmax were located errors ("buffer cols (784) do not split into 5 blocks for selector
// 'x'", "buffer rows (39) do not split into 2 blocks for selector 'y'"). Each core's reads of
// pages it does not hold cross the NOC, counted by the simulator as any other read
// (meshc/layout/kernel_traffic.py; bytes by hand in test/unit/test_ttmetal_ragged.py). Every
// result equals the golden run.
// RUN: meshc-opt %s --split-input-file -p 'ttir-to-ttmetal-pipeline' -o %t.mlir
// RUN: filecheck %s < %t.mlir
// RUN: meshc-run %t.mlir --split-input-file --check | filecheck %s --check-prefix=RUN1
// RUN1: check: result0: 0 of 784 elements differ (0 outside the rule), max abs error 0,
// RUN1: check: result0: 0 of 19200 elements differ (0 outside the rule), max abs error 0,
// RUN1: check: result0: 0 of 300 elements differ (0 outside the rule), max abs error 0,
// RUN1: check: result0: 0 of 14400 elements differ (0 outside the rule),

// CHECK-LABEL: func.func @sum_cols
// CHECK: "ttmetal.read_tiles"(%{{.*}}) {select = ["all", "x"]} : (!ttmetal.buffer<100x784xf32>) -> tensor<100x196xf32>
// CHECK-NEXT: "ttmetal.tile_reduce"(%{{.*}}) {op = "sum", dim = 0 : i64} : (tensor<100x196xf32>) -> tensor<1x196xf32>
// CHECK-NEXT: "ttmetal.write_tiles"(%{{.*}}, %{{.*}}) {select = ["all", "x"]} : (tensor<1x196xf32>, !ttmetal.buffer<1x784xf32>) -> ()
// CHECK: grid = array<i64: 1, 4>
func.func @sum_cols(%x: tensor<100x784xf32>) -> tensor<1x784xf32> {
  %0 = "ttir.sum"(%x) {dim_arg = [0 : i32], keep_dim = true} : (tensor<100x784xf32>) -> tensor<1x784xf32>
  return %0 : tensor<1x784xf32>
}

// -----

// CHECK-LABEL: func.func @softmax_rows
// CHECK: "ttmetal.read_tiles"(%{{.*}}) {select = ["y", "all"]} : (!ttmetal.buffer<3x13x64xf32>) -> tensor<39x64xf32>
// CHECK: "ttmetal.tile_binary"(%{{.*}}, %{{.*}}) {op = "div"} : (tensor<39x64xf32>, tensor<39x1xf32>) -> tensor<39x64xf32>
// CHECK-NEXT: "ttmetal.write_tiles"(%{{.*}}, %{{.*}}) {select = ["y", "all"]} : (tensor<39x64xf32>, !ttmetal.buffer<3x13x64xf32>) -> ()
// CHECK: grid = array<i64: 1, 1>
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @softmax_rows(%x: tensor<3x100x64xf32> {tt.sharding = #tt.sharding<[R, S01, R]>}) -> tensor<3x100x64xf32> {
    %0 = "ttir.softmax"(%x) {dimension = 2 : si32} : (tensor<3x100x64xf32>) -> tensor<3x100x64xf32>
    return %0 : tensor<3x100x64xf32>
  }
}

// -----

// CHECK-LABEL: func.func @mean_rows
// CHECK: "ttmetal.read_tiles"(%{{.*}}) {select = ["y", "all"]} : (!ttmetal.buffer<3x13x64xf32>) -> tensor<39x64xf32>
// CHECK-NEXT: "ttmetal.tile_reduce"(%{{.*}}) {op = "mean", dim = 1 : i64} : (tensor<39x64xf32>) -> tensor<39x1xf32>
// CHECK-NEXT: "ttmetal.write_tiles"(%{{.*}}, %{{.*}}) {select = ["y", "all"]} : (tensor<39x1xf32>, !ttmetal.buffer<3x13x1xf32>) -> ()
// CHECK: grid = array<i64: 1, 1>
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @mean_rows(%x: tensor<3x100x64xf32> {tt.sharding = #tt.sharding<[R, S01, R]>}) -> tensor<3x100x1xf32> {
    %0 = "ttir.mean"(%x) {dim_arg = [2 : i32], keep_dim = true} : (tensor<3x100x64xf32>) -> tensor<3x100x1xf32>
    return %0 : tensor<3x100x1xf32>
  }
}

// -----

// CHECK-LABEL: func.func @bmm_rows
// CHECK: "ttmetal.tile_matmul"(%{{.*}}, %{{.*}}) {batch = 3 : i64} : (tensor<39x64xf32>, tensor<192x48xf32>) -> tensor<39x48xf32>
// CHECK-NEXT: "ttmetal.write_tiles"(%{{.*}}, %{{.*}}) {select = ["y", "all"]} : (tensor<39x48xf32>, !ttmetal.buffer<3x13x48xf32>) -> ()
// CHECK: grid = array<i64: 1, 1>
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @bmm_rows(%a: tensor<3x100x64xf32> {tt.sharding = #tt.sharding<[R, S01, R]>}, %b: tensor<3x64x48xf32>) -> tensor<3x100x48xf32> {
    %0 = "ttir.matmul"(%a, %b) : (tensor<3x100x64xf32>, tensor<3x64x48xf32>) -> tensor<3x100x48xf32>
    return %0 : tensor<3x100x48xf32>
  }
}
