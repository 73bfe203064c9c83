// With no --entry, every public function is imported (tt-mlir makes each function of a module a
// program, the public ones its entries: tt-mlir's sdy_scatter has two and no @main); private
// functions are inlined where they are called and not imported. meshc-run runs @main, else the
// first, or the one --entry names: by hand, @twice(a) = 2 tanh(a) and @square(a) = tanh(a)^2.
// RUN: python -c "import numpy as np; np.save('%t.npy', np.random.default_rng(2).standard_normal((8, 8)).astype(np.float32))"
// RUN: meshc-import %s -o %t.mlir
// RUN: filecheck %s --check-prefix=IMPORT < %t.mlir
// IMPORT: func.func @twice(
// IMPORT: func.func @square(
// IMPORT-NOT: func.func @helper
// RUN: meshc-run %t.mlir --input arg0=%t.npy --save-outputs %t.twice
// RUN: meshc-run %t.mlir --entry square --input arg0=%t.npy --save-outputs %t.square --check | filecheck %s
// CHECK: matches the golden run
// RUN: python -c "import numpy as np; a = np.tanh(np.load('%t.npy')); np.testing.assert_allclose(np.load('%t.twice/result0.npy'), 2 * a, rtol=1e-6, atol=1e-6); np.testing.assert_allclose(np.load('%t.square/result0.npy'), a * a, rtol=1e-6, atol=1e-6); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// NUMPY: numpy agrees
// One named with --entry is the only one imported:
// RUN: meshc-import %s --entry square | filecheck %s --check-prefix=ONE
// ONE-NOT: @twice
// ONE: func.func @square(
// ONE-NOT: @twice
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8x8xf32>) -> tensor<8x8xf32>, sym_name = "helper", sym_visibility = "private"}> ({
  ^bb0(%a: tensor<8x8xf32>):
    %t = "stablehlo.tanh"(%a) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    "func.return"(%t) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x8xf32>) -> tensor<8x8xf32>, sym_name = "twice"}> ({
  ^bb0(%arg0: tensor<8x8xf32>):
    %t = "func.call"(%arg0) <{callee = @helper}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %s = "stablehlo.add"(%t, %t) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    "func.return"(%s) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x8xf32>) -> tensor<8x8xf32>, sym_name = "square"}> ({
  ^bb0(%arg0: tensor<8x8xf32>):
    %t = "func.call"(%arg0) <{callee = @helper}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %s = "stablehlo.multiply"(%t, %t) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    "func.return"(%s) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()
