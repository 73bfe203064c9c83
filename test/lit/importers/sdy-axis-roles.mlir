// A Shardy mesh names each axis once, and a sharding gives each mesh axis one role (it splits
// one dim, or is unreduced, or is replicated): anything else is refused, located, not read as
// some other sharding (the mesh ["x"=2, "x"=4] was accepted, as was an axis both sharded and
// replicated).
// RUN: meshc-import --split-input-file --verify-diagnostics %s
// RUN: meshc-import %S/Inputs/sdy-replicated-other-axis.mlir | filecheck %s

// The accepted form: "x" splits dim 0, "y" is named replicated.
// CHECK: tt.sharding = #tt.sharding<[S0, R]

"builtin.module"() ({
  // expected-error @+1 {{'sdy.mesh' op the mesh names axis "x" twice in '["x"=2, "x"=4]'; each mesh axis has one name, e.g. ["x"=2, "y"=4]}}
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "x"=4]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{function_type = (tensor<8xf32>) -> tensor<8xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<8xf32>):
    "func.return"(%a) : (tensor<8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=2]>, sym_name = "mesh"}> : () -> ()
  // expected-error @+1 {{'func.func' op mesh axis "x" shards dim 0 and is replicated in '@mesh, [{"x"}, {}], replicated={"x"}'; an axis shards one dim, is unreduced, or is replicated}}
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], replicated={"x"}>}], function_type = (tensor<8x8xf32>) -> tensor<8x8xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<8x8xf32>):
    "func.return"(%a) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{function_type = (tensor<8x8xf32>) -> tensor<8x8xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<8x8xf32>):
    // expected-error @+1 {{'sdy.sharding_constraint' op mesh axis "y" shards dim 1 and is unreduced in '@mesh, [{}, {"y"}], unreduced={"y"}'; an axis shards one dim, is unreduced, or is replicated}}
    %0 = "sdy.sharding_constraint"(%a) <{sharding = #sdy.sharding<@mesh, [{}, {"y"}], unreduced={"y"}>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    "func.return"(%0) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=2]>, sym_name = "mesh"}> : () -> ()
  // expected-error @+1 {{'func.func' op mesh axis "x" shards dim 0 and shards dim 1 in '@mesh, [{"x"}, {"x"}]'; an axis shards one dim, is unreduced, or is replicated}}
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"x"}]>}], function_type = (tensor<8x8xf32>) -> tensor<8x8xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<8x8xf32>):
    "func.return"(%a) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()
