// ttir's max / min collectives reach TTNN, whose all_reduce and reduce_scatter sum only, as
// all_gather on a new leading dim and a max reduction over it (min: on the negated values,
// negated back); a reduce_scatter then keeps each device's piece with all_slice. Over one
// device the op is the identity and goes. Each lowered program computes what the ttir program
// does on numpy (the reference's max / min collectives).
// RUN: meshc-opt %s --split-input-file -p 'tt-register-device{mesh-shape=1,4},ttir-decompose-ccl-reductions' | filecheck %s
// RUN: meshc-run %s --split-input-file --pipeline 'ttir-to-ttnn-pipeline{mesh-shape=1,4}' --check | filecheck %s --check-prefix=SIM
// SIM-COUNT-5: check: result0 matches the golden run

// CHECK-LABEL: func.func @all_reduce_max
// CHECK: %[[R:.*]] = "ttir.reshape"(%[[X:.*]]) {shape = [1 : i32, 32 : i32, 64 : i32]} : (tensor<32x64xf32>) -> tensor<1x32x64xf32>
// CHECK: %[[G:.*]] = "ttir.all_gather"(%[[R]]) {all_gather_dim = 0 : si32, cluster_axis = 1 : ui32} : (tensor<1x32x64xf32>) -> tensor<4x32x64xf32>
// CHECK: "ttir.max"(%[[G]]) {dim_arg = [0 : i32], keep_dim = false} : (tensor<4x32x64xf32>) -> tensor<32x64xf32>
// CHECK-NOT: ttir.all_reduce
func.func @all_reduce_max(%arg0: tensor<32x256xf32>) -> tensor<32x256xf32> {
  %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x256xf32>) -> tensor<32x64xf32>
  %1 = "ttir.all_reduce"(%0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<max>}> : (tensor<32x64xf32>) -> tensor<32x64xf32>
  %2 = "ttir.mesh_shard"(%1) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x64xf32>) -> tensor<32x256xf32>
  return %2 : tensor<32x256xf32>
}

// -----

// CHECK-LABEL: func.func @all_reduce_min
// CHECK: %[[N:.*]] = "ttir.neg"
// CHECK: %[[R:.*]] = "ttir.reshape"(%[[N]])
// CHECK: %[[G:.*]] = "ttir.all_gather"(%[[R]])
// CHECK: %[[M:.*]] = "ttir.max"(%[[G]])
// CHECK: "ttir.neg"(%[[M]]) : (tensor<32x64xbf16>) -> tensor<32x64xbf16>
func.func @all_reduce_min(%arg0: tensor<32x256xbf16>) -> tensor<32x256xbf16> {
  %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x256xbf16>) -> tensor<32x64xbf16>
  %1 = "ttir.all_reduce"(%0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<min>}> : (tensor<32x64xbf16>) -> tensor<32x64xbf16>
  %2 = "ttir.mesh_shard"(%1) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x64xbf16>) -> tensor<32x256xbf16>
  return %2 : tensor<32x256xbf16>
}

// -----

// A max reduce_scatter over 4 devices: the max of the 4 gathered copies, then device k keeps
// columns 16k .. 16k + 15 of it.
// CHECK-LABEL: func.func @reduce_scatter_max
// CHECK: %[[M:.*]] = "ttir.max"
// CHECK: "ttir.all_slice"(%[[M]]) {slice_dim = 1 : si32, cluster_axis = 1 : ui32} : (tensor<32x64xf32>) -> tensor<32x16xf32>
// CHECK-NOT: ttir.reduce_scatter
func.func @reduce_scatter_max(%arg0: tensor<32x256xf32>) -> tensor<32x64xf32> {
  %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x256xf32>) -> tensor<32x64xf32>
  %1 = "ttir.reduce_scatter"(%0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<max>, scatter_dim = 1 : si32}> : (tensor<32x64xf32>) -> tensor<32x16xf32>
  %2 = "ttir.mesh_shard"(%1) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x16xf32>) -> tensor<32x64xf32>
  return %2 : tensor<32x64xf32>
}

// -----

// Over the 1 device of axis 0 a max all_reduce is the identity: removed.
// CHECK-LABEL: func.func @one_device
// CHECK-NOT: ttir.all_reduce
// CHECK-NOT: ttir.all_gather
func.func @one_device(%arg0: tensor<32x256xf32>) -> tensor<32x256xf32> {
  %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x256xf32>) -> tensor<32x64xf32>
  %1 = "ttir.all_reduce"(%0) <{cluster_axis = 0 : ui32, reduce_type = #ttcore.reduce_type<max>}> : (tensor<32x64xf32>) -> tensor<32x64xf32>
  %2 = "ttir.mesh_shard"(%1) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x64xf32>) -> tensor<32x256xf32>
  return %2 : tensor<32x256xf32>
}

// -----

// min on unsigned integers: negation would wrap (0 stays 0, the largest value after it), so
// the order is reversed with bitwise_not (~x = 2^32 - 1 - x) instead.
// CHECK-LABEL: func.func @all_reduce_min_unsigned
// CHECK: %[[N:.*]] = "ttir.bitwise_not"
// CHECK: %[[M:.*]] = "ttir.max"
// CHECK: "ttir.bitwise_not"(%[[M]]) : (tensor<32x64xui32>) -> tensor<32x64xui32>
func.func @all_reduce_min_unsigned(%arg0: tensor<32x256xui32>) -> tensor<32x256xui32> {
  %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x256xui32>) -> tensor<32x64xui32>
  %1 = "ttir.all_reduce"(%0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<min>}> : (tensor<32x64xui32>) -> tensor<32x64xui32>
  %2 = "ttir.mesh_shard"(%1) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x64xui32>) -> tensor<32x256xui32>
  return %2 : tensor<32x256xui32>
}
