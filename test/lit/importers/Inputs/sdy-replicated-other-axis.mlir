"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], replicated={"y"}>}], function_type = (tensor<8x8xf32>) -> tensor<8x8xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<8x8xf32>):
    "func.return"(%a) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()
