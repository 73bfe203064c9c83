// --emit=ttmlir refuses a scan run from the end of its dim (meshc's `reverse`, what
// lax.cumsum(reverse=True) imports to): tt-mlir's cumsum / cumprod take only a dim, so printing it
// without the flag would make tt-mlir run it forwards (emit-scans.mlir: the forward ones).
// RUN: not meshc-opt %s --split-input-file --emit=ttmlir 2>&1 | filecheck %s --check-prefix=ERR
// RUN: not meshc-opt %s --split-input-file -p 'ttir-to-ttnn-pipeline{keep-reference=false}' --emit=ttmlir 2>&1 | filecheck %s --check-prefix=TTNN

func.func @reverse_cumsum(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // ERR: emit-reverse-scan-errors.mlir:[[# @LINE + 3]]:3: error: 'ttir.cumsum' op --emit=ttmlir: this scan runs from the end of dim 1 (reverse = true), which tt-mlir's cumsum / cumprod cannot say
  // TTNN: emit-reverse-scan-errors.mlir:[[# @LINE + 2]]:3: error: 'ttnn.cumsum' op --emit=ttmlir: this scan runs from the end of dim 1 (reverse = true)
  // ERR-NOT: internal error
  %0 = "ttir.cumsum"(%x) {dim = 1 : i64, reverse = true} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @reverse_cumprod(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // ERR: emit-reverse-scan-errors.mlir:[[# @LINE + 1]]:3: error: 'ttir.cumprod' op --emit=ttmlir: this scan runs from the end of dim 0 (reverse = true)
  %0 = "ttir.cumprod"(%x) {dim = 0 : i64, reverse = true} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
