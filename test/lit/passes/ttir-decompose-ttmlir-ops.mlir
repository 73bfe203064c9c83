// ttir-decompose-ttmlir-ops: tt-mlir's linear and mesh_partition written with ops TTMetal has.
// RUN: meshc-opt %s -p 'tt-register-device{mesh-shape=2,4},ttir-decompose-ttmlir-ops' | filecheck %s
// A linear whose b is a vector: b one column, the matmul (fidelity carried), the column dropped,
// the bias [4] added to the [4] product (not broadcast against a [4, 1] column).
// CHECK-LABEL: func.func @main
// CHECK: %[[COL:.*]] = "ttir.reshape"(%b) : (tensor<8xf32>) -> tensor<8x1xf32>
// CHECK: %[[P:.*]] = "ttir.matmul"(%a, %[[COL]]) {math_fidelity = "LoFi"} : (tensor<4x8xf32>, tensor<8x1xf32>) -> tensor<4x1xf32>
// CHECK: %[[V:.*]] = "ttir.reshape"(%[[P]]) : (tensor<4x1xf32>) -> tensor<4xf32>
// CHECK: "ttir.add"(%[[V]], %bias) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// A bias that makes the result larger than the product: the product broadcast to the result first
// (a [4, 16] block is no row, column or scalar of [2, 4, 16]); the transposes carried.
// CHECK: %[[Q:.*]] = "ttir.matmul"(%a, %w) {transpose_b = true} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
// CHECK: %[[B:.*]] = "ttir.broadcast"(%[[Q]]) : (tensor<4x16xf32>) -> tensor<2x4x16xf32>
// CHECK: "ttir.add"(%[[B]], %big) : (tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
// mesh_partition with no cluster_axis on the 2x4 mesh: device (r, c) keeps piece 4r + c of dim 0,
// i.e. piece c of its piece r: an all_slice over axis 0, then over axis 1.
// CHECK: %[[R:.*]] = "ttir.all_slice"(%{{.*}}) {slice_dim = 0 : si32, cluster_axis = 0 : ui32} : (tensor<16x4xf32>) -> tensor<8x4xf32>
// CHECK: "ttir.all_slice"(%[[R]]) {slice_dim = 0 : si32, cluster_axis = 1 : ui32} : (tensor<8x4xf32>) -> tensor<2x4xf32>
// With a cluster_axis: one all_slice (device (r, c) keeps columns 2r, 2r + 1).
// CHECK: "ttir.all_slice"(%{{.*}}) {slice_dim = 1 : si32, cluster_axis = 0 : ui32} : (tensor<16x4xf32>) -> tensor<16x2xf32>
// A linear convert-ttir-to-ttmetal runs as one matmul program adding the bias in its kernel stays:
// 2-d with a row bias, both operands batched with a row bias.
// CHECK: "ttir.linear"(%a, %v, %row) : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
// CHECK: "ttir.linear"(%p, %q, %row) : (tensor<2x4x8xf32>, tensor<2x8x16xf32>, tensor<16xf32>) -> tensor<2x4x16xf32>
// CHECK-NOT: ttir.mesh_partition
//
// Both targets compute what numpy does (on TTMetal the two linears left are matmul programs adding
// the bias in the kernel); result2 and result3 are saved a piece a device, devices in
// row-major order: device k = 4r + c holds rows 2k, 2k + 1 of x, and columns 2r, 2r + 1.
// RUN: python -c "import numpy as np; r = np.random.default_rng(11); np.savez('%t.npz', a=r.standard_normal((4, 8)).astype(np.float32), b=r.standard_normal(8).astype(np.float32), bias=r.standard_normal(4).astype(np.float32), w=r.standard_normal((16, 8)).astype(np.float32), big=r.standard_normal((2, 4, 16)).astype(np.float32), x=np.arange(64, dtype=np.float32).reshape(16, 4), v=r.standard_normal((8, 16)).astype(np.float32), row=r.standard_normal(16).astype(np.float32), p=r.standard_normal((2, 4, 8)).astype(np.float32), q=r.standard_normal((2, 8, 16)).astype(np.float32))"
// RUN: meshc-opt %s -p 'ttir-to-ttmetal-pipeline{mesh-shape=2,4}' -o %t.metal.mlir
// RUN: meshc-run %t.metal.mlir --input %t.npz --check --report --save-outputs %t.metal | filecheck %s --check-prefix=GOLD
// RUN: meshc-opt %s -p 'ttir-to-ttnn-pipeline{mesh-shape=2,4}' -o %t.ttnn.mlir
// RUN: meshc-run %t.ttnn.mlir --input %t.npz --check --report --save-outputs %t.ttnn | filecheck %s --check-prefix=GOLD
// RUN: python -c "import numpy as np; z = np.load('%t.npz'); t = lambda x, y: np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-5); [(t(np.load(d + '/result0.npy'), z['a'] @ z['b'] + z['bias']), t(np.load(d + '/result1.npy'), z['a'] @ z['w'].T + z['big']), np.testing.assert_array_equal(np.load(d + '/result2.npy'), z['x'].reshape(8, 2, 4)), np.testing.assert_array_equal(np.load(d + '/result3.npy'), np.stack([z['x'][:, 2 * (k // 4):2 * (k // 4) + 2] for k in range(8)])), t(np.load(d + '/result4.npy'), z['a'] @ z['v'] + z['row']), t(np.load(d + '/result5.npy'), z['p'] @ z['q'] + z['row'])) for d in ('%t.metal', '%t.ttnn')]; print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// GOLD-COUNT-6: matches the golden run
// NUMPY: numpy agrees
func.func @main(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %bias: tensor<4xf32>, %w: tensor<16x8xf32>,
                %big: tensor<2x4x16xf32>, %x: tensor<16x4xf32>, %v: tensor<8x16xf32>, %row: tensor<16xf32>,
                %p: tensor<2x4x8xf32>, %q: tensor<2x8x16xf32>)
    -> (tensor<4xf32>, tensor<2x4x16xf32>, tensor<2x4xf32>, tensor<16x2xf32>, tensor<4x16xf32>, tensor<2x4x16xf32>) {
  %0 = "ttir.linear"(%a, %b, %bias) {math_fidelity = "LoFi"} : (tensor<4x8xf32>, tensor<8xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "ttir.linear"(%a, %w, %big) <{transpose_b = true}> : (tensor<4x8xf32>, tensor<16x8xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %r = "ttir.mesh_shard"(%x) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<16x4xf32>) -> tensor<16x4xf32>
  %2 = "ttir.mesh_partition"(%r) <{dim = 0 : si32}> : (tensor<16x4xf32>) -> tensor<2x4xf32>
  %3 = "ttir.mesh_partition"(%r) <{dim = 1 : si32, cluster_axis = 0 : ui32}> : (tensor<16x4xf32>) -> tensor<16x2xf32>
  %4 = "ttir.linear"(%a, %v, %row) : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %5 = "ttir.linear"(%p, %q, %row) : (tensor<2x4x8xf32>, tensor<2x8x16xf32>, tensor<16xf32>) -> tensor<2x4x16xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<2x4x16xf32>, tensor<2x4xf32>, tensor<16x2xf32>, tensor<4x16xf32>, tensor<2x4x16xf32>
}
