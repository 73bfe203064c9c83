// The same MoE layer in both spellings, checked against one numpy derivation: tt-mlir's ops here
// (dispatch, remap, sparse_matmul, combine, then the gate weights and a sum over the K choices) on
// a 1x2 mesh, and meshc's moe_dispatch / matmul / moe_combine (Inputs/moe_meshc_spelling.mlir, a
// global-view program on the same 1x2 mesh, capacity 4 so no choice is dropped: where the two meanings coincide, docs/moe.md).
// 4 tokens x of H = 4, experts ids[t], gates g[t]; want y[t] = sum_k g[t, k] * x[t] @ w[ids[t, k]].
// RUN: python -c "import numpy as np; x = (np.arange(16, dtype=np.float32) + 1).reshape(4, 4); ids = np.array([[0, 1], [0, 2], [3, 1], [2, 3]], np.int32); g = np.array([[0.75, 0.25], [0.5, 0.5], [0.625, 0.375], [0.875, 0.125]], np.float32); mp = np.zeros((1, 1, 4, 2), np.int32); mp[0, 0, [0, 1], 0] = 1; mp[0, 0, [2, 3], 1] = 1; tk = np.zeros((1, 4, 1, 4), np.float32); tk[0, np.arange(4), 0, ids[:, 0]] = g[:, 0]; tk[0, np.arange(4), 0, ids[:, 1]] = g[:, 1]; w = (np.arange(64, dtype=np.float32) %% 7 - 3).reshape(4, 4, 4); np.savez('%t.tt.npz', x=x.reshape(4, 1, 1, 4), ids=ids.reshape(4, 1, 1, 2), map=mp, topk=tk, w=w[None], gate=g.T.reshape(2, 4, 1, 1)); np.savez('%t.mc.npz', x=x[None], experts=ids[None], gate=g[None], w=w); np.save('%t.want.npy', np.stack([sum(g[t, k] * (x[t] @ w[ids[t, k]]) for k in range(2)) for t in range(4)]))"
// RUN: meshc-run %s --input %t.tt.npz --check --save-outputs %t.tt | filecheck %s
// RUN: meshc-run %S/../Inputs/moe_meshc_spelling.mlir --input %t.mc.npz --check --save-outputs %t.mc | filecheck %s
// RUN: python -c "import numpy as np; want = np.load('%t.want.npy'); np.testing.assert_allclose(np.load('%t.tt/result0.npy')[:, 0], want, rtol=1e-6); np.testing.assert_allclose(np.load('%t.mc/result0.npy')[0], want, rtol=1e-6); print('both spellings give the numpy layer')" | filecheck %s --check-prefix=NUMPY
// CHECK: check: result0: 0 of 16 elements differ
// NUMPY: both spellings give the numpy layer
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @main(%x: tensor<4x1x1x4xf32>, %ids: tensor<4x1x1x2xsi32>, %map: tensor<1x1x4x2xsi32>, %topk: tensor<1x4x1x4xf32>, %w: tensor<1x4x4x4xf32>, %gate: tensor<2x4x1x1xf32>) -> tensor<4x1x4xf32> {
    %xs = "ttir.mesh_shard"(%x) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1, 1, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<4x1x1x4xf32>) -> tensor<2x1x1x4xf32>
    %is = "ttir.mesh_shard"(%ids) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1, 1, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<4x1x1x2xsi32>) -> tensor<2x1x1x2xsi32>
    %ms = "ttir.mesh_shard"(%map) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<1x1x4x2xsi32>) -> tensor<1x1x4x2xsi32>
    %ts = "ttir.mesh_shard"(%topk) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<1x4x1x4xf32>) -> tensor<1x4x1x4xf32>
    %ws = "ttir.mesh_shard"(%w) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2, 1, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<1x4x4x4xf32>) -> tensor<1x2x4x4xf32>
    %gs = "ttir.mesh_shard"(%gate) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2, 1, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<2x4x1x1xf32>) -> tensor<2x2x1x1xf32>
    %d, %md = "ttir.all_to_all_dispatch"(%xs, %is, %ms) <{cluster_axis = 1 : i64, num_devices = 2 : i64}> : (tensor<2x1x1x4xf32>, tensor<2x1x1x2xsi32>, tensor<1x1x4x2xsi32>) -> (tensor<1x4x1x4xf32>, tensor<1x4x1x2xsi32>)
    %lm, %red = "ttir.moe_expert_token_remap"(%ts, %ms, %md) <{reduction_size = 1 : i64}> : (tensor<1x4x1x4xf32>, tensor<1x1x4x2xsi32>, tensor<1x4x1x2xsi32>) -> (tensor<1x4x1x2xf32>, tensor<1x1x4x2xf32>)
    %mm = "ttir.sparse_matmul"(%d, %ws, %red) <{is_input_a_sparse = false, is_input_b_sparse = true}> : (tensor<1x4x1x4xf32>, tensor<1x2x4x4xf32>, tensor<1x1x4x2xf32>) -> tensor<1x4x1x2x1x4xf32>
    %r0 = "ttir.reshape"(%mm) {shape = [4 : i32, 2 : i32, 4 : i32]} : (tensor<1x4x1x2x1x4xf32>) -> tensor<4x2x4xf32>
    %r1 = "ttir.permute"(%r0) {permutation = array<i64: 1, 0, 2>} : (tensor<4x2x4xf32>) -> tensor<2x4x4xf32>
    %r2 = "ttir.reshape"(%r1) {shape = [2 : i32, 4 : i32, 1 : i32, 4 : i32]} : (tensor<2x4x4xf32>) -> tensor<2x4x1x4xf32>
    %c = "ttir.all_to_all_combine"(%r2, %md, %ms) <{cluster_axis = 1 : i64, num_devices = 2 : i64, num_experts_per_tok = 2 : i64, output_shard_dim = 1 : i64}> : (tensor<2x4x1x4xf32>, tensor<1x4x1x2xsi32>, tensor<1x1x4x2xsi32>) -> tensor<2x2x1x4xf32>
    %wc = "ttir.multiply"(%c, %gs) : (tensor<2x2x1x4xf32>, tensor<2x2x1x1xf32>) -> tensor<2x2x1x4xf32>
    %y = "ttir.sum"(%wc) {dim_arg = [0 : i32]} : (tensor<2x2x1x4xf32>) -> tensor<2x1x4xf32>
    %out = "ttir.mesh_shard"(%y) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<2x1x4xf32>) -> tensor<4x1x4xf32>
    return %out : tensor<4x1x4xf32>
  }
}
