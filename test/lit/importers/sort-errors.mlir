// The sorts and reverses the importer refuses, located at the op, naming what it found and what
// it imports (meshc/importers/stablehlo_sort.py).
// RUN: meshc-import --split-input-file --verify-diagnostics %s

// A comparator that is not a strict order (GE): its ops are named.
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x8xi32>) -> tensor<4x8xi32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<4x8xi32>):
    // expected-error @+1 {{'stablehlo.sort' op sorts by a comparator meshc does not read (stablehlo.compare GE SIGNED); it imports a compare LT or GT of the first operand's two elements (SIGNED / UNSIGNED, FLOAT / TOTALORDER) and JAX's jnp.sort comparator (-0.0 and NaNs made canonical, then compared TOTALORDER)}}
    %0 = "stablehlo.sort"(%x) <{dimension = 1 : i64}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %ge = "stablehlo.compare"(%a, %b) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%ge) : (tensor<i1>) -> ()
    }) : (tensor<4x8xi32>) -> tensor<4x8xi32>
    "func.return"(%0) : (tensor<4x8xi32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// A two-key comparator (lexicographic on both operands, as jnp.lexsort writes): it reads the
// second operand's elements too.
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<8xi32>, %y: tensor<8xi32>):
    // expected-error @+1 {{'stablehlo.sort' op sorts by a comparator meshc does not read (stablehlo.compare LT SIGNED, stablehlo.compare EQ SIGNED, stablehlo.compare LT SIGNED, stablehlo.and, stablehlo.or)}}
    %0:2 = "stablehlo.sort"(%x, %y) <{dimension = 0 : i64}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
      %lt = "stablehlo.compare"(%a, %b) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %eq = "stablehlo.compare"(%a, %b) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %lt2 = "stablehlo.compare"(%c, %d) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %and = "stablehlo.and"(%eq, %lt2) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %or = "stablehlo.or"(%lt, %and) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%or) : (tensor<i1>) -> ()
    }) : (tensor<8xi32>, tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>)
    "func.return"(%0#1) : (tensor<8xi32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// A key-value sort (lax.sort_key_val): the second operand is data, not the positions.
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>, sym_name = "main"}> ({
  ^bb0(%k: tensor<8xf32>, %v: tensor<8xf32>):
    // expected-error @+1 {{'stablehlo.sort' op sorts 2 tensors, the others not the positions along dim 0 (an iota); meshc imports sorts of one tensor and of a tensor with the iota of its positions (jnp.sort, jnp.argsort, lax.sort), not key-value sorts}}
    %0:2 = "stablehlo.sort"(%k, %v) <{dimension = 0 : i64}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
      %lt = "stablehlo.compare"(%a, %b) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%lt) : (tensor<i1>) -> ()
    }) : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    "func.return"(%0#1) : (tensor<8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// jnp.flip of a tensor computed at run time (no sort around it).
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8xf32>) -> tensor<8xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<8xf32>):
    // expected-error @+1 {{'stablehlo.reverse' op reverses dims [0] of a tensor computed when the program runs; meshc imports stablehlo.reverse of constants and around a sort along the same dim (JAX's descending jnp.sort / jnp.argsort)}}
    %0 = "stablehlo.reverse"(%x) <{dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8xf32>
    "func.return"(%0) : (tensor<8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// jnp.flip(jnp.argsort(x)): descending, but equal elements' positions last first, which
// ttir.sort_indices does not give (jnp.argsort(x, descending=True) reverses x too).
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8xi32>) -> tensor<8xi32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<8xi32>):
    %0 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8xi32>
    // expected-error @+1 {{'stablehlo.sort' op reverses along dim 0 its results only, which puts equal elements' positions in reverse order; meshc imports the positions of a sort reversed on both sides (jnp.argsort(x, descending=True)) or on neither}}
    %1:2 = "stablehlo.sort"(%x, %0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
      %lt = "stablehlo.compare"(%a, %b) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%lt) : (tensor<i1>) -> ()
    }) : (tensor<8xi32>, tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>)
    %2 = "stablehlo.reverse"(%1#1) <{dimensions = array<i64: 0>}> : (tensor<8xi32>) -> tensor<8xi32>
    "func.return"(%2) : (tensor<8xi32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// A sort used both as it is and reversed.
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>), sym_name = "main"}> ({
  ^bb0(%x: tensor<8xi32>):
    // expected-error @+1 {{'stablehlo.sort' op uses its results both reversed along dim 0 and as they are; meshc imports a sort whose results are all reversed (JAX's descending form) or none}}
    %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %lt = "stablehlo.compare"(%a, %b) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%lt) : (tensor<i1>) -> ()
    }) : (tensor<8xi32>) -> tensor<8xi32>
    %1 = "stablehlo.reverse"(%0) <{dimensions = array<i64: 0>}> : (tensor<8xi32>) -> tensor<8xi32>
    "func.return"(%0, %1) : (tensor<8xi32>, tensor<8xi32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// A reverse along a dimension the operand does not have (here one past int64's range): refused
// at the op (it was an internal OverflowError folding a constant).
"builtin.module"() ({
  "func.func"() <{function_type = () -> tensor<4x8xi32>, sym_name = "main"}> ({
    %0 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x8xi32>
    // expected-error @+1 {{reverses along dimensions [-9223372036854775808], but its operand has rank 2: each dimension must be in [0, 2) and named once}}
    %1 = "stablehlo.reverse"(%0) <{dimensions = array<i64: -9223372036854775808>}> : (tensor<4x8xi32>) -> tensor<4x8xi32>
    "func.return"(%1) : (tensor<4x8xi32>) -> ()
  }) : () -> ()
}) : () -> ()
