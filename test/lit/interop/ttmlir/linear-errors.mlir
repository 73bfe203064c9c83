// ttir.linear's verifier refuses what tt-mlir's TTIR LinearOp::verify refuses, in its words and its
// order (tt-mlir has no negative test file for linear; these inputs are written for meshc). The
// positive cases at the end are shapes tt-mlir's verifier accepts: a vector a (1 prepended, then
// dropped), transposes, batch dims that broadcast, a vector-vector product as tensor<1>.
// RUN: meshc-opt --split-input-file --verify-diagnostics %s

func.func @rank0_a(%a: tensor<f32>, %b: tensor<4x8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{Input A must be at least a 1D tensor}}
  %0 = "ttir.linear"(%a, %b) : (tensor<f32>, tensor<4x8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @rank0_b(%a: tensor<4x8xf32>, %b: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{Input B must be at least a 1D tensor}}
  %0 = "ttir.linear"(%a, %b) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @inner(%a: tensor<4x8xf32>, %b: tensor<6x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{Input A[-1](8) and B[-2](6) must have matching inner dimensions}}
  %0 = "ttir.linear"(%a, %b) : (tensor<4x8xf32>, tensor<6x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @inner_transposed(%a: tensor<8x4xf32>, %b: tensor<16x8xf32>) -> tensor<4x16xf32> {
  // transpose_a makes a 4x8 and b stays 16x8: K 8 against B[-2] 16
  // expected-error @+1 {{Input A[-1](8) and B[-2](16) must have matching inner dimensions}}
  %0 = "ttir.linear"(%a, %b) <{transpose_a = true}> : (tensor<8x4xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @batch(%a: tensor<2x4x8xf32>, %b: tensor<3x8x16xf32>) -> tensor<3x4x16xf32> {
  // expected-error @+1 {{Batch dimensions of input A(2) and B(3) are not broadcast compatible}}
  %0 = "ttir.linear"(%a, %b) : (tensor<2x4x8xf32>, tensor<3x8x16xf32>) -> tensor<3x4x16xf32>
  return %0 : tensor<3x4x16xf32>
}

// -----

func.func @bias_rank0(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %bias: tensor<f32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{Bias must be at least a 1D tensor}}
  %0 = "ttir.linear"(%a, %b, %bias) : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @bias_shape(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %bias: tensor<12xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{Bias shape(12) is not broadcast compatible with the matmul output shape(4,16)}}
  %0 = "ttir.linear"(%a, %b, %bias) : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<12xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @scalar_rank(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<1x1xf32> {
  // expected-error @+1 {{Scalar output must be a 1D tensor of size 1}}
  %0 = "ttir.linear"(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

// -----

func.func @scalar_rank0(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<f32> {
  // expected-error @+1 {{Scalar output is not supported, output must be at least a 1D tensor}}
  %0 = "ttir.linear"(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @out_rank(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %bias: tensor<2x1x16xf32>) -> tensor<4x16xf32> {
  // the bias broadcasts the product to 2x4x16
  // expected-error @+1 {{Output shape rank(2) must match the expected output shape rank(3)}}
  %0 = "ttir.linear"(%a, %b, %bias) : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<2x1x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @out_dim(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x32xf32> {
  // expected-error @+1 {{Output shape dimension[1](32) doesn't match the expected output shape dimension[1](16)}}
  %0 = "ttnn.linear"(%a, %b) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}

// -----

func.func @activation(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{activation "relu": meshc does not run a fused activation; write it as its own op after the linear}}
  %0 = "ttnn.linear"(%a, %b) <{activation = "relu"}> : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @accepted(%v: tensor<8xf32>, %a: tensor<8x4xf32>, %b: tensor<16x8xf32>, %bias: tensor<16xf32>,
                    %p: tensor<2x4x8xf32>, %q: tensor<1x8x16xf32>) -> (tensor<16xf32>, tensor<4x16xf32>, tensor<2x4x16xf32>, tensor<1xf32>) {
  %0 = "ttir.linear"(%v, %b, %bias) <{transpose_b = true}> : (tensor<8xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<16xf32>
  %1 = "ttir.linear"(%a, %b, %bias) <{transpose_a = true, transpose_b = true}> : (tensor<8x4xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %2 = "ttir.linear"(%p, %q) : (tensor<2x4x8xf32>, tensor<1x8x16xf32>) -> tensor<2x4x16xf32>
  %3 = "ttir.linear"(%v, %v) : (tensor<8xf32>, tensor<8xf32>) -> tensor<1xf32>
  return %0, %1, %2, %3 : tensor<16xf32>, tensor<4x16xf32>, tensor<2x4x16xf32>, tensor<1xf32>
}
