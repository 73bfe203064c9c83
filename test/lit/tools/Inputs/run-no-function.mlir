module {
  func.func private @decl(tensor<4xf32>) -> tensor<4xf32>
}
