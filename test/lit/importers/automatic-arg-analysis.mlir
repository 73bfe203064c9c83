// tt-mlir's automatic argument analysis (its StableHLO pipeline's `automatic-arg-analysis`, the
// AnalyzeMesh pass), for a module with no sharding annotation on a 1,N mesh: every argument of
// the largest argument rank (at least 4) whose dim 0 is not 1 is split along dim 0 over the
// second mesh axis ("batch"); the others are left to propagation; results of that rank leave
// from the same split. Here (tt-mlir's sdy_automatic_batch_parallel, smaller): %a and %c
// (rank 4, dim 0 = 4) are split, the rank-2 %b is not, and the program is batch parallel: no
// collective, each device computes its 2 of the 4 batches; the values match numpy's
// (a @ b + c) * c.
// RUN: python -c "import numpy as np; r = np.random.default_rng(11); np.savez('%t.npz', arg0=r.standard_normal((4, 1, 32, 16)).astype(np.float32), arg1=r.standard_normal((16, 64)).astype(np.float32), arg2=r.standard_normal((4, 1, 32, 64)).astype(np.float32))"
// RUN: meshc-import --mesh-shape 1,2 --automatic-arg-analysis %s -o %t.mlir
// RUN: filecheck %s --check-prefix=IMPORT < %t.mlir
// IMPORT: func.func @op_sequence(%arg0: tensor<4x1x32x16xf32> {tt.sharding = #tt.sharding<[S1, R, R, R], mesh = 1x2>}, %arg1: tensor<16x64xf32>, %arg2: tensor<4x1x32x64xf32> {tt.sharding = #tt.sharding<[S1, R, R, R], mesh = 1x2>}) -> (tensor<4x1x32x64xf32> {tt.sharding = #tt.sharding<[S1, R, R, R], mesh = 1x2>})
// RUN: meshc-opt %t.mlir -p 'ttir-to-ttnn-pipeline' | filecheck %s --check-prefix=TTNN
// TTNN-NOT: all_gather
// TTNN: "ttnn.aggregate_tensor"(%{{.*}}) {shard_dims = array<i64: -1, 0>
// RUN: meshc-run %t.mlir --input %t.npz --check --save-outputs %t.out | filecheck %s
// CHECK: matches the golden run
// RUN: python -c "import numpy as np; z = np.load('%t.npz'); o = np.load('%t.out/result0.npy'); np.testing.assert_allclose(o, (z['arg0'] @ z['arg1'] + z['arg2']) * z['arg2'], rtol=1e-5, atol=1e-5); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// NUMPY: numpy agrees
//
// An annotated module is not analysed (tt-mlir analyses only modules with no sharding annotation):
// RUN: meshc-import --mesh-shape 1,2 --automatic-arg-analysis %S/Inputs/automatic-annotated.mlir | filecheck %s --check-prefix=ANNOTATED
// ANNOTATED: %arg0: tensor<4x1x32x16xf32> {tt.sharding = #tt.sharding<[R, R, S1, R], mesh = 1x2>}, %arg1: tensor<16x64xf32>)
// A mesh other than 1,N is refused, as tt-mlir refuses it:
// RUN: not meshc-import --mesh-shape 2,2 --automatic-arg-analysis %s 2>&1 | filecheck %s --check-prefix=MESH
// MESH: error: 'builtin.module' op automatic argument analysis (tt-mlir's automatic-arg-analysis) takes a 2-d mesh shape whose first size is 1 (--mesh-shape 1,N); got 2x2
"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["model"=1, "batch"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{function_type = (tensor<4x1x32x16xf32>, tensor<16x64xf32>, tensor<4x1x32x64xf32>) -> tensor<4x1x32x64xf32>, sym_name = "op_sequence", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x1x32x16xf32>, %arg1: tensor<16x64xf32>, %arg2: tensor<4x1x32x64xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [0]>}> : (tensor<4x1x32x16xf32>, tensor<16x64xf32>) -> tensor<4x1x32x64xf32>
    %1 = "stablehlo.add"(%0, %arg2) : (tensor<4x1x32x64xf32>, tensor<4x1x32x64xf32>) -> tensor<4x1x32x64xf32>
    %2 = "stablehlo.multiply"(%1, %arg2) : (tensor<4x1x32x64xf32>, tensor<4x1x32x64xf32>) -> tensor<4x1x32x64xf32>
    "func.return"(%2) : (tensor<4x1x32x64xf32>) -> ()
  }) : () -> ()
}) : () -> ()
