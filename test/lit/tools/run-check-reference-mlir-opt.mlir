// REQUIRES: mlir-opt
// RUN: meshc-opt %s -p ttir-to-ttnn-pipeline --print-op-generic | %mlir-opt --allow-unregistered-dialect --mlir-print-op-generic -o %t.back.mlir
// RUN: filecheck %s --check-prefix=BACK < %t.back.mlir
// RUN: meshc-run %t.back.mlir --check | filecheck %s
// RUN: sed 's/ttnn.gelu/ttnn.relu/' %t.back.mlir > %t.mutated.mlir
// RUN: not meshc-run %t.mutated.mlir --check 2>&1 | filecheck %s --check-prefix=MUTATED

// The reference a lowered module carries is plain MLIR: real mlir-opt reads it in generic form
// (a nested builtin.module with the discardable unit attribute meshc.reference) and writes it
// back, and the file it writes still checks against its reference, and still fails when edited.
// BACK: "ttnn.gelu"
// BACK: "ttir.gelu"
// BACK: }) {meshc.reference, tt.device = #tt.device<{{.*}}meshShape = 1x1{{.*}}} : () -> ()
// CHECK: check: result0 matches the golden run (within the f32 tolerance)
// MUTATED: check: MISMATCH at result0[0, 0]
func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %g = "ttir.gelu"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = "ttir.add"(%g, %x) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  func.return %s : tensor<64x64xf32>
}
