// A shard_map's shardings that tt-mlir's mesh_shard cannot state as one op (Shardy's meaning,
// checked against numpy by hand), on the 2x2 mesh ("x"=2, "y"=2; device (x, y) is id 2x + y):
//
// result0: in [{"y", "x"}, {}] splits the 8 rows y-major: device (x, y) holds row block 2y + x
//   (of 4 blocks of 2 rows); the body doubles it; out [{"x", "y"}, {}] reads device (x, y) as
//   block 2x + y. So result block 2x + y = 2 * input block 2y + x: blocks [0, 2, 1, 3] of 2 * a.
// result1: the FSDP pattern (tt-mlir's e2e_fsdp_tp_shardy): in [{"y", "x"}, {}], an all_gather
//   over x (groups [[0, 2], [1, 3]]) gives device (x, y) blocks 2y, 2y + 1 = rows 4y .. 4y + 3,
//   which out [{"y"}, {}] reads as row block y of 2: the input itself.
// result2: in [{}, {"x"}] gives device x columns 4x .. 4x + 3 of b (4x8), out [{}, {}] with
//   unreduced={"x"}: the devices hold partial sums, the value is their sum b[:, :4] + b[:, 4:].
//
// RUN: python -c "import numpy as np; r = np.random.default_rng(7); np.savez('%t.npz', arg0=r.standard_normal((8, 4)).astype(np.float32), arg1=r.standard_normal((4, 8)).astype(np.float32))"
// RUN: meshc-import %s -o %t.mlir
// RUN: filecheck %s --check-prefix=IMPORT < %t.mlir
// IMPORT: "ttir.mesh_shard"(%arg0) {{.*}}full_to_shard{{.*}}shard_shape = array<i64: 2, 1>, shard_dims = array<i64: -1, 0>} : (tensor<8x4xf32>) -> tensor<4x4xf32>
// IMPORT-NEXT: "ttir.all_slice"(%{{.*}}) {slice_dim = 0 : si32, cluster_axis = 0 : ui32} : (tensor<4x4xf32>) -> tensor<2x4xf32>
// IMPORT: "ttir.all_reduce"(%{{.*}}) {cluster_axis = 0 : ui32, reduce_type = #ttir.reduce_type<sum>}
// IMPORT-NEXT: "ttir.mesh_shard"{{.*}}shard_to_full
// RUN: meshc-run %t.mlir --input %t.npz --check --save-outputs %t.out | filecheck %s
// RUN: meshc-run %t.mlir --input %t.npz --check --target ttmetal | filecheck %s
// CHECK-COUNT-3: matches the golden run
// RUN: python -c "import numpy as np; z = np.load('%t.npz'); a, b = z['arg0'], z['arg1']; o = [np.load('%t.out/result%%d.npy' %% i) for i in range(3)]; np.testing.assert_array_equal(o[0], 2 * a.reshape(4, 2, 4)[[0, 2, 1, 3]].reshape(8, 4)); np.testing.assert_array_equal(o[1], a); np.testing.assert_allclose(o[2], b[:, :4] + b[:, 4:], rtol=1e-6); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// NUMPY: numpy agrees
"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{function_type = (tensor<8x4xf32>, tensor<4x8xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<4x4xf32>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<8x4xf32>, %arg1: tensor<4x8xf32>):
    %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"y", "x"}, {}]>]>, manual_axes = #sdy<manual_axes{"x", "y"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>}> ({
    ^bb0(%a: tensor<2x4xf32>):
      %d = "stablehlo.add"(%a, %a) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
      "sdy.return"(%d) : (tensor<2x4xf32>) -> ()
    }) : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %1 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"y", "x"}, {}]>]>, manual_axes = #sdy<manual_axes{"x", "y"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>}> ({
    ^bb0(%a: tensor<2x4xf32>):
      %g = "stablehlo.all_gather"(%a) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<2x4xf32>) -> tensor<4x4xf32>
      "sdy.return"(%g) : (tensor<4x4xf32>) -> ()
    }) : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %2 = "sdy.manual_computation"(%arg1) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>, manual_axes = #sdy<manual_axes{"x", "y"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>}> ({
    ^bb0(%b: tensor<4x4xf32>):
      "sdy.return"(%b) : (tensor<4x4xf32>) -> ()
    }) : (tensor<4x8xf32>) -> tensor<4x4xf32>
    "func.return"(%0, %1, %2) : (tensor<8x4xf32>, tensor<8x4xf32>, tensor<4x4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
