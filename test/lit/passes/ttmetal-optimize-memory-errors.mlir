// RUN: not meshc-opt %s -p 'ttir-to-ttmetal-pipeline{check-l1=false}' --split-input-file 2>&1 | filecheck %s

// A buffer no place holds, not even DRAM: 65536x65536 f32 is 16 GiB a device; interleaved over
// a wormhole_b0 chip's 12 DRAM banks it needs ceil(4,194,304 tiles / 12) = 349,526 tiles of
// 4,096 B = 1,431,658,496 B a bank, over a bank's 1,073,741,824 B. The error is at the op whose
// buffer it is, names the buffer, what each place needs and what the chip has.
// CHECK: ttmetal-optimize-memory-errors.mlir:[[# @LINE + 4]]:5: error: 'ttmetal.create_buffer' op ttmetal-optimize-memory: buffer 0 (65536x65536xf32, %x from the host) fits nowhere:
// CHECK-SAME: dram_interleaved: does not fit: interleaved 65536x65536xf32 needs 1431658496 B on DRAM bank 0, but a wormhole_b0 DRAM bank holds 1073741824 B
// CHECK-SAME: a wormhole_b0 chip has 1,499,136 B of L1 a core and 12 DRAM banks of 1,073,741,824 B: split it over more devices (a larger mesh) or make it smaller
func.func @nowhere(%x: tensor<65536x65536xf32>) -> tensor<65536x65536xf32> {
    %e = "ttir.exp"(%x) : (tensor<65536x65536xf32>) -> tensor<65536x65536xf32>
    func.return %e : tensor<65536x65536xf32>
}

// -----

// A buffer the placement model cannot lay out at all (more pages than meshc handles): located at
// its op, named.
// CHECK: ttmetal-optimize-memory-errors.mlir:[[# @LINE + 3]]:5: error: 'ttmetal.create_buffer' op ttmetal-optimize-memory: buffer 0 (1000000000x1000000000xf32, %x from the host) cannot be placed: tensor 1000000000x1000000000 has 976562500000000 pages, more than meshc handles
// CHECK-NOT: Traceback
func.func @huge(%x: tensor<1000000000x1000000000xf32>) -> tensor<1000000000x1000000000xf32> {
    %e = "ttir.exp"(%x) : (tensor<1000000000x1000000000xf32>) -> tensor<1000000000x1000000000xf32>
    func.return %e : tensor<1000000000x1000000000xf32>
}
