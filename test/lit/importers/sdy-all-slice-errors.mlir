// sdy.all_slice is read through its out_sharding; one without it is refused at the op.
// RUN: meshc-import --verify-diagnostics %s

"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<4xf32>):
    // expected-error @+1 {{'sdy.all_slice' op expected out_sharding = #sdy.sharding<...>}}
    %0 = "sdy.all_slice"(%a) <{slicing_axes = #sdy<list_of_axis_ref_lists[{"x"}]>}> : (tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%0) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
