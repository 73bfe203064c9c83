// ttir comparisons (1 / 0 in the result's element type) and ttir.where: parse, print, verify,
// and run on the simulator against the numpy golden run.
// RUN: meshc-opt --split-input-file %s | filecheck %s
// RUN: meshc-opt --split-input-file --verify-diagnostics %S/Inputs/comparison-errors.mlir
// RUN: meshc-run %s --seed 3 --check | filecheck %s --check-prefix=SIM

// CHECK: "ttir.gt"(%{{.*}}, %{{.*}}) : (tensor<32x64xf32>, tensor<1x64xf32>) -> tensor<32x64xf32>
// CHECK: "ttir.le"
// CHECK: "ttir.where"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
// SIM: check: result0 matches the golden run
func.func @main(%a: tensor<32x64xf32>, %b: tensor<1x64xf32>) -> tensor<32x64xf32> {
  %0 = "ttir.gt"(%a, %b) : (tensor<32x64xf32>, tensor<1x64xf32>) -> tensor<32x64xf32>
  %1 = "ttir.le"(%a, %a) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %2 = "ttir.multiply"(%a, %1) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %3 = "ttir.neg"(%a) : (tensor<32x64xf32>) -> tensor<32x64xf32>
  %4 = "ttir.where"(%0, %2, %3) : (tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  return %4 : tensor<32x64xf32>
}
