// The bitwise ops and shifts work on the bits of integers: on floats they are refused, located,
// naming the type they got.
// RUN: meshc-opt --split-input-file --verify-diagnostics %s

func.func @main(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'ttir.bitwise_and' op takes integer tensors (it works on their bits), got tensor<4x8xf32>}}
  %0 = "ttir.bitwise_and"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @main(%a: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'ttir.bitwise_not' op takes integer tensors (it works on their bits), got tensor<4x8xbf16>}}
  %0 = "ttir.bitwise_not"(%a) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}

// -----

func.func @main(%a: tensor<4x8xi32>, %b: tensor<4x8xf32>) -> tensor<4x8xi32> {
  // expected-error @+1 {{'ttir.shift_left' op takes integer tensors (it works on their bits), got tensor<4x8xf32>}}
  %0 = "ttir.shift_left"(%a, %b) : (tensor<4x8xi32>, tensor<4x8xf32>) -> tensor<4x8xi32>
  return %0 : tensor<4x8xi32>
}
