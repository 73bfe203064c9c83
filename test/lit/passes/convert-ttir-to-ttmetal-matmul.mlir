// RUN: meshc-opt %s -p 'ttir-layout,convert-ttir-to-ttmetal' | filecheck %s

// A constant becomes a buffer filled by enqueue_write_constant; a batched a (2x64x32) times a
// 2-d b (32x64) folds the batch into the rows: a 128x32 by 32x64 matmul on the result's
// 4x2 grid (128x64 = 4x2 tiles), each core reading a 32-row block of a and a 32-column block of b.
// CHECK: %[[W:.*]] = "ttmetal.create_buffer"() {{.*}} -> !ttmetal.buffer<32x64xf32>
// CHECK-NEXT: "ttmetal.enqueue_write_constant"(%[[W]]) {value = dense<5.000000e-01> : tensor<32x64xf32>}
// CHECK: "ttmetal.read_tiles"(%{{.*}}) {select = ["y", "all"]} : (!ttmetal.buffer<2x64x32xf32>) -> tensor<32x32xf32>
// CHECK-NEXT: "ttmetal.read_tiles"(%{{.*}}) {select = ["all", "x"]} : (!ttmetal.buffer<32x64xf32>) -> tensor<32x32xf32>
// CHECK-NEXT: "ttmetal.tile_matmul"
// CHECK: }) {grid = array<i64: 4, 2>}
func.func @f(%a: tensor<2x64x32xf32>) -> tensor<2x64x64xf32> {
  %w = "ttir.constant"() {value = dense<0.5> : tensor<32x64xf32>} : () -> tensor<32x64xf32>
  %0 = "ttir.matmul"(%a, %w) : (tensor<2x64x32xf32>, tensor<32x64xf32>) -> tensor<2x64x64xf32>
  func.return %0 : tensor<2x64x64xf32>
}
