// stablehlo.scatter (x.at[ids].set(u) and .add(u), as tt-mlir's sdy_scatter and KV-cache tests
// write it), with i64 indices read as i32 (tt-mlir's element-type normalisation), on both
// backends, against numpy's StableHLO meaning written by hand below: each update lands at its
// index (skipped when out of range, as XLA does; the spec leaves it implementation-defined), a
// position written twice keeps the later update (implementation-defined too), `add` sums them.
//   @points: 6x8 operand, indices [5, 2] naming (row, col): (2, 3) twice, (6, 0) and (-1, 2) out
//            of range; @rows: 8x6 operand, row ids [5, 1, 5], each update a row's first 4 columns;
//   @rows_add: the same with an add body.
// RUN: python -c "import numpy as np; r = np.random.default_rng(4); f = lambda *s: r.standard_normal(s).astype(np.float32); np.savez('%t.points.npz', arg0=f(6, 8), arg1=np.array([[2, 3], [0, 7], [2, 3], [6, 0], [-1, 2]], np.int32), arg2=f(5)); np.savez('%t.rows.npz', arg0=f(8, 6), arg1=np.array([[5], [1], [5]], np.int32), arg2=f(3, 4))"
// RUN: meshc-import %s -o %t.mlir
// RUN: filecheck %s --check-prefix=IMPORT < %t.mlir
// IMPORT: func.func @points(%arg0: tensor<6x8xf32>, %arg1: tensor<5x2xi32>, %arg2: tensor<5xf32>)
// RUN: meshc-run %t.mlir --entry points --input %t.points.npz --check --save-outputs %t.p | filecheck %s
// RUN: meshc-run %t.mlir --entry points --input %t.points.npz --check --target ttmetal | filecheck %s
// RUN: meshc-run %t.mlir --entry rows --input %t.rows.npz --check --save-outputs %t.r | filecheck %s
// RUN: meshc-run %t.mlir --entry rows_add --input %t.rows.npz --check --save-outputs %t.a | filecheck %s
// CHECK: matches the golden run
// RUN: python -c "import numpy as np; p = np.load('%t.points.npz'); x = p['arg0'].copy(); [x.__setitem__(tuple(i), u) for i, u in zip(p['arg1'], p['arg2']) if 0 <= i[0] < 6 and 0 <= i[1] < 8]; np.testing.assert_array_equal(np.load('%t.p/result0.npy'), x); q = np.load('%t.rows.npz'); y = q['arg0'].copy(); z = q['arg0'].copy(); [y.__setitem__((i[0], slice(0, 4)), u) for i, u in zip(q['arg1'], q['arg2'])]; [z.__setitem__((i[0], slice(0, 4)), z[i[0], :4] + u) for i, u in zip(q['arg1'], q['arg2'])]; np.testing.assert_array_equal(np.load('%t.r/result0.npy'), y); np.testing.assert_allclose(np.load('%t.a/result0.npy'), z, rtol=1e-6); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// NUMPY: numpy agrees
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<6x8xf32>, tensor<5x2xi64>, tensor<5xf32>) -> tensor<6x8xf32>, sym_name = "points"}> ({
  ^bb0(%arg0: tensor<6x8xf32>, %arg1: tensor<5x2xi64>, %arg2: tensor<5xf32>):
    %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      "stablehlo.return"(%b) : (tensor<f32>) -> ()
    }) : (tensor<6x8xf32>, tensor<5x2xi64>, tensor<5xf32>) -> tensor<6x8xf32>
    "func.return"(%0) : (tensor<6x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x6xf32>, tensor<3x1xi64>, tensor<3x4xf32>) -> tensor<8x6xf32>, sym_name = "rows"}> ({
  ^bb0(%arg0: tensor<8x6xf32>, %arg1: tensor<3x1xi64>, %arg2: tensor<3x4xf32>):
    %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      "stablehlo.return"(%b) : (tensor<f32>) -> ()
    }) : (tensor<8x6xf32>, tensor<3x1xi64>, tensor<3x4xf32>) -> tensor<8x6xf32>
    "func.return"(%0) : (tensor<8x6xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x6xf32>, tensor<3x1xi64>, tensor<3x4xf32>) -> tensor<8x6xf32>, sym_name = "rows_add"}> ({
  ^bb0(%arg0: tensor<8x6xf32>, %arg1: tensor<3x1xi64>, %arg2: tensor<3x4xf32>):
    %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<8x6xf32>, tensor<3x1xi64>, tensor<3x4xf32>) -> tensor<8x6xf32>
    "func.return"(%0) : (tensor<8x6xf32>) -> ()
  }) : () -> ()
}) : () -> ()
