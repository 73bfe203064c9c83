// RUN: python %S/Inputs/doc_blocks.py %S/../../../docs/tt-dialect.md | meshc-opt --split-input-file | filecheck %s

// Every ```mlir block of docs/tt-dialect.md parses, verifies and prints.

// CHECK: #device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chipIds = [0]>
// CHECK: func.func private @staircase()
// CHECK: // -----
// CHECK: builtin.module attributes {tt.system_desc = #system_desc}
// CHECK: // -----
// CHECK: func.func private @tiles() -> () attributes {t = !tt.tile<32x32, bfp_bf8>, s = #tt.memory_space<dram>, o = #tt.oob_val<neginf>, d = #tt.data_type<si32>}
// CHECK: // -----
// CHECK: #layout = #tt.metal_layout<(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3), undef, <2x4>, memref<6x1x!tt.tile<32x32, f32>, #tt.memory_space<l1>>>
// CHECK: // -----
// CHECK: func.func @data_parallel_over_batch
// CHECK: // -----
// CHECK: builtin.module attributes {tt.device = #device, tt.system_desc = #system_desc}
