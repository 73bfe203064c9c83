// RUN: not meshc-opt %s -p 'ttir-to-ttnn-pipeline{spill-to-dram=true}' 2>&1 | filecheck %s

// A program that fits nowhere: on one wormhole_b0 chip (12 DRAM banks of 1 GiB), x and relu(x)
// are 65536x65536 bf16 = 2**22 tiles of 2048 B each. Too big for L1, both go to DRAM interleaved:
// each takes ceil(2**22 / 12) = 349,526 tiles = 715,829,248 B in every bank (x, fresh from the host,
// is kept row-major with 131,072 B pages: ceil(65536 / 12) = 5462 of them = 715,915,264 B). With
// relu's result live beside x a bank needs 1,431,744,512 B of its 1,073,741,824 B: 358,002,688 B
// short. The error is at the op whose tensor reaches the overflow, never a silent spill.
// CHECK: ttnn-check-dram.mlir:[[# @LINE + 4]]:5: error: 'ttnn.relu' op ttnn-check-l1: %g (65536x65536xbf16) does not fit in DRAM: it reserves 8,589,950,976 B of DRAM on each device (715,829,248 B in each of 12 banks), and with it each DRAM bank holds 1,431,744,512 B
// CHECK-SAME: but a wormhole_b0 chip has 12 banks of 1,073,741,824 B (12,884,901,888 B): 358,002,688 B a bank short
module {
  func.func @main(%x: tensor<65536x65536xbf16>) -> tensor<65536x65536xbf16> {
    %g = "ttir.relu"(%x) : (tensor<65536x65536xbf16>) -> tensor<65536x65536xbf16>
    return %g : tensor<65536x65536xbf16>
  }
}

