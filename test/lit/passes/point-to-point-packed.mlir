// A point_to_point of more than 4,096 numbers is written packed (#ttir.transfers<ROWS, WIDTH,
// "TEXT">: the rows as differences from the row before, int64, zlib, base64), reads back to
// the same text, and both simulators run its moves. The slice + concat of select-sharded.mlir
// on a 16x32 mesh: 8 rows over 16 devices and 16 columns over 32 are uneven splits, so x's
// slice is gathered to every device by explicit moves; a row of a rank-3 tensor is
// step, src, dst and lo, hi for each of 3 dims: 3 + 2 * 3 = 9 numbers.
// RUN: meshc-opt %s -p 'ttir-to-ttnn-pipeline{mesh-shape=16,32}' -o %t.ttnn.mlir
// RUN: filecheck %s < %t.ttnn.mlir
// CHECK: "ttnn.point_to_point"(%{{.*}}) {source = #tt.sharding<[S0, R, S1], mesh = 16x32>, target = #tt.sharding<[R, R, R], mesh = 16x32>, transfers = #ttir.transfers<{{[0-9]+}}, 9, "{{[A-Za-z0-9+/=]+}}">
// CHECK-NOT: transfers = array<i64:
// RUN: meshc-opt %t.ttnn.mlir -o %t.again.mlir
// RUN: diff %t.ttnn.mlir %t.again.mlir
// RUN: meshc-run %t.ttnn.mlir --check | filecheck %s --check-prefix=RAN
// RUN: meshc-opt %s -p 'ttir-to-ttmetal-pipeline{mesh-shape=16,32}' -o %t.metal.mlir
// RUN: meshc-run %t.metal.mlir --check | filecheck %s --check-prefix=RAN
// RAN: check: result0 matches the golden run (exact)
func.func @main(%x: tensor<8x4x16xf32> {tt.sharding = #tt.sharding<[S0, R, S1]>}, %z: tensor<8x4x8xf32>)
    -> (tensor<8x3x24xf32> {tt.sharding = #tt.sharding<[S0, R, R]>}) {
  %y = "ttir.slice"(%x) {begins = [0 : i32, 1 : i32, 0 : i32], ends = [8 : i32, 4 : i32, 16 : i32], step = [1 : i32, 1 : i32, 1 : i32]} : (tensor<8x4x16xf32>) -> tensor<8x3x16xf32>
  %w = "ttir.slice"(%z) {begins = [0 : i32, 0 : i32, 0 : i32], ends = [8 : i32, 3 : i32, 8 : i32], step = [1 : i32, 1 : i32, 1 : i32]} : (tensor<8x4x8xf32>) -> tensor<8x3x8xf32>
  %c = "ttir.concat"(%y, %w) {dim = 2 : si32} : (tensor<8x3x16xf32>, tensor<8x3x8xf32>) -> tensor<8x3x24xf32>
  return %c : tensor<8x3x24xf32>
}
