// stablehlo.sort as JAX writes it (jnp.sort, jnp.argsort, ascending and descending; lax.sort),
// imported as ttir.sort / ttir.sort_indices (meshc/importers/stablehlo_sort.py), and run on the TTNN
// target against the golden run, the sorted dim split over y on a 2x4 mesh (gathered first).
// RUN: meshc-import --split-input-file %s | filecheck %s
// RUN: meshc-import --split-input-file %s -o %t.mlir
// RUN: meshc-run %t.mlir --split-input-file --seed 0 --check | filecheck %s --check-prefix=GOLD
// GOLD: check: result0 matches the golden run (exact)
// GOLD: check: result0 matches the golden run (exact)
// GOLD: check: result0 matches the golden run (exact)
// GOLD: check: result0 matches the golden run (exact)
// GOLD: check: result1 matches the golden run (exact)

// jnp.sort(x, axis=1): JAX's comparator (-0.0 and NaNs made canonical, compared TOTALORDER), LT.
// CHECK-LABEL: func.func @main
// CHECK: "ttir.sort"(%x) {dim = 1 : si32, descending = false, stable = true} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NOT: ttir.sort
"builtin.module"() ({
  "sdy.mesh"() <{sym_name = "mesh", mesh = #sdy.mesh<["x"=2, "y"=4]>}> : () -> ()
  "func.func"() <{function_type = (tensor<4x8xf32>) -> tensor<4x8xf32>, sym_name = "main", arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}]}> ({
  ^bb0(%x: tensor<4x8xf32>):
    %0 = "stablehlo.sort"(%x) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %z0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %e0 = "stablehlo.compare"(%a, %z0) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %z1 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %s0 = "stablehlo.select"(%e0, %z1, %a) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %n0 = "stablehlo.compare"(%a, %a) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %q0 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
      %ka = "stablehlo.select"(%n0, %q0, %s0) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %z2 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %e1 = "stablehlo.compare"(%b, %z2) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %z3 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %s1 = "stablehlo.select"(%e1, %z3, %b) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %n1 = "stablehlo.compare"(%b, %b) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %q1 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
      %kb = "stablehlo.select"(%n1, %q1, %s1) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %lt = "stablehlo.compare"(%ka, %kb) <{compare_type = #stablehlo<comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%lt) : (tensor<i1>) -> ()
    }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    "func.return"(%0) : (tensor<4x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// jnp.argsort(x, axis=1, descending=True) of i32: x and the iota reversed, sorted ascending, the
// positions reversed back: a stable descending sort (ttir.sort_indices descending); the values
// result is unused, so no ttir.sort.
// CHECK-LABEL: func.func @main
// CHECK-NOT: stablehlo
// CHECK: "ttir.sort_indices"(%x) {dim = 1 : si32, descending = true, stable = true} : (tensor<4x8xi32>) -> tensor<4x8xi32>
// CHECK-NOT: "ttir.sort"
"builtin.module"() ({
  "sdy.mesh"() <{sym_name = "mesh", mesh = #sdy.mesh<["x"=2, "y"=4]>}> : () -> ()
  "func.func"() <{function_type = (tensor<4x8xi32>) -> tensor<4x8xi32>, sym_name = "main", arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}]}> ({
  ^bb0(%x: tensor<4x8xi32>):
    %0 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x8xi32>
    %1 = "stablehlo.reverse"(%x) <{dimensions = array<i64: 1>}> : (tensor<4x8xi32>) -> tensor<4x8xi32>
    %2 = "stablehlo.reverse"(%0) <{dimensions = array<i64: 1>}> : (tensor<4x8xi32>) -> tensor<4x8xi32>
    %3:2 = "stablehlo.sort"(%1, %2) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
      %lt = "stablehlo.compare"(%a, %b) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%lt) : (tensor<i1>) -> ()
    }) : (tensor<4x8xi32>, tensor<4x8xi32>) -> (tensor<4x8xi32>, tensor<4x8xi32>)
    %4 = "stablehlo.reverse"(%3#1) <{dimensions = array<i64: 1>}> : (tensor<4x8xi32>) -> tensor<4x8xi32>
    "func.return"(%4) : (tensor<4x8xi32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// jnp.sort(x, axis=0, descending=True) of i32: the ascending sort reversed.
// CHECK-LABEL: func.func @main
// CHECK: "ttir.sort"(%x) {dim = 0 : si32, descending = true, stable = true} : (tensor<4x8xi32>) -> tensor<4x8xi32>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x8xi32>) -> tensor<4x8xi32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<4x8xi32>):
    %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %lt = "stablehlo.compare"(%a, %b) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%lt) : (tensor<i1>) -> ()
    }) : (tensor<4x8xi32>) -> tensor<4x8xi32>
    %1 = "stablehlo.reverse"(%0) <{dimensions = array<i64: 0>}> : (tensor<4x8xi32>) -> tensor<4x8xi32>
    "func.return"(%1) : (tensor<4x8xi32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// tt-mlir's descending form: a compare GT of the two elements (here swapped, LT of b and a: the
// same order), values and positions both used, not stable.
// CHECK-LABEL: func.func @main
// CHECK: "ttir.sort"(%x) {dim = 1 : si32, descending = true, stable = false} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: "ttir.sort_indices"(%x) {dim = 1 : si32, descending = true, stable = false} : (tensor<4x8xf32>) -> tensor<4x8xi32>
"builtin.module"() ({
  "sdy.mesh"() <{sym_name = "mesh", mesh = #sdy.mesh<["x"=2, "y"=4]>}> : () -> ()
  "func.func"() <{function_type = (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xi32>), sym_name = "main", arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}]}> ({
  ^bb0(%x: tensor<4x8xf32>):
    %0 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8xi32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64: 1>}> : (tensor<8xi32>) -> tensor<4x8xi32>
    %2:2 = "stablehlo.sort"(%x, %1) <{dimension = 1 : i64}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
      %lt = "stablehlo.compare"(%b, %a) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%lt) : (tensor<i1>) -> ()
    }) : (tensor<4x8xf32>, tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>)
    "func.return"(%2#0, %2#1) : (tensor<4x8xf32>, tensor<4x8xi32>) -> ()
  }) : () -> ()
}) : () -> ()
