// The verifiers of tt-mlir's mesh_partition, update_cache and fill_cache (TTIR and TTNN) refuse
// what tt-mlir's refuse (TTIROps.cpp, TTNNOps.cpp), in its words and order. tt-mlir has no
// negative test file for these ops; the inputs are written for meshc.
// RUN: meshc-opt --split-input-file --verify-diagnostics %s

func.func @partition_dim(%x: tensor<4x32xbf16>) -> tensor<4x32xbf16> {
  // expected-error @+1 {{Invalid tensor dimension for mesh partition op. Dimension must be >= to input tensor rank or < -input tensor rank, got dim = 2}}
  %0 = "ttir.mesh_partition"(%x) <{dim = 2 : si32}> : (tensor<4x32xbf16>) -> tensor<4x32xbf16>
  return %0 : tensor<4x32xbf16>
}

// -----

func.func @partition_negative_dim(%x: tensor<4x32xbf16>) -> tensor<4x32xbf16> {
  // expected-error @+1 {{got dim = -3}}
  %0 = "ttnn.mesh_partition"(%x) <{dim = -3 : si32}> : (tensor<4x32xbf16>) -> tensor<4x32xbf16>
  return %0 : tensor<4x32xbf16>
}

// -----

func.func @partition_axis(%x: tensor<4x32xbf16>) -> tensor<2x32xbf16> {
  // expected-error @+1 {{Cluster axis must be either None, 0 or 1, got 2}}
  %0 = "ttir.mesh_partition"(%x) <{dim = 0 : si32, cluster_axis = 2 : ui32}> : (tensor<4x32xbf16>) -> tensor<2x32xbf16>
  return %0 : tensor<2x32xbf16>
}

// -----

func.func @update_dtype(%c: tensor<1x8x16x64xbf16>, %x: tensor<1x8x1x64xf32>, %i: tensor<1xi32>) {
  // expected-error @+1 {{Cache and input tensors must have the same dtype. Got cache dtype = BFloat16, input dtype = Float32}}
  "ttir.update_cache"(%c, %x, %i) <{batch_offset = 0 : i32}> : (tensor<1x8x16x64xbf16>, tensor<1x8x1x64xf32>, tensor<1xi32>) -> ()
  return
}

// -----

func.func @update_cache_rank(%c: tensor<8x16x64xbf16>, %x: tensor<1x8x1x64xbf16>, %i: tensor<1xi32>) {
  // expected-error @+1 {{Cache tensor must be a 4D tensor}}
  "ttnn.update_cache"(%c, %x, %i) <{batch_offset = 0 : i32}> : (tensor<8x16x64xbf16>, tensor<1x8x1x64xbf16>, tensor<1xi32>) -> ()
  return
}

// -----

func.func @update_input_rank(%c: tensor<1x8x16x64xbf16>, %x: tensor<8x1x64xbf16>, %i: tensor<1xi32>) {
  // expected-error @+1 {{Input tensor must be a 4D tensor}}
  "ttir.update_cache"(%c, %x, %i) <{batch_offset = 0 : i32}> : (tensor<1x8x16x64xbf16>, tensor<8x1x64xbf16>, tensor<1xi32>) -> ()
  return
}

// -----

func.func @update_input_dim0(%c: tensor<1x8x16x64xbf16>, %x: tensor<2x8x1x64xbf16>, %i: tensor<1xi32>) {
  // expected-error @+1 {{Input tensor requires that dim 0 have size 1, got input dim 0 size = 2}}
  "ttir.update_cache"(%c, %x, %i) <{batch_offset = 0 : i32}> : (tensor<1x8x16x64xbf16>, tensor<2x8x1x64xbf16>, tensor<1xi32>) -> ()
  return
}

// -----

func.func @update_dims(%c: tensor<1x8x16x64xbf16>, %x: tensor<1x4x1x64xbf16>, %i: tensor<1xi32>) {
  // expected-error @+1 {{Cache tensor shape must match input tensor shape on dims 1 and 3. Got cache shape (1, 8, 16, 64), input shape ()1x4x1x64)}}
  "ttir.update_cache"(%c, %x, %i) <{batch_offset = 0 : i32}> : (tensor<1x8x16x64xbf16>, tensor<1x4x1x64xbf16>, tensor<1xi32>) -> ()
  return
}

// -----

func.func @fill_dtype(%c: tensor<1x8x16x64xf32>, %x: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{Cache and input tensors must have the same dtype. Got cache dtype = Float32, input dtype = BFloat16}}
  "ttir.fill_cache"(%c, %x) <{batch_offset = 0 : i32}> : (tensor<1x8x16x64xf32>, tensor<1x8x4x64xbf16>) -> ()
  return
}

// -----

func.func @fill_seq(%c: tensor<1x8x16x64xbf16>, %x: tensor<1x8x32x64xbf16>) {
  // expected-error @+1 {{Input tensor requires that dim 2 have a size which is less than or equal to the size of dim 2 of the cache tensor. Got cache dim 2 size = 16, input dim 2 size = 32}}
  "ttnn.fill_cache"(%c, %x) <{batch_offset = 0 : i32}> : (tensor<1x8x16x64xbf16>, tensor<1x8x32x64xbf16>) -> ()
  return
}

// -----

func.func @fill_dims(%c: tensor<1x8x16x64xbf16>, %x: tensor<1x8x4x32xbf16>) {
  // expected-error @+1 {{Cache tensor shape must match input tensor shape on dims 1 and 3. Got cache shape (1, 8, 16, 64), input shape (1, 8, 4, 32)}}
  "ttir.fill_cache"(%c, %x) <{batch_offset = 0 : i32}> : (tensor<1x8x16x64xbf16>, tensor<1x8x4x32xbf16>) -> ()
  return
}
