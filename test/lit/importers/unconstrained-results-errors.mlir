// A Shardy result sharding open in some dims only says "at least this, the rest is propagation's"
// (`{"x", ?}`: x and maybe more; `{?}` beside a closed `{}`): meshc places a result either as
// written or wholly as propagation gives it (`tt.unconstrained`), so such a sharding is refused,
// located at the function, naming both ways out; it is not read as either.
// RUN: meshc-import --split-input-file --verify-diagnostics %s
// RUN: not meshc-import --split-input-file %s 2>&1 | filecheck %s

// CHECK: unconstrained-results-errors.mlir:[[# @LINE + 4]]:3: error: 'func.func' op result 0 has the sharding #sdy.sharding<@mesh, [{"x", ?}, {?}]>, open (?) in some dims only
"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=4]>, sym_name = "mesh"}> : () -> ()
  // expected-error @+1 {{'func.func' op result 0 has the sharding #sdy.sharding<@mesh, [{"x", ?}, {?}]>, open (?) in some dims only: meshc leaves a result either as its sharding says (close every dim) or to propagation (every dim open and empty, [{?}, ...], or no sharding)}}
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}], function_type = (tensor<8x16xf32>) -> tensor<8x16xf32>, res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}], sym_name = "main"}> ({
  ^bb0(%a: tensor<8x16xf32>):
    "func.return"(%a) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// CHECK: error: 'func.func' op result 1 has the sharding #sdy.sharding<@mesh, [{?}, {}]>, open (?) in some dims only
"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=4]>, sym_name = "mesh"}> : () -> ()
  // expected-error @+1 {{result 1 has the sharding #sdy.sharding<@mesh, [{?}, {}]>, open (?) in some dims only}}
  "func.func"() <{function_type = (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>), res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{?}, {}]>}], sym_name = "main"}> ({
  ^bb0(%a: tensor<8x16xf32>):
    "func.return"(%a, %a) : (tensor<8x16xf32>, tensor<8x16xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// Open with an axis named replicated ("free, but not over y"): not meshc's unconstrained either.
// CHECK: error: 'func.func' op result 0 has the sharding #sdy.sharding<@mesh, [{?}, {?}], replicated={"y"}>, open (?) in some dims only
"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=4]>, sym_name = "mesh"}> : () -> ()
  // expected-error @+1 {{result 0 has the sharding #sdy.sharding<@mesh, [{?}, {?}], replicated={"y"}>}}
  "func.func"() <{function_type = (tensor<8x16xf32>) -> tensor<8x16xf32>, res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}], replicated={"y"}>}], sym_name = "main"}> ({
  ^bb0(%a: tensor<8x16xf32>):
    "func.return"(%a) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
}) : () -> ()
