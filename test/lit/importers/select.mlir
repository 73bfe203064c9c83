// The StableHLO ops that select and join elements, as ttir (docs/importers.md's table):
// slice, concatenate, dynamic_slice and dynamic_update_slice at constant starts, and a gather
// of whole rows of a 2-d table (emb[ids]) or of one element a row (jnp.take_along_axis).
// RUN: meshc-import --split-input-file %s | filecheck %s

// slice [1:7:2, 3:8] of 8x8: begins 1, 3; ends 7, 8; steps 2, 1; 3x5.
// CHECK-LABEL: func.func @main
// CHECK: "ttir.slice"(%x) {begins = [1 : i32, 3 : i32], ends = [7 : i32, 8 : i32], step = [2 : i32, 1 : i32]} : (tensor<8x8xf32>) -> tensor<3x5xf32>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8x8xf32>) -> tensor<3x5xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<8x8xf32>):
    %0 = "stablehlo.slice"(%x) <{limit_indices = array<i64: 7, 8>, start_indices = array<i64: 1, 3>, strides = array<i64: 2, 1>}> : (tensor<8x8xf32>) -> tensor<3x5xf32>
    "func.return"(%0) : (tensor<3x5xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// concatenate along dim 1.
// CHECK-LABEL: func.func @main
// CHECK: "ttir.concat"(%a, %b) {dim = 1 : i32} : (tensor<8x8xf32>, tensor<8x4xf32>) -> tensor<8x12xf32>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8x8xf32>, tensor<8x4xf32>) -> tensor<8x12xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<8x8xf32>, %b: tensor<8x4xf32>):
    %0 = "stablehlo.concatenate"(%a, %b) <{dimension = 1 : i64}> : (tensor<8x8xf32>, tensor<8x4xf32>) -> tensor<8x12xf32>
    "func.return"(%0) : (tensor<8x12xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// dynamic_slice of 4x4 at (0, 6) of 8x8: StableHLO clamps the start 6 to 8 - 4 = 4.
// CHECK-LABEL: func.func @main
// CHECK: "ttir.slice"(%x) {begins = [0 : i32, 4 : i32], ends = [4 : i32, 8 : i32], step = [1 : i32, 1 : i32]} : (tensor<8x8xf32>) -> tensor<4x4xf32>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8x8xf32>) -> tensor<4x4xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<8x8xf32>):
    %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %c6 = "stablehlo.constant"() <{value = dense<6> : tensor<i32>}> : () -> tensor<i32>
    %0 = "stablehlo.dynamic_slice"(%x, %c0, %c6) <{slice_sizes = array<i64: 4, 4>}> : (tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x4xf32>
    "func.return"(%0) : (tensor<4x4xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// dynamic_update_slice of a 2x4 update at (3, 4) of 8x8: rows 0-2, then rows 3-4 (columns 0-3
// of x joined with the update), then rows 5-7, joined along dim 0.
// CHECK-LABEL: func.func @main
// CHECK: %[[TOP:.*]] = "ttir.slice"(%x) {begins = [0 : i32, 0 : i32], ends = [3 : i32, 8 : i32], {{.*}} -> tensor<3x8xf32>
// CHECK: %[[BAND:.*]] = "ttir.slice"(%x) {begins = [3 : i32, 0 : i32], ends = [5 : i32, 8 : i32], {{.*}} -> tensor<2x8xf32>
// CHECK: %[[LEFT:.*]] = "ttir.slice"(%[[BAND]]) {begins = [0 : i32, 0 : i32], ends = [2 : i32, 4 : i32], {{.*}} -> tensor<2x4xf32>
// CHECK: %[[MID:.*]] = "ttir.concat"(%[[LEFT]], %u) {dim = 1 : i32} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
// CHECK: %[[LOW:.*]] = "ttir.slice"(%x) {begins = [5 : i32, 0 : i32], ends = [8 : i32, 8 : i32], {{.*}} -> tensor<3x8xf32>
// CHECK: "ttir.concat"(%[[TOP]], %[[MID]], %[[LOW]]) {dim = 0 : i32} : (tensor<3x8xf32>, tensor<2x8xf32>, tensor<3x8xf32>) -> tensor<8x8xf32>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8x8xf32>, tensor<2x4xf32>) -> tensor<8x8xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<8x8xf32>, %u: tensor<2x4xf32>):
    %c3 = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %c4 = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
    %0 = "stablehlo.dynamic_update_slice"(%x, %u, %c3, %c4) : (tensor<8x8xf32>, tensor<2x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x8xf32>
    "func.return"(%0) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// emb[ids] as JAX writes it: the indices with a trailing index-vector dim of 1, whole rows
// (slice_sizes 1, 8); the indices clamped into the 16 rows (as StableHLO clamps), then looked up.
// CHECK-LABEL: func.func @main
// CHECK: %[[I:.*]] = "ttir.reshape"(%ids) : (tensor<2x3x1xi32>) -> tensor<2x3xi32>
// CHECK: %[[Z:.*]] = "ttir.constant"() {value = dense<0> : tensor<2x3xi32>}
// CHECK: %[[LO:.*]] = "ttir.maximum"(%[[I]], %[[Z]])
// CHECK: %[[T:.*]] = "ttir.constant"() {value = dense<15> : tensor<2x3xi32>}
// CHECK: %[[C:.*]] = "ttir.minimum"(%[[LO]], %[[T]])
// CHECK: "ttir.embedding"(%[[C]], %emb) : (tensor<2x3xi32>, tensor<16x8xf32>) -> tensor<2x3x8xf32>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<16x8xf32>, tensor<2x3x1xi32>) -> tensor<2x3x8xf32>, sym_name = "main"}> ({
  ^bb0(%emb: tensor<16x8xf32>, %ids: tensor<2x3x1xi32>):
    %0 = "stablehlo.gather"(%emb, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<16x8xf32>, tensor<2x3x1xi32>) -> tensor<2x3x8xf32>
    "func.return"(%0) : (tensor<2x3x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// A slice of constants folds at import: one constant, rows 2 and 3 of iota 0..7.
// CHECK-LABEL: func.func @main
// CHECK: "ttir.constant"() {value = dense<[2.000000e+00, 3.000000e+00]> : tensor<2xf32>}
// CHECK-NOT: ttir.slice
"builtin.module"() ({
  "func.func"() <{function_type = () -> tensor<2xf32>, sym_name = "main"}> ({
    %0 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8xf32>
    %1 = "stablehlo.slice"(%0) <{limit_indices = array<i64: 4>, start_indices = array<i64: 2>, strides = array<i64: 1>}> : (tensor<8xf32>) -> tensor<2xf32>
    "func.return"(%1) : (tensor<2xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// A KV cache written and read at a run-time position (the decode step): the start clamped into
// the 16 positions, compared with an iota of the positions; the update broadcast along them and
// selected where the one-hot is 1; the read is the sum over the positions of the cache times the
// one-hot (one nonzero term: exact). The iota (little-endian i32 hex) is 0 for position 0, 1
// for position 1, ..., along dim 1.
// CHECK-LABEL: func.func @main
// CHECK: %[[LO:.*]] = "ttir.maximum"(%pos, %{{.*}}) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK: %[[S:.*]] = "ttir.minimum"(%[[LO]], %{{.*}}) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK: %[[R:.*]] = "ttir.reshape"(%[[S]]) : (tensor<i32>) -> tensor<1x1x1xi32>
// CHECK: %[[B:.*]] = "ttir.broadcast"(%[[R]]) : (tensor<1x1x1xi32>) -> tensor<2x16x8xi32>
// CHECK: %[[IOTA:.*]] = "ttir.constant"() {value = dense<"0x0000000000000000000000000000000000000000000000000000000000000000010000000100000001000000010000000100000001000000010000000100000002000000
// CHECK: %[[EQ:.*]] = "ttir.eq"(%[[IOTA]], %[[B]]) : (tensor<2x16x8xi32>, tensor<2x16x8xi32>) -> tensor<2x16x8xi32>
// CHECK: %[[HOT:.*]] = "ttir.typecast"(%[[EQ]]) : (tensor<2x16x8xi32>) -> tensor<2x16x8xf32>
// CHECK: %[[U:.*]] = "ttir.broadcast"(%new) : (tensor<2x1x8xf32>) -> tensor<2x16x8xf32>
// CHECK: %[[C:.*]] = "ttir.where"(%[[HOT]], %[[U]], %cache)
// CHECK: %[[P:.*]] = "ttir.multiply"(%[[C]], %{{.*}}) : (tensor<2x16x8xf32>, tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
// CHECK: "ttir.sum"(%[[P]]) {dim_arg = [1 : i32], keep_dim = true} : (tensor<2x16x8xf32>) -> tensor<2x1x8xf32>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2x16x8xf32>, tensor<2x1x8xf32>, tensor<i32>) -> (tensor<2x16x8xf32>, tensor<2x1x8xf32>), sym_name = "main"}> ({
  ^bb0(%cache: tensor<2x16x8xf32>, %new: tensor<2x1x8xf32>, %pos: tensor<i32>):
    %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %0 = "stablehlo.dynamic_update_slice"(%cache, %new, %c0, %pos, %c0) : (tensor<2x16x8xf32>, tensor<2x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x16x8xf32>
    %1 = "stablehlo.dynamic_slice"(%0, %c0, %pos, %c0) <{slice_sizes = array<i64: 2, 1, 8>}> : (tensor<2x16x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x1x8xf32>
    "func.return"(%0, %1) : (tensor<2x16x8xf32>, tensor<2x1x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// jax.lax.axis_index("y") in a shard_map body over a 2x4 mesh: partition_id is the device's id,
// row-major over the mesh: a constant of the 8 ids in the mesh's shape, an all_slice along each
// axis (each device keeps its own 1x1 piece; nothing moves), a scalar.
// CHECK-LABEL: func.func @main
// CHECK: %[[IDS:.*]] = "ttir.constant"() {value = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xui32>}
// CHECK: %[[A:.*]] = "ttir.all_slice"(%[[IDS]]) {slice_dim = 0 : si32, cluster_axis = 0 : ui32} : (tensor<2x4xui32>) -> tensor<1x4xui32>
// CHECK: %[[B:.*]] = "ttir.all_slice"(%[[A]]) {slice_dim = 1 : si32, cluster_axis = 1 : ui32} : (tensor<1x4xui32>) -> tensor<1x1xui32>
// CHECK: "ttir.reshape"(%[[B]]) : (tensor<1x1xui32>) -> tensor<ui32>
"builtin.module"() ({
  "sdy.mesh"() <{sym_name = "mesh", mesh = #sdy.mesh<["x"=2, "y"=4]>}> : () -> ()
  "func.func"() <{function_type = (tensor<8x16xf32>) -> tensor<8x16xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<8x16xf32>):
    %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>, manual_axes = #sdy<manual_axes{"x", "y"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>}> ({
    ^bb1(%arg1: tensor<4x4xf32>):
      %1 = "stablehlo.partition_id"() : () -> tensor<ui32>
      %2 = "stablehlo.convert"(%1) : (tensor<ui32>) -> tensor<f32>
      %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
      %4 = "stablehlo.add"(%arg1, %3) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
      "sdy.return"(%4) : (tensor<4x4xf32>) -> ()
    }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    "func.return"(%0) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// jnp.argmin(x, axis=1) as JAX writes it: a reduce of (x, an iota of the positions) by JAX's
// comparator (the smaller value wins, a NaN wins, on a tie the smaller index): one ttir.argmin,
// the first position of the minimum (the first NaN if any, as numpy's argmin). The reduced values
// are unused: no op computes them.
// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[A:.*]] = "ttir.argmin"(%x) {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4xi32>
// CHECK-NEXT: func.return %[[A]] : tensor<4xi32>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x8xf32>) -> tensor<4xi32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<4x8xf32>):
    %0 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x8xi32>
    %1 = "stablehlo.constant"() <{value = dense<0x7F800000> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %3:2 = "stablehlo.reduce"(%x, %0, %1, %2) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<i32>, %arg3: tensor<f32>, %arg4: tensor<i32>):
      %4 = "stablehlo.compare"(%arg1, %arg3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %5 = "stablehlo.compare"(%arg1, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = "stablehlo.or"(%4, %5) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %7 = "stablehlo.compare"(%arg1, %arg3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %8 = "stablehlo.compare"(%arg2, %arg4) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %9 = "stablehlo.and"(%7, %8) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %10 = "stablehlo.or"(%6, %9) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %11 = "stablehlo.select"(%6, %arg1, %arg3) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %12 = "stablehlo.select"(%10, %arg2, %arg4) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%11, %12) : (tensor<f32>, tensor<i32>) -> ()
    }) : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
    "func.return"(%3#1) : (tensor<4xi32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// jnp.argmax along dim 1 with the reduced values used too (jnp.max and jnp.argmax of one x fused
// by JAX): ttir.argmax for the positions, a max over dim 1 for the values.
// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[A:.*]] = "ttir.argmax"(%x) {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4xi32>
// CHECK-NEXT: %[[M:.*]] = "ttir.max"(%x) {dim_arg = [1 : i32], keep_dim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
// CHECK-NEXT: func.return %[[M]], %[[A]] : tensor<4xf32>, tensor<4xi32>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xi32>), sym_name = "main"}> ({
  ^bb0(%x: tensor<4x8xf32>):
    %0 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x8xi32>
    %1 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %3:2 = "stablehlo.reduce"(%x, %0, %1, %2) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<i32>, %arg3: tensor<f32>, %arg4: tensor<i32>):
      %4 = "stablehlo.compare"(%arg1, %arg3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %5 = "stablehlo.compare"(%arg1, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = "stablehlo.or"(%4, %5) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %7 = "stablehlo.compare"(%arg1, %arg3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %8 = "stablehlo.compare"(%arg2, %arg4) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %9 = "stablehlo.and"(%7, %8) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %10 = "stablehlo.or"(%6, %9) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %11 = "stablehlo.select"(%6, %arg1, %arg3) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %12 = "stablehlo.select"(%10, %arg2, %arg4) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%11, %12) : (tensor<f32>, tensor<i32>) -> ()
    }) : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
    "func.return"(%3#0, %3#1) : (tensor<4xf32>, tensor<4xi32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// jnp.cumsum(x, axis=1) and jnp.cumsum(x, axis=0) as JAX writes them: a reduce_window adding
// over a window of the whole dim (8, 3), padded by 7 (2) before: y[j] = x[0] + ... + x[j], one
// ttir.cumsum each, no matrix.
// CHECK-LABEL: func.func @main
// CHECK-NOT: ttir.matmul
// CHECK: %[[A:.*]] = "ttir.cumsum"(%x) {dim = 1 : i64} : (tensor<3x8xf32>) -> tensor<3x8xf32>
// CHECK-NEXT: %[[B:.*]] = "ttir.cumsum"(%x) {dim = 0 : i64} : (tensor<3x8xf32>) -> tensor<3x8xf32>
// CHECK-NEXT: func.return %[[A]], %[[B]]
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<3x8xf32>) -> (tensor<3x8xf32>, tensor<3x8xf32>), sym_name = "main"}> ({
  ^bb0(%x: tensor<3x8xf32>):
    %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
    %0 = "stablehlo.reduce_window"(%x, %z) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [7, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 8>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<3x8xf32>, tensor<f32>) -> tensor<3x8xf32>
    %1 = "stablehlo.reduce_window"(%x, %z) <{padding = dense<[[2, 0], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<3x8xf32>, tensor<f32>) -> tensor<3x8xf32>
    "func.return"(%0, %1) : (tensor<3x8xf32>, tensor<3x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// lax.cumsum(x, axis=1, reverse=True) (padded by 7 after: y[j] = x[j] + ... + x[7]) is a
// ttir.cumsum with reverse; a centred sliding sum of 3 along dim 1 (padded 1 and 1) is not a
// scan: x times a 0/1 band matrix, row i, column j: 1 where |i - j| <= 1.
// CHECK-LABEL: func.func @main
// CHECK: "ttir.cumsum"(%x) {dim = 1 : i64, reverse = true} : (tensor<3x8xf32>) -> tensor<3x8xf32>
// CHECK: %[[W:.*]] = "ttir.constant"() {value = dense<{{\[\[}}1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [1.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00,
// CHECK: "ttir.matmul"(%x, %[[W]]) : (tensor<3x8xf32>, tensor<8x8xf32>) -> tensor<3x8xf32>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<3x8xf32>) -> (tensor<3x8xf32>, tensor<3x8xf32>), sym_name = "main"}> ({
  ^bb0(%x: tensor<3x8xf32>):
    %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
    %0 = "stablehlo.reduce_window"(%x, %z) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [0, 7]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 8>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<3x8xf32>, tensor<f32>) -> tensor<3x8xf32>
    %1 = "stablehlo.reduce_window"(%x, %z) <{padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<3x8xf32>, tensor<f32>) -> tensor<3x8xf32>
    "func.return"(%0, %1) : (tensor<3x8xf32>, tensor<3x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// jnp.cumprod(x, axis=1) and lax.cumprod(x, axis=0, reverse=True): a reduce_window multiplying
// over the whole prefix (suffix) from 1: ttir.cumprod (with reverse).
// CHECK-LABEL: func.func @main
// CHECK: "ttir.cumprod"(%x) {dim = 1 : i64} : (tensor<3x8xf32>) -> tensor<3x8xf32>
// CHECK-NEXT: "ttir.cumprod"(%x) {dim = 0 : i64, reverse = true} : (tensor<3x8xf32>) -> tensor<3x8xf32>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<3x8xf32>) -> (tensor<3x8xf32>, tensor<3x8xf32>), sym_name = "main"}> ({
  ^bb0(%x: tensor<3x8xf32>):
    %one = "stablehlo.constant"() <{value = dense<1.0> : tensor<f32>}> : () -> tensor<f32>
    %0 = "stablehlo.reduce_window"(%x, %one) <{padding = dense<[[0, 0], [7, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 8>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.multiply"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<3x8xf32>, tensor<f32>) -> tensor<3x8xf32>
    %1 = "stablehlo.reduce_window"(%x, %one) <{padding = dense<[[0, 2], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.multiply"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<3x8xf32>, tensor<f32>) -> tensor<3x8xf32>
    "func.return"(%0, %1) : (tensor<3x8xf32>, tensor<3x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// jnp.cumsum(x[:, ::-1], axis=1)[:, ::-1] as JAX writes it: a reverse, the scan in a private
// function, a reverse. The reverses cancel around the scan: one ttir.cumsum with reverse of x.
// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[S:.*]] = "ttir.cumsum"(%x) {dim = 1 : i64, reverse = true} : (tensor<3x8xf32>) -> tensor<3x8xf32>
// CHECK-NEXT: func.return %[[S]] : tensor<3x8xf32>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<3x8xf32>) -> tensor<3x8xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<3x8xf32>):
    %0 = "stablehlo.reverse"(%x) <{dimensions = array<i64: 1>}> : (tensor<3x8xf32>) -> tensor<3x8xf32>
    %1 = "func.call"(%0) <{callee = @cumsum}> : (tensor<3x8xf32>) -> tensor<3x8xf32>
    %2 = "stablehlo.reverse"(%1) <{dimensions = array<i64: 1>}> : (tensor<3x8xf32>) -> tensor<3x8xf32>
    "func.return"(%2) : (tensor<3x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<3x8xf32>) -> tensor<3x8xf32>, sym_name = "cumsum", sym_visibility = "private"}> ({
  ^bb0(%a: tensor<3x8xf32>):
    %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
    %0 = "stablehlo.reduce_window"(%a, %z) <{padding = dense<[[0, 0], [7, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 8>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<3x8xf32>, tensor<f32>) -> tensor<3x8xf32>
    "func.return"(%0) : (tensor<3x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// jax.lax.top_k(x, 2): ttir.top_k for the values and ttir.top_k_indices for the positions, along
// the last dim, k = 2.
// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[V:.*]] = "ttir.top_k"(%x) {k = 2 : i64, dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: %[[I:.*]] = "ttir.top_k_indices"(%x) {k = 2 : i64, dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x2xi32>
// CHECK-NEXT: func.return %[[V]], %[[I]]
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>), sym_name = "main"}> ({
  ^bb0(%x: tensor<4x8xf32>):
    %0:2 = "chlo.top_k"(%x) <{k = 2 : i64}> : (tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
    "func.return"(%0#0, %0#1) : (tensor<4x2xf32>, tensor<4x2xi32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// Only the positions of jax.lax.top_k used (MoE routing by expert ids): no ttir.top_k.
// CHECK-LABEL: func.func @main
// CHECK-NOT: "ttir.top_k"
// CHECK: %[[I:.*]] = "ttir.top_k_indices"(%x) {k = 2 : i64, dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x2xi32>
// CHECK-NEXT: func.return %[[I]]
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x8xf32>) -> tensor<4x2xi32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<4x8xf32>):
    %0:2 = "chlo.top_k"(%x) <{k = 2 : i64}> : (tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
    "func.return"(%0#1) : (tensor<4x2xi32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// jnp.take_along_axis(x, ids[..., None], axis=1) of one index a row (optax's cross-entropy picks
// the label's logit so): the ids clamped into [0, 7], broadcast along dim 1, compared with an
// iota; where(hit, x, 0) summed over dim 1 keeping it.
// CHECK-LABEL: func.func @main
// CHECK: %[[R:.*]] = "ttir.reshape"(%ids) : (tensor<4x1x1xi32>) -> tensor<4x1xi32>
// CHECK: %[[LO:.*]] = "ttir.maximum"(%[[R]], %{{.*}}) : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x1xi32>
// CHECK: "ttir.constant"() {value = dense<7> : tensor<4x1xi32>}
// CHECK: %[[HI:.*]] = "ttir.minimum"(%[[LO]], %{{.*}})
// CHECK: %[[B:.*]] = "ttir.broadcast"(%[[HI]]) : (tensor<4x1xi32>) -> tensor<4x8xi32>
// CHECK: "ttir.constant"() {value = dense<{{\[\[}}0, 1, 2, 3, 4, 5, 6, 7], [0, 1, 2, 3, 4, 5, 6, 7]
// CHECK: %[[EQ:.*]] = "ttir.eq"(%{{.*}}, %[[B]]) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
// CHECK: %[[HOT:.*]] = "ttir.typecast"(%[[EQ]]) : (tensor<4x8xi32>) -> tensor<4x8xf32>
// CHECK: %[[W:.*]] = "ttir.where"(%[[HOT]], %x, %{{.*}}) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: "ttir.sum"(%[[W]]) {dim_arg = [1 : i32], keep_dim = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x8xf32>, tensor<4x1x1xi32>) -> tensor<4x1xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<4x8xf32>, %ids: tensor<4x1x1xi32>):
    %0 = "stablehlo.gather"(%x, %ids) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x1x1xi32>) -> tensor<4x1xf32>
    "func.return"(%0) : (tensor<4x1xf32>) -> ()
  }) : () -> ()
}) : () -> ()
