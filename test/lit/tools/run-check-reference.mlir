// RUN: meshc-opt %s -p ttir-to-ttnn-pipeline -o %t.ttnn.mlir
// RUN: filecheck %s --check-prefix=LOWERED < %t.ttnn.mlir
// RUN: meshc-run %t.ttnn.mlir --check | filecheck %s
// RUN: sed 's/ttnn.gelu/ttnn.relu/' %t.ttnn.mlir > %t.mutated.mlir
// RUN: not meshc-run %t.mutated.mlir --check 2>&1 | filecheck %s --check-prefix=MUTATED
// RUN: meshc-opt %t.ttnn.mlir --print-op-generic -o %t.generic.mlir
// RUN: meshc-run %t.generic.mlir --check | filecheck %s
// RUN: meshc-opt %s -p ttir-to-ttmetal-pipeline -o %t.metal.mlir
// RUN: meshc-run %t.metal.mlir --check | filecheck %s
// RUN: meshc-opt %s -p 'ttir-to-ttnn-pipeline{keep-reference=false}' -o %t.bare.mlir
// RUN: not meshc-run %t.bare.mlir --check 2>&1 | filecheck %s --check-prefix=BARE
// RUN: meshc-run %t.bare.mlir --golden %s --check | filecheck %s
// RUN: meshc-opt %t.ttnn.mlir -p ttnn-check-l1 | filecheck %s --check-prefix=KEPT

// Lowering keeps the ttir program as the lowered module's reference, a nested module marked
// `meshc.reference`, so `meshc-run --check` of the lowered file alone compares it with an
// independent numpy run of the source, not with itself.
// LOWERED: "ttnn.gelu"
// LOWERED: builtin.module attributes {{.*}}meshc.reference{{.*}} {
// LOWERED-NEXT: func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
// LOWERED-NEXT: %g = "ttir.gelu"(%x)

// CHECK: check: result0 matches the golden run (within the f32 tolerance)
// CHECK-NEXT: check: result0: {{[0-9]+}} of 4096 elements differ (0 outside the rule)

// gelu edited into relu in the lowered file: the reference still says gelu, so the check fails.
// gelu(x) < 0 = relu(x) for x < 0 and gelu(x) < x = relu(x) for x > 0: every nonzero input
// differs (the seeded normal inputs have no zero).
// MUTATED: check: MISMATCH at result0[0, 0]
// MUTATED-NEXT: check: result0: 4096 of 4096 elements differ (4096 outside the rule)

// Without a reference (keep-reference=false) there is nothing independent to compare with:
// --check refuses, located at the module, instead of comparing the program with itself.
// BARE: run-check-reference.mlir.tmp.bare.mlir:{{[0-9]+}}:1: error: 'builtin.module' op --check needs an independent reference, and this ttnn program carries none
// BARE-SAME: Give --golden FILE with the ttir program

// Passes run on a lowered file leave its reference as it is (the driver takes it out while
// they run).
// KEPT: "ttnn.gelu"
// KEPT: meshc.reference
// KEPT: "ttir.gelu"
func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %g = "ttir.gelu"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = "ttir.add"(%g, %x) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  func.return %s : tensor<64x64xf32>
}
