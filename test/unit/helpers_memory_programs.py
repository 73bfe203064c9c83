"""Programs the memory-layout optimizer's tests share."""

THREE = """
func.func @main(%x: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %e = "ttir.exp"(%x) : (tensor<512x512xf32>) -> tensor<512x512xf32>
  %r = "ttir.relu"(%e) : (tensor<512x512xf32>) -> tensor<512x512xf32>
  %m = "ttir.matmul"(%e, %r) : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  %s = "ttir.add"(%m, %r) : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  func.return %s : tensor<512x512xf32>
}
"""
"""exp, relu, a matmul of the two and an add, on 512x512 f32 tensors (1 MiB each)."""
