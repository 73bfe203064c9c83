func.func @f(%a: tensor<4x8xf32>, %b: tensor<4x4xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{operand shapes (4, 8) and (4, 4) do not broadcast: dim 1 is 8 against 4}}
  %0 = "ttir.eq"(%a, %b) : (tensor<4x8xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @f(%c: tensor<4x8xf32>, %a: tensor<4x8xbf16>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{on_true has element type bf16, the result f32}}
  %0 = "ttir.where"(%c, %a, %b) : (tensor<4x8xf32>, tensor<4x8xbf16>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @f(%c: tensor<4x1xf32>, %a: tensor<1x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{result shape (4, 4) does not match the expected shape (4, 8)}}
  %0 = "ttir.where"(%c, %a, %b) : (tensor<4x1xf32>, tensor<1x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
