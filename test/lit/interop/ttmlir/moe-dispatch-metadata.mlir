// ttir.all_to_all_dispatch_metadata on a 1x2 mesh, as tt-mlir writes it: 2 tokens of H = 4 a device,
// top-2 ids and scores, expert_mapping [1, 1, D, E] whose rows give each expert's owning device
// (experts 0, 2 on device 1; 1, 3 on device 0). Device d gets the group's 4 tokens that chose one of
// its experts (zeros elsewhere) and everyone's ids and scores. Checked against numpy written here.
// Ethernet by hand: device 0's tokens (0, 2) and (1, 2) both reach device 1 (experts 0, 2), device
// 1's tokens (3, 1) and (0, 3) both reach device 0 (experts 1, 3): 4 tokens of 16 B; each device's
// 2 x 2 si32 ids and 2 x 2 f32 scores go to the other, 32 B each way: 64 + 64 = 128 B. The ttir
// mapping [1, 1, D, E] reaches TTNN as [D, E] through a ttnn.reshape, as tt-mlir lowers it.
// RUN: python -c "import numpy as np; x = (np.arange(16, dtype=np.float32) + 1).reshape(1, 1, 4, 4); ids = np.array([[0, 2], [1, 2], [3, 1], [0, 3]], np.int32).reshape(1, 1, 4, 2); sc = (np.arange(8, dtype=np.float32) / 8).reshape(1, 1, 4, 2); mp = np.tile(np.array([1, 0, 1, 0], np.int32), (2, 1)).reshape(1, 1, 2, 4); np.savez('%t.in.npz', x=x, ids=ids, sc=sc, map=mp)"
// RUN: meshc-opt %s -p ttir-to-ttnn-pipeline | filecheck %s --check-prefix=TTNN
// RUN: meshc-run %s --input %t.in.npz --check --report --save-outputs %t.out | filecheck %s
// RUN: python -c "import numpy as np; z = np.load('%t.in.npz'); x, ids, sc = z['x'].reshape(4, 4), z['ids'].reshape(4, 2), z['sc'].reshape(4, 2); owner = np.array([1, 0, 1, 0]); d0 = np.load('%t.out/result0.npy'); [np.testing.assert_array_equal(d0[d, 0], np.where((owner[ids] == d).any(axis=1)[:, None], x, 0)) for d in range(2)]; [np.testing.assert_array_equal(np.load('%t.out/result1.npy')[d, 0], ids) for d in range(2)]; [np.testing.assert_array_equal(np.load('%t.out/result2.npy')[d, 0], sc) for d in range(2)]; print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// TTNN: %[[M:.*]] = "ttnn.reshape"(%{{.*}}) : (tensor<1x1x2x4xsi32{{.*}}>) -> tensor<2x4xsi32
// TTNN: "ttnn.all_to_all_dispatch_metadata"(%{{.*}}, %{{.*}}, %{{.*}}, %[[M]])
// CHECK: moved: ethernet 128 B,
// CHECK: check: result0: 0 of 32 elements differ
// NUMPY: numpy agrees
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @main(%x: tensor<1x1x4x4xf32>, %ids: tensor<1x1x4x2xsi32>, %sc: tensor<1x1x4x2xf32>, %map: tensor<1x1x2x4xsi32>) -> (tensor<1x4x4xf32>, tensor<1x4x2xsi32>, tensor<1x4x2xf32>) {
    %xs = "ttir.mesh_shard"(%x) <{shard_dims = array<i64: -1, 2>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1, 2, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x4xf32>
    %is = "ttir.mesh_shard"(%ids) <{shard_dims = array<i64: -1, 2>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1, 2, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<1x1x4x2xsi32>) -> tensor<1x1x2x2xsi32>
    %ss = "ttir.mesh_shard"(%sc) <{shard_dims = array<i64: -1, 2>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1, 2, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<1x1x4x2xf32>) -> tensor<1x1x2x2xf32>
    %ms = "ttir.mesh_shard"(%map) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<1x1x2x4xsi32>) -> tensor<1x1x2x4xsi32>
    %d, %i, %s = "ttir.all_to_all_dispatch_metadata"(%xs, %is, %ss, %ms) <{cluster_axis = 1 : i64, num_devices = 2 : i64}> : (tensor<1x1x2x4xf32>, tensor<1x1x2x2xsi32>, tensor<1x1x2x2xf32>, tensor<1x1x2x4xsi32>) -> (tensor<1x4x4xf32>, tensor<1x4x2xsi32>, tensor<1x4x2xf32>)
    return %d, %i, %s : tensor<1x4x4xf32>, tensor<1x4x2xsi32>, tensor<1x4x2xf32>
  }
}
