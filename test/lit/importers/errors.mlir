// What the importer refuses, located at the op in the StableHLO input.
// RUN: meshc-import --split-input-file --verify-diagnostics %s

"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<4xf32>):
    // expected-error @+1 {{'stablehlo.cbrt' op has no ttir translation in meshc (docs/importers.md lists the ops it imports)}}
    %0 = "stablehlo.cbrt"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%0) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x4xf32>) -> tensor<4xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<4x4xf32>):
    %init = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    // expected-error @+1 {{'stablehlo.reduce' op reduces with stablehlo.multiply; meshc imports reductions by stablehlo.add (sum), stablehlo.maximum (max) and stablehlo.minimum (min)}}
    %0 = "stablehlo.reduce"(%a, %init) <{dimensions = array<i64: 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %m = "stablehlo.multiply"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%m) : (tensor<f32>) -> ()
    }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
    "func.return"(%0) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// A min from 0 (not its identity, +inf): the result would be min(0, ...), not jnp.min.
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x4xf32>) -> tensor<4xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<4x4xf32>):
    %init = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    // expected-error @+1 {{'stablehlo.reduce' op starts the min from a value other than inf; meshc imports reductions from their identity}}
    %0 = "stablehlo.reduce"(%a, %init) <{dimensions = array<i64: 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %m = "stablehlo.minimum"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%m) : (tensor<f32>) -> ()
    }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
    "func.return"(%0) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// An i32 min from 2**31 - 2, one short of the largest i32 (JAX starts from 2**31 - 1).
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x4xi32>) -> tensor<4xi32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<4x4xi32>):
    %init = "stablehlo.constant"() <{value = dense<2147483646> : tensor<i32>}> : () -> tensor<i32>
    // expected-error @+1 {{'stablehlo.reduce' op starts the min from a value other than 2147483647 (the largest i32); meshc imports reductions from their identity}}
    %0 = "stablehlo.reduce"(%a, %init) <{dimensions = array<i64: 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %m = "stablehlo.minimum"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%m) : (tensor<i32>) -> ()
    }) : (tensor<4x4xi32>, tensor<i32>) -> tensor<4xi32>
    "func.return"(%0) : (tensor<4xi32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x4xf32>) -> tensor<4xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<4x4xf32>):
    %init = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    // expected-error @+1 {{'stablehlo.reduce' op starts the sum from a value other than 0.0; meshc imports reductions from their identity}}
    %0 = "stablehlo.reduce"(%a, %init) <{dimensions = array<i64: 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %m = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%m) : (tensor<f32>) -> ()
    }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
    "func.return"(%0) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// (i64 and f64 are read as i32 and f32, as tt-mlir normalises them; i16 has no such reading.)
