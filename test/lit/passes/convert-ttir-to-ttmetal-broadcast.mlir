// An elementwise op (binary, comparison, where) whose operand broadcasts other than as a row, a
// column or a scalar of the folded result runs on one core, which reads that operand whole and
// broadcasts it (tile_broadcast) to the result block (before: "broadcasts a row, a column or a
// scalar only"). A 64x64 matrix added to each of 2 batch elements; the [1, 13, 1] row mask
// ttir-partition puts before a max over a dim split unevenly (100 rows over the 8 devices of a
// 2x4 mesh: 13 a device, the last 9 and 4 rows of padding set to -inf). Every result equals the
// golden run.
// RUN: meshc-opt %s --split-input-file -p 'ttir-to-ttmetal-pipeline' -o %t.mlir
// RUN: filecheck %s < %t.mlir
// RUN: meshc-run %t.mlir --split-input-file --check | filecheck %s --check-prefix=RUN1
// RUN1: check: result0: 0 of 8192 elements differ (0 outside the rule), max abs error 0,
// RUN1: check: result0 matches the golden run (exact)

// CHECK-LABEL: func.func @add_inner
// CHECK: "ttmetal.read_tiles"(%{{.*}}) {select = ["y", "x"]} : (!ttmetal.buffer<2x64x64xf32>) -> tensor<128x64xf32>
// CHECK-NEXT: "ttmetal.read_tiles"(%{{.*}}) {select = ["all", "all"]} : (!ttmetal.buffer<64x64xf32>) -> tensor<64x64xf32>
// CHECK-NEXT: "ttmetal.tile_broadcast"(%{{.*}}) {shape = array<i64: 1, 64, 64>, to = array<i64: 2, 64, 64>} : (tensor<64x64xf32>) -> tensor<128x64xf32>
// CHECK-NEXT: "ttmetal.tile_binary"(%{{.*}}, %{{.*}}) {op = "add"} : (tensor<128x64xf32>, tensor<128x64xf32>) -> tensor<128x64xf32>
// CHECK: grid = array<i64: 1, 1>
func.func @add_inner(%a: tensor<2x64x64xf32>, %b: tensor<64x64xf32>) -> tensor<2x64x64xf32> {
  %0 = "ttir.add"(%a, %b) : (tensor<2x64x64xf32>, tensor<64x64xf32>) -> tensor<2x64x64xf32>
  return %0 : tensor<2x64x64xf32>
}

// -----

// CHECK-LABEL: func.func @max_uneven
// CHECK: "ttmetal.read_tiles"(%{{.*}}) {select = ["all", "all"]} : (!ttmetal.buffer<1x13x1xf32>) -> tensor<13x1xf32>
// CHECK-NEXT: "ttmetal.tile_broadcast"(%{{.*}}) {shape = array<i64: 1, 13, 1>, to = array<i64: 3, 13, 64>} : (tensor<13x1xf32>) -> tensor<39x64xf32>
// CHECK: "ttmetal.tile_where"
// CHECK: grid = array<i64: 1, 1>
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @max_uneven(%x: tensor<3x100x64xf32> {tt.sharding = #tt.sharding<[R, S01, R]>}) -> tensor<3x64xf32> {
    %0 = "ttir.max"(%x) {dim_arg = [1 : i32], keep_dim = false} : (tensor<3x100x64xf32>) -> tensor<3x64xf32>
    return %0 : tensor<3x64xf32>
  }
}
