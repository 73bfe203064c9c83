// RUN: meshc-opt %s -p ttir-to-ttnn-pipeline --mlir-print-ir-before=ttir-partition --mlir-print-ir-after=ttir-propagate-sharding,ttir-partition 2>&1 >/dev/null | filecheck %s
// RUN: meshc-opt %s -p ttir-to-ttnn-pipeline --mlir-print-ir-after=ttir-partition 2>/dev/null | filecheck %s --check-prefix=OUT
// RUN: not meshc-opt %s -p ttir-to-ttnn-pipeline --mlir-print-ir-after=ttir-partion 2>&1 | filecheck %s --check-prefix=BAD

// The IR before / after the named passes goes to stderr, passes nested in a pipeline included,
// in the order they run: after propagation every value carries the sharding chosen for it;
// before partitioning the program is still global (64x128), after it each device's piece (32x32).
// CHECK: // -----// IR Dump After ttir-propagate-sharding //----- //
// CHECK: "ttir.relu"(%{{.*}}) {tt.shardings = [#tt.sharding<[S0, S1], mesh = 2x4>]} : (tensor<64x128xf32>) -> tensor<64x128xf32>
// CHECK: // -----// IR Dump Before ttir-partition //----- //
// CHECK: (tensor<64x128xf32>) -> tensor<64x128xf32>
// CHECK: // -----// IR Dump After ttir-partition //----- //
// CHECK: "ttir.relu"(%{{.*}}) : (tensor<32x32xf32>) -> tensor<32x32xf32>
// CHECK-NOT: IR Dump

// OUT-NOT: IR Dump
// OUT: "ttnn.relu"

// BAD: meshc-opt: error: --mlir-print-ir-after: unknown pass 'ttir-partion'; did you mean 'ttir-partition'?

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @main(%x: tensor<64x128xf32> {tt.sharding = #tt.sharding<[S0, S1]>}) -> tensor<64x128xf32> {
    %0 = "ttir.relu"(%x) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    func.return %0 : tensor<64x128xf32>
  }
}
