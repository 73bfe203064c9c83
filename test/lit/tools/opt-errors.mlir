// RUN: not meshc-opt %s 2>&1 | filecheck %s
// A syntax error is reported at its line and column with the source line, and no traceback.

func.func @f() {
  %0 = arith.constant 1 : i32 ) 
  func.return
}
// CHECK: opt-errors.mlir:5:{{[0-9]+}}: error:
// CHECK-NEXT: {{.*}}%0 = arith.constant 1 : i32 )
// CHECK-NOT: Traceback
