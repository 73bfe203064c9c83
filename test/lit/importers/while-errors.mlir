// The loops the importer refuses, located at the stablehlo.while, naming why.
// RUN: meshc-import --split-input-file --verify-diagnostics %s

// A data-dependent loop (lax.while_loop(lambda x: jnp.sum(x) < 100, lambda x: x * 2, x)):
// the condition reduces the loop's value.
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8x16xf32>) -> tensor<8x16xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<8x16xf32>):
    // expected-error @+1 {{'stablehlo.while' op is a loop whose trip count meshc cannot prove at import (its condition computes stablehlo.reduce from the loop's values before comparing: it depends on values computed when the program runs): a data-dependent loop is not supported. meshc unrolls a while whose counter starts from a constant, is compared with a constant bound and steps by a constant (jax.lax.scan, lax.fori_loop with Python-int bounds)}}
    %0 = "stablehlo.while"(%x) ({
    ^bb0(%v: tensor<8x16xf32>):
      %z = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %s = "stablehlo.reduce"(%v, %z) <{dimensions = array<i64: 0, 1>}> ({
      ^bb1(%a: tensor<f32>, %b: tensor<f32>):
        %t = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%t) : (tensor<f32>) -> ()
      }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
      %h = "stablehlo.constant"() <{value = dense<1.000000e+02> : tensor<f32>}> : () -> tensor<f32>
      %c = "stablehlo.compare"(%s, %h) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%c) : (tensor<i1>) -> ()
    }, {
    ^bb0(%v: tensor<8x16xf32>):
      %1 = "stablehlo.add"(%v, %v) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
      "stablehlo.return"(%1) : (tensor<8x16xf32>) -> ()
    }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    "func.return"(%0) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// A counter whose bound is an argument (lax.fori_loop(0, n, ...) with n traced).
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8x16xf32>, tensor<i32>) -> tensor<8x16xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<8x16xf32>, %n: tensor<i32>):
    %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    // expected-error @+1 {{'stablehlo.while' op is a loop whose trip count meshc cannot prove at import (its counter's bound is a value computed when the program runs): a data-dependent loop is not supported}}
    %0:2 = "stablehlo.while"(%c0, %x) ({
    ^bb0(%i: tensor<i32>, %v: tensor<8x16xf32>):
      %1 = "stablehlo.compare"(%i, %n) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%1) : (tensor<i1>) -> ()
    }, {
    ^bb0(%i: tensor<i32>, %v: tensor<8x16xf32>):
      %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %2 = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%2, %v) : (tensor<i32>, tensor<8x16xf32>) -> ()
    }) : (tensor<i32>, tensor<8x16xf32>) -> (tensor<i32>, tensor<8x16xf32>)
    "func.return"(%0#1) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// A counter that starts from an argument.
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8x16xf32>, tensor<i32>) -> tensor<8x16xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<8x16xf32>, %s: tensor<i32>):
    // expected-error @+1 {{'stablehlo.while' op is a loop whose trip count meshc cannot prove at import (its counter (loop value 0) does not start from a constant)}}
    %0:2 = "stablehlo.while"(%s, %x) ({
    ^bb0(%i: tensor<i32>, %v: tensor<8x16xf32>):
      %c4 = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
      %1 = "stablehlo.compare"(%i, %c4) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%1) : (tensor<i1>) -> ()
    }, {
    ^bb0(%i: tensor<i32>, %v: tensor<8x16xf32>):
      %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %2 = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%2, %v) : (tensor<i32>, tensor<8x16xf32>) -> ()
    }) : (tensor<i32>, tensor<8x16xf32>) -> (tensor<i32>, tensor<8x16xf32>)
    "func.return"(%0#1) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// A counter stepped away from its bound: i < 4 from 0 by -1 never fails.
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8x16xf32>) -> tensor<8x16xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<8x16xf32>):
    %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    // expected-error @+1 {{'stablehlo.while' op never ends: its counter (loop value 0) starts at 0 and steps by -1, and the condition counter LT 4 always holds}}
    %0:2 = "stablehlo.while"(%c0, %x) ({
    ^bb0(%i: tensor<i32>, %v: tensor<8x16xf32>):
      %c4 = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
      %1 = "stablehlo.compare"(%i, %c4) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%1) : (tensor<i1>) -> ()
    }, {
    ^bb0(%i: tensor<i32>, %v: tensor<8x16xf32>):
      %m1 = "stablehlo.constant"() <{value = dense<-1> : tensor<i32>}> : () -> tensor<i32>
      %2 = "stablehlo.add"(%i, %m1) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%2, %v) : (tensor<i32>, tensor<8x16xf32>) -> ()
    }) : (tensor<i32>, tensor<8x16xf32>) -> (tensor<i32>, tensor<8x16xf32>)
    "func.return"(%0#1) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// 10,000 iterations of 7 ops (3 in the condition, 4 in the body): 70,000 ops unrolled, past the
// limit of 8,192.
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8x16xf32>) -> tensor<8x16xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<8x16xf32>):
    %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    // expected-error @+1 {{'stablehlo.while' op is a loop of 10000 iterations of 7 ops (its condition and body): unrolled, 70000 ops, past meshc's limit of 8192 (MAX_UNROLLED_OPS); import fewer iterations (fewer layers) or a smaller body}}
    %0:2 = "stablehlo.while"(%c0, %x) ({
    ^bb0(%i: tensor<i32>, %v: tensor<8x16xf32>):
      %c = "stablehlo.constant"() <{value = dense<10000> : tensor<i32>}> : () -> tensor<i32>
      %1 = "stablehlo.compare"(%i, %c) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%1) : (tensor<i1>) -> ()
    }, {
    ^bb0(%i: tensor<i32>, %v: tensor<8x16xf32>):
      %t = "stablehlo.tanh"(%v) : (tensor<8x16xf32>) -> tensor<8x16xf32>
      %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %2 = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%2, %t) : (tensor<i32>, tensor<8x16xf32>) -> ()
    }) : (tensor<i32>, tensor<8x16xf32>) -> (tensor<i32>, tensor<8x16xf32>)
    "func.return"(%0#1) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// A while with its condition only.
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8x16xf32>) -> tensor<8x16xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<8x16xf32>):
    // expected-error @+1 {{'stablehlo.while' op has 1 regions of [1] blocks; a while has two regions of one block each (its condition, then its body)}}
    %0 = "stablehlo.while"(%x) ({
    ^bb0(%v: tensor<8x16xf32>):
      "stablehlo.return"(%v) : (tensor<8x16xf32>) -> ()
    }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    "func.return"(%0) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// A body returning fewer values than the loop carries.
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8x16xf32>) -> tensor<8x16xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<8x16xf32>):
    %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %0:2 = "stablehlo.while"(%c0, %x) ({
    ^bb0(%i: tensor<i32>, %v: tensor<8x16xf32>):
      %c4 = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
      %1 = "stablehlo.compare"(%i, %c4) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%1) : (tensor<i1>) -> ()
    }, {
    ^bb0(%i: tensor<i32>, %v: tensor<8x16xf32>):
      %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %2 = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      // expected-error @+1 {{'stablehlo.return' op returns 1 values from the body of a loop carrying 2; expected one for each loop-carried value}}
      "stablehlo.return"(%2) : (tensor<i32>) -> ()
    }) : (tensor<i32>, tensor<8x16xf32>) -> (tensor<i32>, tensor<8x16xf32>)
    "func.return"(%0#1) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
}) : () -> ()
