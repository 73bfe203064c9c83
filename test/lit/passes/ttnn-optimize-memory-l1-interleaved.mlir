// RUN: meshc-opt %s -p ttir-to-ttnn-pipeline | filecheck %s
// RUN: meshc-run %s --check --report | filecheck %s --check-prefix=SIM

// L1 interleaved, one of ttnn-optimize-memory's places: pages round-robin over the L1 of the
// chip's 64 cores (512x512 f32: 256 tiles of 4,096 B, 4 a core = 16,384 B on every core). A
// matmul whose result is interleaved computes on the chip's 8x8 grid and reads A and B once;
// block-sharded over 8x8 it reads A once per column and B once per row. %m = %e @ %r with both
// operands in L1 (wormhole_b0: 28.1 B a cycle a core on the NoC at 1 GHz, an f32 tile product
// 76 cycles, launch 5 us, op = launch + max(compute, movement) + 0.6 x min): 16 x 16 x 16 tile
// products / 64 cores x 76 cycles = 4.864 us of compute either way; interleaved 2 x 1,048,576 B
// over the NoC (1.166 us): 5 + 4.864 + 0.6 x 1.166 = 10.564 us; block-sharded 16 x 1,048,576 B
// (9.329 us): 5 + 9.329 + 0.6 x 4.864 = 17.247 us. %m goes to L1 interleaved, the simulator
// times the matmul so, and the result is the golden run's.
// CHECK-DAG: #[[I:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<tile<32x32>, f32, #ttnn.memory_config<#ttnn.buffer_type<l1>, <interleaved>>>
// CHECK: %m = "ttnn.matmul"(%e, %r) : ({{.*}}) -> tensor<512x512xf32, #[[I]]>
// SIM: │ 3 │ ttnn.matmul {{ +}}│ {{.*}} │ 10.564 │
// SIM: %m (512x512xf32): l1_interleaved, 16,384 B a core on 64 cores, {{[0-9.]+}} us: the least modelled time
// SIM-NEXT: other places: l1_block_sharded {{[0-9.]+}} us
// SIM: check: result0 matches the golden run
func.func @main(%x: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %e = "ttir.exp"(%x) : (tensor<512x512xf32>) -> tensor<512x512xf32>
  %r = "ttir.relu"(%e) : (tensor<512x512xf32>) -> tensor<512x512xf32>
  %m = "ttir.matmul"(%e, %r) : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  %s = "ttir.add"(%m, %r) : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  func.return %s : tensor<512x512xf32>
}
