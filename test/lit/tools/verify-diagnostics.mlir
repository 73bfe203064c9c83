// RUN: meshc-opt --split-input-file --verify-diagnostics %s
// RUN: not meshc-opt --split-input-file %s 2>&1 | filecheck %s

// An error is located at the line of the op that fails to verify.
func.func @f() -> i32 {
  // expected-error @+1 {{'func.return' op}}
  func.return
}
// CHECK: verify-diagnostics.mlir:7:3: error: 'func.return' op

// -----

// Parse errors are matched too.
// expected-error @+1 {{is not registered}}
%x = "test.unknown"(
// CHECK: verify-diagnostics.mlir:15:{{[0-9]+}}: error:
