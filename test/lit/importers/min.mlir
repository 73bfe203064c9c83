// A reduce by stablehlo.minimum (jnp.min, jnp.amin, lax.reduce_min) imports as ttir.min, from its
// identity in each element type: +inf for floats, the largest integer (2**31 - 1 for i32, 2**32 - 1
// for ui32; a 64-bit init at or beyond the 32-bit bound its type is normalized to); an integer max
// from the smallest. Each is run on both targets against the golden run.
// RUN: meshc-import --split-input-file %s | filecheck %s
// RUN: meshc-import --split-input-file %s -o %t.mlir
// RUN: meshc-run %t.mlir --split-input-file --seed 0 --check | filecheck %s --check-prefix=GOLD
// RUN: meshc-run %t.mlir --split-input-file --seed 0 --target ttmetal --check | filecheck %s --check-prefix=GOLD

// f32 from +inf (0x7F800000, as JAX writes jnp.min's init).
// CHECK-LABEL: func.func @main
// CHECK: "ttir.min"(%a) {dim_arg = [1 : i32]} : (tensor<4x8xf32>) -> tensor<4xf32>
// GOLD: check: result0 matches the golden run (exact)
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x8xf32>) -> tensor<4xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<4x8xf32>):
    %init = "stablehlo.constant"() <{value = dense<0x7F800000> : tensor<f32>}> : () -> tensor<f32>
    %0 = "stablehlo.reduce"(%a, %init) <{dimensions = array<i64: 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %m = "stablehlo.minimum"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%m) : (tensor<f32>) -> ()
    }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
    "func.return"(%0) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// bf16 from +inf (0x7F80).
// CHECK-LABEL: func.func @main
// CHECK: "ttir.min"(%a) {dim_arg = [1 : i32]} : (tensor<4x8xbf16>) -> tensor<4xbf16>
// GOLD: check: result0 matches the golden run (exact)
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x8xbf16>) -> tensor<4xbf16>, sym_name = "main"}> ({
  ^bb0(%a: tensor<4x8xbf16>):
    %init = "stablehlo.constant"() <{value = dense<0x7F80> : tensor<bf16>}> : () -> tensor<bf16>
    %0 = "stablehlo.reduce"(%a, %init) <{dimensions = array<i64: 1>}> ({
    ^bb0(%x: tensor<bf16>, %y: tensor<bf16>):
      %m = "stablehlo.minimum"(%x, %y) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
      "stablehlo.return"(%m) : (tensor<bf16>) -> ()
    }) : (tensor<4x8xbf16>, tensor<bf16>) -> tensor<4xbf16>
    "func.return"(%0) : (tensor<4xbf16>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// i32 from 2**31 - 1 (JAX's jnp.min of int32).
// CHECK-LABEL: func.func @main
// CHECK: "ttir.min"(%a) {dim_arg = [1 : i32]} : (tensor<4x8xi32>) -> tensor<4xi32>
// GOLD: check: result0 matches the golden run (exact)
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x8xi32>) -> tensor<4xi32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<4x8xi32>):
    %init = "stablehlo.constant"() <{value = dense<2147483647> : tensor<i32>}> : () -> tensor<i32>
    %0 = "stablehlo.reduce"(%a, %init) <{dimensions = array<i64: 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %m = "stablehlo.minimum"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%m) : (tensor<i32>) -> ()
    }) : (tensor<4x8xi32>, tensor<i32>) -> tensor<4xi32>
    "func.return"(%0) : (tensor<4xi32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// ui32 from 2**32 - 1.
// CHECK-LABEL: func.func @main
// CHECK: "ttir.min"(%a) {dim_arg = [1 : i32]} : (tensor<4x8xui32>) -> tensor<4xui32>
// GOLD: check: result0 matches the golden run (exact)
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x8xui32>) -> tensor<4xui32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<4x8xui32>):
    %init = "stablehlo.constant"() <{value = dense<4294967295> : tensor<ui32>}> : () -> tensor<ui32>
    %0 = "stablehlo.reduce"(%a, %init) <{dimensions = array<i64: 1>}> ({
    ^bb0(%x: tensor<ui32>, %y: tensor<ui32>):
      %m = "stablehlo.minimum"(%x, %y) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
      "stablehlo.return"(%m) : (tensor<ui32>) -> ()
    }) : (tensor<4x8xui32>, tensor<ui32>) -> tensor<4xui32>
    "func.return"(%0) : (tensor<4xui32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// i64 from 2**63 - 1: the type normalized to i32 (tt-mlir's element-type normalization), the init beyond its largest.
// CHECK-LABEL: func.func @main
// CHECK: "ttir.min"(%a) {dim_arg = [1 : i32]} : (tensor<4x8xi32>) -> tensor<4xi32>
// GOLD: check: result0 matches the golden run (exact)
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x8xi64>) -> tensor<4xi64>, sym_name = "main"}> ({
  ^bb0(%a: tensor<4x8xi64>):
    %init = "stablehlo.constant"() <{value = dense<9223372036854775807> : tensor<i64>}> : () -> tensor<i64>
    %0 = "stablehlo.reduce"(%a, %init) <{dimensions = array<i64: 1>}> ({
    ^bb0(%x: tensor<i64>, %y: tensor<i64>):
      %m = "stablehlo.minimum"(%x, %y) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%m) : (tensor<i64>) -> ()
    }) : (tensor<4x8xi64>, tensor<i64>) -> tensor<4xi64>
    "func.return"(%0) : (tensor<4xi64>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// an i32 max from -2**31 (JAX's jnp.max of int32).
// CHECK-LABEL: func.func @main
// CHECK: "ttir.max"(%a) {dim_arg = [1 : i32]} : (tensor<4x8xi32>) -> tensor<4xi32>
// GOLD: check: result0 matches the golden run (exact)
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x8xi32>) -> tensor<4xi32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<4x8xi32>):
    %init = "stablehlo.constant"() <{value = dense<-2147483648> : tensor<i32>}> : () -> tensor<i32>
    %0 = "stablehlo.reduce"(%a, %init) <{dimensions = array<i64: 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %m = "stablehlo.maximum"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%m) : (tensor<i32>) -> ()
    }) : (tensor<4x8xi32>, tensor<i32>) -> tensor<4xi32>
    "func.return"(%0) : (tensor<4xi32>) -> ()
  }) : () -> ()
}) : () -> ()
