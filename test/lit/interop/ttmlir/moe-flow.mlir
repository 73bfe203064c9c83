// tt-mlir's MoE flow on a 1x2 mesh, spelled as tt-mlir writes it: all_to_all_dispatch sends each
// token to the device holding one of its experts, moe_expert_token_remap gives each device its
// local experts' weights and the sparsity, sparse_matmul runs the local experts on the tokens the
// sparsity marks, all_to_all_combine brings each choice's output back to the token's device.
// 4 tokens of H = 4 (2 a device), E = 4 experts (0, 1 on device 0; 2, 3 on device 1), top-2.
// Token t chose experts ids[t] = (0,1), (0,2), (3,1), (2,3).
// The values are checked against a numpy derivation written here: combined row k of token t is
// x[t] @ w[ids[t, k]]; device d's remapped weights are topk[..., 2d : 2d + 2]; device d's dispatched
// row t is token t if one of its experts is on d (ids // 2 == d), zeros otherwise.
// Ethernet by hand (f32 tokens of 16 B, si32 ids): the dispatch sends token 1 (expert 2) to
// device 1 and token 2 (expert 1) to device 0, and each device's 2 x 2 ids to the other:
// 2 x (16 + 16) = 64 B; the combine brings back token 1's expert-2 row (1 -> 0) and token 2's
// expert-1 row (0 -> 1): 2 x 16 = 32 B; 48 B each way on the n300's link.
// RUN: python -c "import numpy as np; x = (np.arange(16, dtype=np.float32) + 1).reshape(4, 1, 1, 4); ids = np.array([[0, 1], [0, 2], [3, 1], [2, 3]], dtype=np.int32).reshape(4, 1, 1, 2); mp = np.zeros((1, 1, 4, 2), np.int32); mp[0, 0, [0, 1], 0] = 1; mp[0, 0, [2, 3], 1] = 1; tk = np.zeros((1, 4, 1, 4), np.float32); tk[0, np.arange(4), 0, ids[:, 0, 0, 0]] = 0.75; tk[0, np.arange(4), 0, ids[:, 0, 0, 1]] = 0.25; w = (np.arange(64, dtype=np.float32) % 7 - 3).reshape(1, 4, 4, 4); np.savez('%t.in.npz', x=x, ids=ids, map=mp, topk=tk, w=w)"
// RUN: meshc-opt %s -p 'ttir-to-ttnn-pipeline' | filecheck %s --check-prefix=TTNN
// RUN: meshc-run %s --input %t.in.npz --check --report --save-outputs %t.out | filecheck %s
// RUN: python -c "import numpy as np; z = np.load('%t.in.npz'); x, ids, tk, w = z['x'][:, 0, 0], z['ids'][:, 0, 0], z['topk'], z['w'][0]; want = np.stack([np.stack([x[t] @ w[ids[t, k]] for t in range(4)]) for k in range(2)])[:, :, None]; np.testing.assert_allclose(np.load('%t.out/result0.npy'), want, rtol=1e-6); np.testing.assert_array_equal(np.load('%t.out/result1.npy'), np.stack([tk[..., 2 * d:2 * d + 2] for d in range(2)])); np.testing.assert_array_equal(np.load('%t.out/result2.npy'), np.stack([np.where((ids // 2 == d).any(axis=1)[:, None], x, 0)[None, :, None] for d in range(2)])); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// RUN: meshc-opt %s --emit=ttmlir | filecheck %s --check-prefix=EMIT
// RUN: meshc-opt %s --emit=ttmlir | meshc-opt | filecheck %s --check-prefix=BACK
// RUN: not meshc-run %s --input %t.in.npz --target ttmetal 2>&1 | filecheck %s --check-prefix=METAL
// TTNN: "ttnn.all_to_all_dispatch"
// TTNN: "ttnn.moe_expert_token_remap"
// TTNN: "ttnn.sparse_matmul"
// TTNN: "ttnn.all_to_all_combine"
// CHECK: moved: ethernet 96 B,
// CHECK: chip 0 -> chip 1 48 B, chip 1 -> chip 0 48 B
// CHECK: ttnn.all_to_all_dispatch {{.*}}│ 64 │
// CHECK: ttnn.all_to_all_combine {{.*}}│ 32 │
// CHECK-DAG: check: result0: 0 of 32 elements differ
// CHECK-DAG: check: result1: 0 of 16 elements differ
// CHECK-DAG: check: result2: 0 of 32 elements differ
// NUMPY: numpy agrees
// EMIT: "ttir.all_to_all_dispatch"(%{{.*}}) <{cluster_axis = 1 : i64, num_devices = 2 : i64}>
// EMIT: "ttir.sparse_matmul"(%{{.*}}) <{is_input_a_sparse = false, is_input_b_sparse = true}>
// EMIT: "ttir.all_to_all_combine"(%{{.*}}) <{cluster_axis = 1 : i64, num_devices = 2 : i64, num_experts_per_tok = 2 : i64, output_shard_dim = 1 : i64}>
// BACK: "ttir.all_to_all_combine"(%{{.*}}) {cluster_axis = 1 : i64, num_devices = 2 : i64, num_experts_per_tok = 2 : i64, output_shard_dim = 1 : i64}
// METAL: moe-flow.mlir:{{[0-9]+}}:5: error: 'ttir.all_to_all_dispatch' op convert-ttir-to-ttmetal cannot lower 'ttir.all_to_all_dispatch'
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @main(%x: tensor<4x1x1x4xf32>, %ids: tensor<4x1x1x2xsi32>, %map: tensor<1x1x4x2xsi32>, %topk: tensor<1x4x1x4xf32>, %w: tensor<1x4x4x4xf32>) -> (tensor<2x4x1x4xf32>, tensor<1x4x1x2xf32>, tensor<1x4x1x4xf32>) {
    %xs = "ttir.mesh_shard"(%x) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1, 1, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<4x1x1x4xf32>) -> tensor<2x1x1x4xf32>
    %is = "ttir.mesh_shard"(%ids) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1, 1, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<4x1x1x2xsi32>) -> tensor<2x1x1x2xsi32>
    %ms = "ttir.mesh_shard"(%map) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<1x1x4x2xsi32>) -> tensor<1x1x4x2xsi32>
    %ts = "ttir.mesh_shard"(%topk) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<1x4x1x4xf32>) -> tensor<1x4x1x4xf32>
    %ws = "ttir.mesh_shard"(%w) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2, 1, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<1x4x4x4xf32>) -> tensor<1x2x4x4xf32>
    %d, %md = "ttir.all_to_all_dispatch"(%xs, %is, %ms) <{cluster_axis = 1 : i64, num_devices = 2 : i64}> : (tensor<2x1x1x4xf32>, tensor<2x1x1x2xsi32>, tensor<1x1x4x2xsi32>) -> (tensor<1x4x1x4xf32>, tensor<1x4x1x2xsi32>)
    %lm, %red = "ttir.moe_expert_token_remap"(%ts, %ms, %md) <{reduction_size = 1 : i64}> : (tensor<1x4x1x4xf32>, tensor<1x1x4x2xsi32>, tensor<1x4x1x2xsi32>) -> (tensor<1x4x1x2xf32>, tensor<1x1x4x2xf32>)
    %mm = "ttir.sparse_matmul"(%d, %ws, %red) <{is_input_a_sparse = false, is_input_b_sparse = true}> : (tensor<1x4x1x4xf32>, tensor<1x2x4x4xf32>, tensor<1x1x4x2xf32>) -> tensor<1x4x1x2x1x4xf32>
    %r0 = "ttir.reshape"(%mm) {shape = [4 : i32, 2 : i32, 4 : i32]} : (tensor<1x4x1x2x1x4xf32>) -> tensor<4x2x4xf32>
    %r1 = "ttir.permute"(%r0) {permutation = array<i64: 1, 0, 2>} : (tensor<4x2x4xf32>) -> tensor<2x4x4xf32>
    %r2 = "ttir.reshape"(%r1) {shape = [2 : i32, 4 : i32, 1 : i32, 4 : i32]} : (tensor<2x4x4xf32>) -> tensor<2x4x1x4xf32>
    %c = "ttir.all_to_all_combine"(%r2, %md, %ms) <{cluster_axis = 1 : i64, num_devices = 2 : i64, num_experts_per_tok = 2 : i64, output_shard_dim = 1 : i64}> : (tensor<2x4x1x4xf32>, tensor<1x4x1x2xsi32>, tensor<1x1x4x2xsi32>) -> tensor<2x2x1x4xf32>
    %out = "ttir.mesh_shard"(%c) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2, 1, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<2x2x1x4xf32>) -> tensor<2x4x1x4xf32>
    return %out, %lm, %d : tensor<2x4x1x4xf32>, tensor<1x4x1x2xf32>, tensor<1x4x1x4xf32>
  }
}
