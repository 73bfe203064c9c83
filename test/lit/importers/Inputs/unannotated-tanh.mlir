"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8x16xf32>) -> tensor<8x16xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x16xf32>):
    %0 = "stablehlo.tanh"(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    "func.return"(%0) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
}) : () -> ()
