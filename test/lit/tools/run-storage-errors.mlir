// RUN: sed -e 's/bfp_bf8/bf16/' %s > %t.bad.mlir
// RUN: not meshc-opt %t.bad.mlir -p ttir-to-ttnn-pipeline 2>&1 | filecheck %s --check-prefix=BAD
// RUN: not meshc-run %s --target ttmetal 2>&1 | filecheck %s --check-prefix=METAL
// RUN: sed -e 's/"ttir.matmul"(%%x, %%w) :/"ttir.matmul"(%%x, %%w) {math_fidelity = "HiFi9"} :/' %s > %t.fid.mlir
// RUN: not meshc-run %t.fid.mlir 2>&1 | filecheck %s --check-prefix=FID
// RUN: sed -e 's/meshShape = 1x2, chipIds = \[0, 1\]/meshShape = 1x1, chipIds = [0]/' -e 's/8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)/8x8, (d0, d1) -> (0, d0, d1)/' %s > %t.one.mlir
// RUN: not meshc-run %t.one.mlir 2>&1 | filecheck %s --check-prefix=ONE

// tt.storage names a block-float format; the TTMetal pipeline and a one-device program do not
// carry it. Each refusal is located at the function; a math fidelity that is none of TT's four
// is refused at the matmul.
// BAD: run-storage-errors.mlir.tmp.bad.mlir:17:3: error: 'func.func' op tt.storage of argument #1 must be #tt.data_type<bfp_bf8> or #tt.data_type<bfp_bf4> (a block-float format weights are stored in), got #tt.data_type<bf16>
// METAL: run-storage-errors.mlir:17:3: error: 'func.func' op argument #1 is stored as bfp_bf8 (tt.storage), which ttir-to-ttmetal-pipeline does not carry (its mesh buffers hold the element type): lower with ttir-to-ttnn-pipeline, or drop tt.storage
// ONE: run-storage-errors.mlir.tmp.one.mlir:17:3: error: 'func.func' op argument #1 is stored as bfp_bf8 (tt.storage), but reaches the devices without a ttir.mesh_shard (a program on one device): tt.storage is carried on a mesh of more than one device
// FID: run-storage-errors.mlir.tmp.fid.mlir:18:5: error: 'ttnn.matmul' op math_fidelity 'HiFi9' is not one of LoFi, HiFi2, HiFi3, HiFi4
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @main(%x: tensor<64x128xf32>, %w: tensor<128x256xf32> {tt.storage = #tt.data_type<bfp_bf8>}) -> tensor<64x256xf32> {
    %y = "ttir.matmul"(%x, %w) : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
    return %y : tensor<64x256xf32>
  }
}
