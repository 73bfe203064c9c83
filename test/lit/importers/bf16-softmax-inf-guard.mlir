// RUN: python -c "import numpy as np; x = np.zeros((4, 16), np.float32); x[1] = -100; x[1, 0] = 100; np.save('%t.x.npy', x)"
// RUN: meshc-import %s -o %t.ttir.mlir
// RUN: meshc-run %t.ttir.mlir --input arg0=%t.x.npy --check --full | filecheck %s

// jax.nn.softmax(x, axis=-1) on bf16, as JAX 0.10 exports it (generic form): its max guard is the
// bf16 constant dense<0xFF80>, -inf (sign 1, exponent all ones, mantissa 0). Read as the integer
// 65408 (as xDSL alone reads it), max(65408, row max) = 65408 and every exp(x - 65408) is 0: all
// NaN. Read as -inf: a row of zeros gives 1/16 = 0.0625 everywhere; a row of one 100 and fifteen
// -100s gives exp(-200) = 0 (bf16 underflows) and 1 at the 100 (0, 100 and -100 are exact in bf16,
// so the input is given as f32).
// CHECK: result0: 4x16 float32
// CHECK-NEXT: {{\[\[}}0.0625 0.0625 0.0625 0.0625 0.0625 0.0625 0.0625 0.0625 0.0625 0.0625 0.0625 0.0625 0.0625 0.0625 0.0625 0.0625]
// CHECK-NEXT:  [1.     0.     0.     0.     0.     0.     0.     0.     0.     0.     0.     0.     0.     0.     0.     0.    ]
// CHECK-NOT: nan
// CHECK: check: result0 matches the golden run (within the bf16 tolerance)
"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<4x16xbf16>) -> tensor<4x16xbf16>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x16xbf16>):
    %0 = "stablehlo.constant"() <{value = dense<0xFF80> : tensor<bf16>}> : () -> tensor<bf16>
    %1 = "stablehlo.reduce"(%arg0, %0) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg3: tensor<bf16>, %arg4: tensor<bf16>):
      %17 = "stablehlo.maximum"(%arg3, %arg4) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
      "stablehlo.return"(%17) : (tensor<bf16>) -> ()
    }) : (tensor<4x16xbf16>, tensor<bf16>) -> tensor<4xbf16>
    %2 = "stablehlo.constant"() <{value = dense<0xFF80> : tensor<bf16>}> : () -> tensor<bf16>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<bf16>) -> tensor<4xbf16>
    %4 = "stablehlo.maximum"(%3, %1) : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xbf16>) -> tensor<4x1xbf16>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x1xbf16>) -> tensor<4x16xbf16>
    %7 = "stablehlo.subtract"(%arg0, %6) : (tensor<4x16xbf16>, tensor<4x16xbf16>) -> tensor<4x16xbf16>
    %8 = "stablehlo.exponential"(%7) : (tensor<4x16xbf16>) -> tensor<4x16xbf16>
    %9 = "stablehlo.convert"(%8) : (tensor<4x16xbf16>) -> tensor<4x16xf32>
    %10 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %11 = "stablehlo.reduce"(%9, %10) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %16 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%16) : (tensor<f32>) -> ()
    }) : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
    %12 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x1xf32>
    %13 = "stablehlo.convert"(%12) : (tensor<4x1xf32>) -> tensor<4x1xbf16>
    %14 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x1xbf16>) -> tensor<4x16xbf16>
    %15 = "stablehlo.divide"(%8, %14) : (tensor<4x16xbf16>, tensor<4x16xbf16>) -> tensor<4x16xbf16>
    "func.return"(%15) : (tensor<4x16xbf16>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()

