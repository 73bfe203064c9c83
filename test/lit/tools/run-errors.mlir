// RUN: python -c "import numpy as np; np.save('%t.bad.npy', np.zeros((3, 3), np.float32))"
// RUN: not meshc-run %s --input x=%t.bad.npy 2>&1 | filecheck %s --check-prefix=SHAPE
// RUN: not meshc-run %s --input y=%t.bad.npy 2>&1 | filecheck %s --check-prefix=NAME
// RUN: not meshc-run %s --input x=%t.missing.npy 2>&1 | filecheck %s --check-prefix=FILE
// RUN: not meshc-run %s --input x 2>&1 | filecheck %s --check-prefix=SYNTAX
// RUN: not meshc-run %s --entry nope 2>&1 | filecheck %s --check-prefix=ENTRY
// RUN: not meshc-run %t.nothing.mlir 2>&1 | filecheck %s --check-prefix=READ
// RUN: not meshc-run %s --entry decl 2>&1 | filecheck %s --check-prefix=DECL

// Bad input to meshc-run is an error that says what is wrong, exit 1, never a traceback; an
// error about an input is located at the entry function, one about the entry at the module.
// SHAPE: run-errors.mlir:21:3: error: 'func.func' op input 'x' has shape 3x3, but @main takes tensor<4x8xf32>
// SHAPE-NOT: Traceback
// NAME: run-errors.mlir:21:3: error: 'func.func' op @main has no input named 'y'; its inputs are x
// FILE: meshc-run: error: cannot load input 'x' from '{{.*}}missing.npy'
// SYNTAX: meshc-run: error: --input 'x' must be NAME=FILE.npy
// ENTRY: run-errors.mlir:20:1: error: no function @nope in the module (functions: @main, @decl)
// READ: meshc-run: error: cannot read '{{.*}}nothing.mlir'
// DECL: run-errors.mlir:20:1: error: @decl is a declaration with no body: there is nothing to run
module {
  func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
    %a = "ttnn.to_device"(%x, %d) : (tensor<4x8xf32>, !ttnn.device) -> tensor<4x8xf32>
    %b = "ttnn.from_device"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    func.return %b : tensor<4x8xf32>
  }
  func.func private @decl(tensor<4x8xf32>) -> tensor<4x8xf32>
}
