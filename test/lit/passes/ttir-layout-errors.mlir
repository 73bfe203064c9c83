// RUN: not meshc-opt %s -p 'ttir-layout{memory-space=sram}' 2>&1 | filecheck %s --check-prefix=SPACE
// RUN: not meshc-opt %s -p 'ttir-layout{memory-layout=striped}' 2>&1 | filecheck %s --check-prefix=KIND
// RUN: not meshc-opt %s -p 'ttir-layout' 2>&1 | filecheck %s --check-prefix=DTYPE

// SPACE: error: 'builtin.module' op ttir-layout: memory-space must be l1 or dram, got 'sram'
// KIND: error: 'builtin.module' op ttir-layout: memory-layout must be sharded or interleaved, got 'striped'
// DTYPE: ttir-layout-errors.mlir:9:3: error: 'ttir.exp' op ttir-layout: element type f64 has no device data type
func.func @f(%a: tensor<64x256xf64>) {
  %0 = "ttir.exp"(%a) : (tensor<64x256xf64>) -> tensor<64x256xf64>
  func.return
}