// expected-error @+2 {{'func.func' op argument 0 has element type i16, which the device does not hold}}
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xi16>) -> tensor<4xi16>, sym_name = "main"}> ({
  ^bb0(%a: tensor<4xi16>):
    "func.return"(%a) : (tensor<4xi16>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=4]>, sym_name = "mesh"}> : () -> ()
  // expected-error @+1 {{'func.func' op sub-axis "x":(...) splits a mesh axis; meshc specs shard by whole axes}}
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}]>}], function_type = (tensor<8xf32>) -> tensor<8xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<8xf32>):
    "func.return"(%a) : (tensor<8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{function_type = (tensor<8xf32>) -> tensor<8xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<8xf32>):
    // expected-error @+1 {{'sdy.sharding_constraint' op the sharding names the mesh @other, which the module does not declare}}
    %0 = "sdy.sharding_constraint"(%a) <{sharding = #sdy.sharding<@other, [{"x"}]>}> : (tensor<8xf32>) -> tensor<8xf32>
    "func.return"(%0) : (tensor<8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8xf32>) -> tensor<8xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<8xf32>):
    // expected-error @+1 {{'stablehlo.custom_call' op an mhlo.sharding names no mesh axes: give the mesh shape (meshc-import --mesh-shape, or from_jax(..., mesh=))}}
    %0 = "stablehlo.custom_call"(%a) <{call_target_name = "Sharding"}> {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<8xf32>) -> tensor<8xf32>
    "func.return"(%0) : (tensor<8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8xf32>) -> tensor<8xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<8xf32>):
    // expected-error @+1 {{'stablehlo.custom_call' op calls @lapack_sgetrf, which meshc cannot import}}
    %0 = "stablehlo.custom_call"(%a) <{call_target_name = "lapack_sgetrf"}> : (tensor<8xf32>) -> tensor<8xf32>
    "func.return"(%0) : (tensor<8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{function_type = (tensor<64x64xf32>) -> tensor<32x128xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<64x64xf32>):
    %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>, manual_axes = #sdy<manual_axes{"x", "y"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>}> ({
    ^bb0(%arg2: tensor<32x32xf32>):
      // expected-error @+1 {{'stablehlo.all_to_all' op splits into 4 pieces over mesh axis 1 of 2 devices; meshc imports all_to_all with one piece a device of the group}}
      %1 = "stablehlo.all_to_all"(%arg2) <{concat_dimension = 1 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, split_count = 4 : i64, split_dimension = 0 : i64}> : (tensor<32x32xf32>) -> tensor<8x128xf32>
      "sdy.return"(%1) : (tensor<8x128xf32>) -> ()
    }) : (tensor<64x64xf32>) -> tensor<32x128xf32>
    "func.return"(%0) : (tensor<32x128xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{function_type = (tensor<64x64xf32>) -> tensor<32x128xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<64x64xf32>):
    %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>, manual_axes = #sdy<manual_axes{"x", "y"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>}> ({
    ^bb0(%arg2: tensor<32x32xf32>):
      // expected-error @+1 {{'stablehlo.all_to_all' op runs over mesh axes [0, 1] at once; meshc imports all_to_all over one mesh axis}}
      %1 = "stablehlo.all_to_all"(%arg2) <{concat_dimension = 1 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 0 : i64}> : (tensor<32x32xf32>) -> tensor<8x128xf32>
      "sdy.return"(%1) : (tensor<8x128xf32>) -> ()
    }) : (tensor<64x64xf32>) -> tensor<32x128xf32>
    "func.return"(%0) : (tensor<32x128xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{function_type = (tensor<64x64xf32>) -> tensor<32x128xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<64x64xf32>):
    %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>, manual_axes = #sdy<manual_axes{"x", "y"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>}> ({
    ^bb0(%arg2: tensor<32x32xf32>):
      // expected-error @+1 {{'stablehlo.all_to_all' op expected an integer attribute split_count}}
      %1 = "stablehlo.all_to_all"(%arg2) <{concat_dimension = 1 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, split_dimension = 0 : i64}> : (tensor<32x32xf32>) -> tensor<16x64xf32>
      "sdy.return"(%1) : (tensor<16x64xf32>) -> ()
    }) : (tensor<64x64xf32>) -> tensor<32x128xf32>
    "func.return"(%0) : (tensor<32x128xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// Malformed input meshc-import refuses, each located at its op.
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<4xf32>):
    // expected-error @+1 {{'stablehlo.add' op has an operand that no op above it defines}}
    %0 = "stablehlo.add"(%a, %1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %1 = "stablehlo.negate"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%0) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x8xf32>) -> tensor<8x4xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<4x8xf32>):
    // expected-error @+1 {{'stablehlo.transpose' op permutes the dims of a rank-2 tensor by [1, 2], which is not a permutation of 0..1}}
    %0 = "stablehlo.transpose"(%a) <{permutation = array<i64: 1, 2>}> : (tensor<4x8xf32>) -> tensor<8x4xf32>
    "func.return"(%0) : (tensor<8x4xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x4xf32>) -> tensor<4xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<4x4xf32>):
    %init = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    // expected-error @+1 {{'stablehlo.reduce' op has dimensions = [2]; expected distinct dims of a rank-2 tensor}}
    %0 = "stablehlo.reduce"(%a, %init) <{dimensions = array<i64: 2>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %m = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%m) : (tensor<f32>) -> ()
    }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
    "func.return"(%0) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>):
    // expected-error @+1 {{'stablehlo.dot_general' op pairs lhs dims [1] of 4x8 with rhs dims [0] of 4x8; expected as many of each, of equal sizes}}
    %0 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
    "func.return"(%0) : (tensor<4x4xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "func.func"() <{function_type = () -> tensor<65536x65536xf32>, sym_name = "main"}> ({
    // expected-error @+1 {{'stablehlo.iota' op the iota tensor<65536x65536xf32> has 4294967296 elements, more than meshc handles (134217728, meshc.layout.limits.MAX_ELEMENTS)}}
    %0 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<65536x65536xf32>
    "func.return"(%0) : (tensor<65536x65536xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{'builtin.module' op the mesh 4096x4096 has 16777216 devices, more than meshc handles (4096, meshc.layout.limits.MAX_DEVICES)}}
"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=4096, "y"=4096]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<4xf32>):
    "func.return"(%a) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  // expected-error @+1 {{'func.func' op the entry function has 0 blocks; meshc imports a function with one}}
  "func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "main"}> ({
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<4xf32>):
    // expected-error @+1 {{'func.call' op expected a `callee = @name`}}
    %0 = "func.call"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%0) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "func.func"() <{function_type = () -> tensor<f16>, sym_name = "main"}> ({
    // expected-error @+1 {{invalid attribute: float too large to pack with e format}}
    %0 = "stablehlo.constant"() <{value = dense<0x7F800000> : tensor<f16>}> : () -> tensor<f16>
    "func.return"(%0) : (tensor<f16>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "func.func"() <{function_type = () -> tensor<f16>, sym_name = "main"}> ({
    %0 = "stablehlo.constant"() <{value = dense<2139095040> : tensor<si32>}> : () -> tensor<f16>
    // expected-error @+1 {{'func.return' op uses a constant that tensor<f16> cannot hold (float too large to pack with e format)}}
    "func.return"(%0) : (tensor<f16>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// An operand entering a shard_map with unreduced axes (held as partial sums): a whole tensor has
// no one split into partial sums.
"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{function_type = (tensor<8x8xf32>) -> tensor<8x8xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<8x8xf32>):
    // expected-error @+1 {{'sdy.manual_computation' op has an in_sharding with unreduced axes (the operand held as partial sums over mesh axes [0]): a whole tensor has no one split into partial sums, and meshc imports unreduced axes on out_shardings only}}
    %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>, manual_axes = #sdy<manual_axes{"x", "y"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>}> ({
    ^bb0(%arg2: tensor<8x8xf32>):
      "sdy.return"(%arg2) : (tensor<8x8xf32>) -> ()
    }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    "func.return"(%0) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()
