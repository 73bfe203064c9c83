"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["model"=1, "batch"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"batch"}, {}]>}, {}], function_type = (tensor<4x1x32x16xf32>, tensor<16x64xf32>) -> tensor<4x1x32x64xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<4x1x32x16xf32>, %arg1: tensor<16x64xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [0]>}> : (tensor<4x1x32x16xf32>, tensor<16x64xf32>) -> tensor<4x1x32x64xf32>
    "func.return"(%0) : (tensor<4x1x32x64xf32>) -> ()
  }) : () -> ()
}) : () -> ()
