// RUN: rm -f %t.mlir
// RUN: meshc-opt %s -o %t.mlir 2>&1 >/dev/null | filecheck %s --check-prefix=SAID -DOUT=%t.mlir
// RUN: meshc-opt %s -o %t.mlir 2>/dev/null | filecheck %s --allow-empty --check-prefix=NONE
// RUN: filecheck %s --input-file %t.mlir

// -o writes the module to the file and says so on stderr (stdout stays empty for pipelines).
// SAID: meshc-opt: wrote [[OUT]] (5 lines)
// CHECK: func.func @f
// NONE-NOT: {{.}}

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
}
