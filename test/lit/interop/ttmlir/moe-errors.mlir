// ttir.sparse_matmul's verifier (and ttnn.all_to_all_combine's output_shard_dim) refuse what tt-mlir's refuse (TTIROps.cpp, TTNNOps.cpp),
// with its messages, in its order; tt-mlir has no negative test file for the op, so these inputs
// are written for meshc, shaped after tt-mlir's sparse_matmul workaround tests.
// RUN: meshc-opt --split-input-file --verify-diagnostics %s

func.func @nnz_zero(%a: tensor<1x4x32x256xf32>, %b: tensor<1x4x256x64xf32>, %s: tensor<1x4x1x4xf32>) -> tensor<1x4x1x4x32x64xf32> {
  // expected-error @+1 {{nnz must be greater than 0 when set}}
  %0 = "ttir.sparse_matmul"(%a, %b, %s) <{is_input_a_sparse = false, is_input_b_sparse = true, nnz = 0 : i64}> : (tensor<1x4x32x256xf32>, tensor<1x4x256x64xf32>, tensor<1x4x1x4xf32>) -> tensor<1x4x1x4x32x64xf32>
  return %0 : tensor<1x4x1x4x32x64xf32>
}

// -----

func.func @neither_sparse(%a: tensor<1x4x32x256xf32>, %b: tensor<1x4x256x64xf32>, %s: tensor<1x4x1x4xf32>) -> tensor<1x4x1x4x32x64xf32> {
  // expected-error @+1 {{At least one of is_input_a_sparse or is_input_b_sparse must be true}}
  %0 = "ttir.sparse_matmul"(%a, %b, %s) <{is_input_a_sparse = false, is_input_b_sparse = false}> : (tensor<1x4x32x256xf32>, tensor<1x4x256x64xf32>, tensor<1x4x1x4xf32>) -> tensor<1x4x1x4x32x64xf32>
  return %0 : tensor<1x4x1x4x32x64xf32>
}

// -----

func.func @inner_dim(%a: tensor<1x4x32x128xf32>, %b: tensor<1x4x256x64xf32>, %s: tensor<1x4x1x4xf32>) -> tensor<1x4x1x4x32x64xf32> {
  // expected-error @+1 {{Input A inner dimension must match Input B K dimension}}
  %0 = "ttir.sparse_matmul"(%a, %b, %s) : (tensor<1x4x32x128xf32>, tensor<1x4x256x64xf32>, tensor<1x4x1x4xf32>) -> tensor<1x4x1x4x32x64xf32>
  return %0 : tensor<1x4x1x4x32x64xf32>
}

// -----

func.func @experts(%a: tensor<1x4x32x256xf32>, %b: tensor<1x4x256x64xf32>, %s: tensor<1x4x1x2xf32>) -> tensor<1x4x1x4x32x64xf32> {
  // expected-error @+1 {{Sparsity tensor last dimension must match number of experts in Input B}}
  %0 = "ttnn.sparse_matmul"(%a, %b, %s) : (tensor<1x4x32x256xf32>, tensor<1x4x256x64xf32>, tensor<1x4x1x2xf32>) -> tensor<1x4x1x4x32x64xf32>
  return %0 : tensor<1x4x1x4x32x64xf32>
}

// -----

func.func @dense_sparse_rank(%a: tensor<1x4x32x256xf32>, %b: tensor<1x4x256x64xf32>, %s: tensor<1x4x1x4xf32>) -> tensor<1x4x32x64xf32> {
  // expected-error @+1 {{Output must be 6D for dense-sparse mode}}
  %0 = "ttir.sparse_matmul"(%a, %b, %s) : (tensor<1x4x32x256xf32>, tensor<1x4x256x64xf32>, tensor<1x4x1x4xf32>) -> tensor<1x4x32x64xf32>
  return %0 : tensor<1x4x32x64xf32>
}

// -----

func.func @sparse_dense_shape(%a: tensor<2x4x32x256xf32>, %b: tensor<1x4x256x64xf32>, %s: tensor<1x1x2x4xf32>) -> tensor<2x4x32x32xf32> {
  // expected-error @+1 {{Output shape must be [A, E, M, N] for sparse-dense mode}}
  %0 = "ttir.sparse_matmul"(%a, %b, %s) <{is_input_a_sparse = true, is_input_b_sparse = false}> : (tensor<2x4x32x256xf32>, tensor<1x4x256x64xf32>, tensor<1x1x2x4xf32>) -> tensor<2x4x32x32xf32>
  return %0 : tensor<2x4x32x32xf32>
}

// -----

func.func @ttnn_combine_shard_dim(%input: tensor<4x2x128x64xf32>, %meta: tensor<1x2x128x4xsi32>, %mapping: tensor<1x1x32x8xsi32>) -> tensor<4x1x128x64xf32> {
  // ttir.all_to_all_combine takes output_shard_dim = 3 (TTIR's verifier does not check it); TTNN's refuses it
  // expected-error @+1 {{output_shard_dim must be 1 or 2, got 3}}
  %0 = "ttnn.all_to_all_combine"(%input, %meta, %mapping) <{cluster_axis = 0 : i64, num_devices = 2 : i64, num_experts_per_tok = 4 : i64, output_shard_dim = 3 : i64}> : (tensor<4x2x128x64xf32>, tensor<1x2x128x4xsi32>, tensor<1x1x32x8xsi32>) -> tensor<4x1x128x64xf32>
  return %0 : tensor<4x1x128x64xf32>
}
