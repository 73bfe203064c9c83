// RUN: meshc-opt %s -p ttir-to-ttnn-pipeline --mlir-timing 2>&1 >/dev/null | filecheck %s

// mlir-opt's execution time report on stderr: wall time and share of every step, the passes a
// pipeline runs indented under it, then the rest and the total.
// CHECK: ... Execution time report ...
// CHECK: Total Execution Time: {{[0-9]+\.[0-9]+}} seconds
// CHECK: ----Wall Time----  ----Name----
// CHECK: {{[0-9]+\.[0-9]+}} ({{ *[0-9.]+}}%)  Parser
// CHECK-NEXT: {{[0-9]+\.[0-9]+}} ({{ *[0-9.]+}}%)  Verifier
// CHECK-NEXT: {{[0-9]+\.[0-9]+}} ({{ *[0-9.]+}}%)  ttir-to-ttnn-pipeline
// CHECK-NEXT: {{[0-9]+\.[0-9]+}} ({{ *[0-9.]+}}%)    {{[a-z-]+}}
// CHECK: {{[0-9]+\.[0-9]+}} ({{ *[0-9.]+}}%)    ttir-partition
// CHECK: {{[0-9]+\.[0-9]+}} ({{ *[0-9.]+}}%)    convert-ttir-to-ttnn
// CHECK: {{[0-9]+\.[0-9]+}} ({{ *[0-9.]+}}%)  Output
// CHECK-NEXT: {{[0-9]+\.[0-9]+}} ({{ *[0-9.]+}}%)  Rest
// CHECK-NEXT: {{[0-9]+\.[0-9]+}} (100.0%)  Total

func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = "ttir.relu"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  func.return %0 : tensor<64x64xf32>
}
