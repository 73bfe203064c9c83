// The select ops the importer refuses, located at the op, naming what to write instead.
// RUN: meshc-import --split-input-file --verify-diagnostics %s

// Run-time starts that take several positions of two dims (a 4x4 block at (pos, pos)).
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8x8xf32>, tensor<i32>) -> tensor<4x4xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<8x8xf32>, %pos: tensor<i32>):
    // expected-error @+1 {{'stablehlo.dynamic_slice' op takes [4, 4] positions of dims [0, 1] from start indices known only when the program runs; meshc imports dynamic_slice at constant starts, or at run-time starts that take several positions of one dim and one position of the others (cache[:, pos:pos + t]; for more, select with a mask: jnp.where(jnp.arange(n)[:, None] >= pos, ...))}}
    %0 = "stablehlo.dynamic_slice"(%x, %pos, %pos) <{slice_sizes = array<i64: 4, 4>}> : (tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x4xf32>
    "func.return"(%0) : (tensor<4x4xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8x8xf32>, tensor<2x2xf32>, tensor<i32>) -> tensor<8x8xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<8x8xf32>, %u: tensor<2x2xf32>, %pos: tensor<i32>):
    // expected-error @+1 {{'stablehlo.dynamic_update_slice' op takes [2, 2] positions of dims [0, 1] from start indices known only when the program runs; meshc imports dynamic_update_slice at constant starts, or at run-time starts that take several positions of one dim and one position of the others}}
    %0 = "stablehlo.dynamic_update_slice"(%x, %u, %pos, %pos) : (tensor<8x8xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<8x8xf32>
    "func.return"(%0) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// A run-time position of dim 0 and part of dim 1 (4 of its 8 columns).
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8x8xf32>, tensor<1x4xf32>, tensor<i32>) -> tensor<8x8xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<8x8xf32>, %u: tensor<1x4xf32>, %pos: tensor<i32>):
    %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    // expected-error @+1 {{'stablehlo.dynamic_update_slice' op writes a run-time position of dims [0] and part of dims [1]; meshc imports such an update when every other dim is written whole (split it into one update a dim)}}
    %0 = "stablehlo.dynamic_update_slice"(%x, %u, %pos, %c0) : (tensor<8x8xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x8xf32>
    "func.return"(%0) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// jnp.take(x, ids, axis=1): columns, not rows.
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8x16xf32>, tensor<3x1xi32>) -> tensor<8x3xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<8x16xf32>, %ids: tensor<3x1xi32>):
    // expected-error @+1 {{'stablehlo.gather' op gathers in a form other than whole rows of a 2-d table or one element a row; meshc imports emb[ids] and jnp.take(emb, ids, axis=0) on a 2-d emb (reshape the table to 2-d, or move the axis taken from to the front) and jnp.take_along_axis(x, ids[..., None], axis)}}
    %0 = "stablehlo.gather"(%x, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 8, 1>}> : (tensor<8x16xf32>, tensor<3x1xi32>) -> tensor<8x3xf32>
    "func.return"(%0) : (tensor<8x3xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8x8xf32>) -> tensor<2x8xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<8x8xf32>):
    // expected-error @+1 {{'stablehlo.slice' op slices [8, 8] from [6, 0] to [10, 8] by [1, 1]; expected one start, limit and stride a dim, 0 <= start <= limit <= the dim's size, strides 1 or more}}
    %0 = "stablehlo.slice"(%x) <{limit_indices = array<i64: 10, 8>, start_indices = array<i64: 6, 0>, strides = array<i64: 1, 1>}> : (tensor<8x8xf32>) -> tensor<2x8xf32>
    "func.return"(%0) : (tensor<2x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "func.func"() <{function_type = () -> tensor<ui32>, sym_name = "main"}> ({
    // expected-error @+1 {{'stablehlo.partition_id' op names the device running it, which a global-view program does not have; use jax.lax.axis_index inside a jax.shard_map body}}
    %0 = "stablehlo.partition_id"() : () -> tensor<ui32>
    "func.return"(%0) : (tensor<ui32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// A reduce of two tensors that is not argmax / argmin: a sum of each.
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>):
    %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
    // expected-error @+1 {{'stablehlo.reduce' op reduces two tensors in a form other than argmax / argmin along one dim (values and an iota of the positions, by JAX's comparator); meshc imports jnp.argmax and jnp.argmin}}
    %0:2 = "stablehlo.reduce"(%x, %y, %z, %z) <{dimensions = array<i64: 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
      %1 = "stablehlo.add"(%a, %c) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      %2 = "stablehlo.add"(%b, %d) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1, %2) : (tensor<f32>, tensor<f32>) -> ()
    }) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>)
    "func.return"(%0#0) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// An argmax-like reduce whose body keeps the larger value but lets no NaN win (a hand-written
// lax.reduce, not JAX's argmax comparator): its NaN order is not ttir.argmax's, so it is refused.
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x8xf32>) -> tensor<4xi32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<4x8xf32>):
    %0 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x8xi32>
    %1 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    // expected-error @+1 {{'stablehlo.reduce' op reduces two tensors in a form other than argmax / argmin along one dim (values and an iota of the positions, by JAX's comparator); meshc imports jnp.argmax and jnp.argmin}}
    %3:2 = "stablehlo.reduce"(%x, %0, %1, %2) <{dimensions = array<i64: 1>}> ({
    ^bb0(%a1: tensor<f32>, %a2: tensor<i32>, %a3: tensor<f32>, %a4: tensor<i32>):
      %4 = "stablehlo.compare"(%a1, %a3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %5 = "stablehlo.select"(%4, %a1, %a3) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %6 = "stablehlo.select"(%4, %a2, %a4) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%5, %6) : (tensor<f32>, tensor<i32>) -> ()
    }) : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
    "func.return"(%3#1) : (tensor<4xi32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// A product over a sliding window of 3 (not the whole prefix or suffix).
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<3x8xf32>) -> tensor<3x8xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<3x8xf32>):
    %one = "stablehlo.constant"() <{value = dense<1.0> : tensor<f32>}> : () -> tensor<f32>
    // expected-error @+1 {{'stablehlo.reduce_window' op is a reduce_window meshc does not import; it imports sums over a window along one dim, stride 1, padded to the input's length (jnp.cumsum, lax.cumsum(reverse=True), a sliding-window sum) and products over the whole prefix or suffix of one dim}}
    %0 = "stablehlo.reduce_window"(%x, %one) <{padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.multiply"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<3x8xf32>, tensor<f32>) -> tensor<3x8xf32>
    "func.return"(%0) : (tensor<3x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// A running maximum (jax.lax.cummax): a reduce_window by maximum.
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<3x8xf32>) -> tensor<3x8xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<3x8xf32>):
    %z = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    // expected-error @+1 {{'stablehlo.reduce_window' op is a reduce_window meshc does not import; it imports sums over a window along one dim, stride 1, padded to the input's length (jnp.cumsum, lax.cumsum(reverse=True), a sliding-window sum) and products over the whole prefix or suffix of one dim (jnp.cumprod, lax.cumprod(reverse=True)); write other windows as slices and adds}}
    %0 = "stablehlo.reduce_window"(%x, %z) <{padding = dense<[[0, 0], [7, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 8>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<3x8xf32>, tensor<f32>) -> tensor<3x8xf32>
    "func.return"(%0) : (tensor<3x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x8xf32>) -> (tensor<4x9xf32>, tensor<4x9xi32>), sym_name = "main"}> ({
  ^bb0(%x: tensor<4x8xf32>):
    // expected-error @+1 {{'chlo.top_k' op takes the top 9 of [4, 8]; expected 1 <= k <= the last dim's size}}
    %0:2 = "chlo.top_k"(%x) <{k = 9 : i64}> : (tensor<4x8xf32>) -> (tensor<4x9xf32>, tensor<4x9xi32>)
    "func.return"(%0#0, %0#1) : (tensor<4x9xf32>, tensor<4x9xi32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// jnp.take_along_axis with two indices a row: meshc takes one element a row.
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x8xf32>, tensor<4x2x1xi32>) -> tensor<4x2xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<4x8xf32>, %ids: tensor<4x2x1xi32>):
    // expected-error @+1 {{'stablehlo.gather' op gathers in a form other than whole rows of a 2-d table or one element a row}}
    %0 = "stablehlo.gather"(%x, %ids) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x2x1xi32>) -> tensor<4x2xf32>
    "func.return"(%0) : (tensor<4x2xf32>) -> ()
  }) : () -> ()
}) : () -> ()
