// RUN: meshc-opt %s --verify-diagnostics -p 'convert-ttir-to-ttmetal'

func.func @f(%a: tensor<64x64xf32>) {
  // expected-error @+1 {{convert-ttir-to-ttmetal: the result tensor<64x64xf32> has no #tt.metal_layout; run ttir-layout first}}
  %0 = "ttir.exp"(%a) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  func.return
}
