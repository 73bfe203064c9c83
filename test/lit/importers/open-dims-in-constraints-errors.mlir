// An unspecified_dims naming a dim outside the tensor is a located error.
// RUN: not meshc-import --mesh-shape 2,4 %s 2>&1 | filecheck %s
// CHECK: open-dims-in-constraints-errors.mlir:[[# @LINE + 5]]:5: error: 'stablehlo.custom_call' op backend_config 'unspecified_dims=[2]' names dims outside the rank-2 tensor (expected unspecified_dims=[d, ...] with 0 <= d < rank)
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8x32xf32>) -> tensor<8x32xf32>, sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x32xf32>):
    %0 = "stablehlo.tanh"(%arg0) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %1 = "stablehlo.custom_call"(%0) <{backend_config = "unspecified_dims=[2]", call_target_name = "Sharding"}> {mhlo.sharding = "{replicated}"} : (tensor<8x32xf32>) -> tensor<8x32xf32>
    "func.return"(%1) : (tensor<8x32xf32>) -> ()
  }) : () -> ()
}) : () -> ()
