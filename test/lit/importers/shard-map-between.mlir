// Ops between two shard_maps compute on whole tensors (tt-mlir's e2e_tp_shardy: a relu between
// manual computations): here %m = maximum(shard_map 1's result, w) is distributed again by
// shard_map 2, and negate(shard_map 2's result) is returned. Both lowerings compute such an op
// on every device, read one copy back to the host and distribute it (a host round trip), and
// return a whole tensor as one host tensor. By hand, on the 1x2 mesh: shard_map 1 doubles each
// device's 32 columns of a, shard_map 2 squares each device's columns, so
// result0 = -(maximum(2a, w))^2 and result1 = maximum(2a, w).
// RUN: python -c "import numpy as np; r = np.random.default_rng(3); np.savez('%t.npz', arg0=r.standard_normal((32, 64)).astype(np.float32), arg1=r.standard_normal((32, 64)).astype(np.float32))"
// RUN: meshc-import %s -o %t.mlir
// RUN: meshc-opt %t.mlir -p 'ttir-to-ttnn-pipeline' | filecheck %s --check-prefix=TTNN
// TTNN: %[[M:.*]] = "ttnn.maximum"
// TTNN: %[[H:.*]] = "ttnn.aggregate_tensor"(%[[M]]) {shard_dims = array<i64: -1, -1>
// TTNN-NEXT: "ttnn.distribute_tensor"(%[[H]], %{{.*}}) {shard_dims = array<i64: -1, 1>
// TTNN: %[[N:.*]] = "ttnn.neg"
// TTNN: "ttnn.aggregate_tensor"(%[[N]]) {shard_dims = array<i64: -1, -1>
// RUN: meshc-run %t.mlir --input %t.npz --check --save-outputs %t.out | filecheck %s
// RUN: meshc-run %t.mlir --input %t.npz --check --target ttmetal | filecheck %s
// CHECK-COUNT-2: matches the golden run
// RUN: python -c "import numpy as np; z = np.load('%t.npz'); m = np.maximum(2 * z['arg0'], z['arg1']); o = [np.load('%t.out/result%%d.npy' %% i) for i in range(2)]; np.testing.assert_array_equal(o[0], -(m * m)); np.testing.assert_array_equal(o[1], m); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// NUMPY: numpy agrees
"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=1, "y"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{function_type = (tensor<32x64xf32>, tensor<32x64xf32>) -> (tensor<32x64xf32>, tensor<32x64xf32>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<32x64xf32>, %arg1: tensor<32x64xf32>):
    %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>, manual_axes = #sdy<manual_axes{"x", "y"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>}> ({
    ^bb0(%a: tensor<32x32xf32>):
      %d = "stablehlo.add"(%a, %a) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
      "sdy.return"(%d) : (tensor<32x32xf32>) -> ()
    }) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %m = "stablehlo.maximum"(%0, %arg1) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %1 = "sdy.manual_computation"(%m) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>, manual_axes = #sdy<manual_axes{"x", "y"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>}> ({
    ^bb0(%a: tensor<32x32xf32>):
      %s = "stablehlo.multiply"(%a, %a) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
      "sdy.return"(%s) : (tensor<32x32xf32>) -> ()
    }) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %n = "stablehlo.negate"(%1) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    "func.return"(%n, %m) : (tensor<32x64xf32>, tensor<32x64xf32>) -> ()
  }) : () -> ()
}) : () -> ()
