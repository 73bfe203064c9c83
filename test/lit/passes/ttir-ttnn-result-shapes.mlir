// A result tt-mlir declares unlike what TTNN yields takes TTNN's shape, with a warning
// (ttir-ttnn-result-shapes): tt-mlir's verifiers of these ops do not read the declared result
// shape, and its conversion to TTNN reads a mesh_shard's shard_dims and the mesh, not shard_shape.
// The warnings are checked by --verify-diagnostics (an unexpected one, or one missing, fails it):
// RUN: meshc-opt %s --split-input-file --verify-diagnostics -p 'tt-register-device{mesh-shape=1,2},ttir-ttnn-result-shapes' -o %t.mlir
// RUN: filecheck %s --input-file %t.mlir
// The lowered programs compute what the ttir ones do on numpy (the reference keeps the ttir
// program, its results retyped the same way):
// RUN: meshc-run %s --split-input-file --pipeline 'ttir-to-ttnn-pipeline{mesh-shape=1,2}' --check 2>/dev/null | filecheck %s --check-prefix=SIM
// SIM-COUNT-4: check: result0 matches the golden run

// tt-mlir's reduce_scatter_positive.mlir, smaller: 2 devices on cluster_axis 1 split the
// 256 columns of scatter_dim 3 into two pieces of 128 (TTNN's reduce_scatter divides the scatter
// dim by the devices of the axis); the declared 1x1x64x256 becomes 1x1x64x128, and so does the
// func's result.
// CHECK-LABEL: func.func @rs_declared_as_input
// CHECK-SAME: -> tensor<1x1x64x128xf32>
// CHECK: "ttir.reduce_scatter"(%arg0) {{.*}} : (tensor<1x1x64x256xf32>) -> tensor<1x1x64x128xf32>
func.func @rs_declared_as_input(%arg0: tensor<1x1x64x256xf32>) -> tensor<1x1x64x256xf32> {
  // expected-warning @below {{'ttir.reduce_scatter' op result shape 1x1x64x256 is not the 1x1x64x128 that TTNN's reduce_scatter over the 2 devices of cluster_axis 1 yields; the result takes TTNN's shape}}
  %0 = "ttir.reduce_scatter"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>, scatter_dim = 3 : si32}> : (tensor<1x1x64x256xf32>) -> tensor<1x1x64x256xf32>
  return %0 : tensor<1x1x64x256xf32>
}

// -----

// tt-mlir's simple_add_1x2.mlir, smaller: shard_shape [2, 4] on a 1x2 mesh. TTNN splits by
// shard_dims [0, 1] on the mesh: dim 0 over 1 device, dim 1 over 2, pieces [1, 2], which the
// declared 64x64 result already is; shard_shape becomes [1, 2] on both mesh_shards.
// CHECK-LABEL: func.func @shard_shape_of_another_mesh
// CHECK: "ttir.mesh_shard"(%arg0) {{.*}}shard_shape = array<i64: 1, 2>{{.*}} : (tensor<64x128xf32>) -> tensor<64x64xf32>
// CHECK: "ttir.mesh_shard"(%{{.*}}) {{.*}}shard_shape = array<i64: 1, 2>{{.*}} : (tensor<64x64xf32>) -> tensor<64x128xf32>
func.func @shard_shape_of_another_mesh(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-warning @below {{'ttir.mesh_shard' op shard_shape [2, 4] is not the pieces [1, 2] shard_dims make; it becomes [1, 2]}}
  %1 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: 0, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<64x128xf32>) -> tensor<64x64xf32>
  // expected-warning @below {{'ttir.mesh_shard' op shard_shape [2, 4] is not the pieces [1, 2] shard_dims make; it becomes [1, 2]}}
  %7 = "ttir.mesh_shard"(%1) <{shard_dims = array<i64: 0, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<64x64xf32>) -> tensor<64x128xf32>
  return %7 : tensor<64x128xf32>
}

// -----

// tt-mlir's const_eval/ccl.mlir, smaller: shard_dims [-1, 1] split dim 1 over the 2 devices,
// 64x64 -> 64x32 (declared 64x8). The corrected value flows on: the shard_to_full joins two
// 64x32 pieces into the declared 64x64, so only the first op changes.
// CHECK-LABEL: func.func @declared_piece_too_small
// CHECK: "ttir.mesh_shard"(%arg0) {{.*}} : (tensor<64x64xbf16>) -> tensor<64x32xbf16>
func.func @declared_piece_too_small(%arg0: tensor<64x64xbf16>) -> tensor<64x64xbf16> {
  // expected-warning @below {{'ttir.mesh_shard' op result shape 64x8 is not the 64x32 that TTNN's distribute_tensor splits by shard_dims [-1, 1] on the mesh 1x2 into pieces [1, 2] yields; the result takes TTNN's shape}}
  %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<64x64xbf16>) -> tensor<64x8xbf16>
  %1 = "ttir.mesh_shard"(%0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<64x8xbf16>) -> tensor<64x64xbf16>
  return %1 : tensor<64x64xbf16>
}

// -----

// An all_gather over the 2 devices of axis 1 makes 32x64 of 32x32, whatever the declared
// 32x96 says; a shard_to_full of 32x64 pieces split by dim 1 on the mesh assembles 32x128.
// CHECK-LABEL: func.func @gather_then_join
// CHECK-SAME: -> tensor<32x128xf32>
func.func @gather_then_join(%arg0: tensor<32x32xf32>) -> tensor<32x64xf32> {
  // expected-warning @+2 {{'ttir.all_gather' op result shape 32x96 is not the 32x64 that TTNN's all_gather over the 2 devices of cluster_axis 1 yields; the result takes TTNN's shape}}
  // expected-warning @+2 {{'ttir.mesh_shard' op result shape 32x64 is not the 32x128 that TTNN's aggregate_tensor joins by shard_dims [-1, 1] on the mesh 1x2 into pieces [1, 2] yields; the result takes TTNN's shape}}
  %0 = "ttir.all_gather"(%arg0) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x32xf32>) -> tensor<32x96xf32>
  %1 = "ttir.mesh_shard"(%0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x96xf32>) -> tensor<32x64xf32>
  return %1 : tensor<32x64xf32>
}

