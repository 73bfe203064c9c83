"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=1, "y"=1]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}], function_type = (tensor<32x64xf32>, tensor<64x32xf32>) -> tensor<32x32xf32>, res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}], sym_name = "main"}> ({
  ^bb0(%x: tensor<32x64xf32>, %w: tensor<64x32xf32>):
    %0 = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x64xf32>, tensor<64x32xf32>) -> tensor<32x32xf32>
    %1 = "stablehlo.logistic"(%0) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    "func.return"(%1) : (tensor<32x32xf32>) -> ()
  }) : () -> ()
}) : () -> ()
