// RUN: meshc-opt %s -p 'ttnn-optimize-memory,ttnn-check-l1' --split-input-file | filecheck %s
// RUN: meshc-opt %s -p 'ttnn-optimize-memory{reshard=false}' --split-input-file | filecheck %s --check-prefix=OFF
// RUN: sed '/^\/\/ -----/,$d' %s > %t.in.mlir
// RUN: meshc-opt %t.in.mlir -p ttnn-optimize-memory -o %t.mlir
// RUN: meshc-run %t.mlir --check --report | filecheck %s --check-prefix=SIM
// RUN: meshc-opt %t.in.mlir -p 'ttnn-optimize-memory{reshard=false}' -o %t.off.mlir
// RUN: meshc-run %t.off.mlir --report | filecheck %s --check-prefix=SIMOFF

// ttnn-optimize-memory's reshard phase: after every tensor has its place, a copy of a tensor
// into the L1 place one compute op reads it fastest from (a ttnn.to_memory_config just before
// that op, which reads the copy), when the copy and the op reading it take less modelled time
// than the op reading the tensor where it is, and L1 holds the copy.
//
// A chip whose cores hold 32,768 B of L1 (wormhole_b0 otherwise: 8x8 cores, DRAM 288 GB/s, a
// core reads DRAM at 23.2 B a cycle and puts 28.1 B a cycle on the NoC at 1 GHz, an op's launch
// 5 us; op time = launch + max(compute, DRAM, NoC) + 0.6 x min(compute, movement)).
// %big (1024x1024 bf16 block-sharded over 8x8 cores, 128 x 128 x 2 = 32,768 B a core) is kept in
// L1 (%big2 reads it as the same buffer) and fills every core's L1 while it lives (its
// to_device to the relu). %a (32x1024 bf16, 65,536 B, live from its to_device to the matmul)
// has no room in L1 there and goes to DRAM; %w (1024x2048 bf16, 4,194,304 B: 65,536 B a core
// in any L1 layout) fits no core's L1. %m = %a @ %w (32x2048) is width-sharded over the 64
// cores (a 1x64 grid): each core does 1 x 1 x 32 tile products at bf16 HiFi4's 64 / 0.95
// cycles = 2.156 us (on an interleaved result's 8x8 grid, 8 x 32 products: 17.25 us); it
// reads A once per grid column (64 times) and W once per row (once), both from DRAM:
// 64 x 65,536 + 4,194,304 = 8,388,608 B at 288 GB/s (64 readers x 23.2 B a cycle is more) =
// 29.127 us, so the matmul takes 5 + 29.127 + 0.6 x 2.156 = 35.421 us.
// Copied into L1 just before the matmul (%big is freed by then; block-sharded, %a's 32 rows of
// 2,048 B on 8 cores, 8,192 B a core) the copy reads 65,536 B from DRAM (0.228 us) and writes
// them to L1: 5.228 us; the matmul then reads only W from DRAM, 14.564 us: 5 + 14.564 + 1.294 =
// 20.857 us. 5.228 + 20.857 = 26.085 < 35.421: the copy saves 9.336 us. ttnn-check-l1 (strict)
// agrees that L1 holds it. (%a stays where to_device puts it without a memory_config:
// DRAM interleaved.)
// CHECK-LABEL: func.func @main
// CHECK: %a = "ttnn.to_device"(%xa, %d) : (tensor<32x1024xbf16>, !ttnn.device)
// CHECK: %r = "ttnn.relu"(%big2)
// CHECK-NEXT: %rh = "ttnn.from_device"(%r)
// CHECK-NEXT: %a_l1_block_sharded = "ttnn.to_memory_config"(%a) {memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (7, 0)>]>, <4x1024>, <row_major>>>}
// CHECK-NEXT: %m = "ttnn.matmul"(%a_l1_block_sharded, %w) {memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <width_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (7, 7)>]>, <32x32>, <row_major>>>}
// OFF-LABEL: func.func @main
// OFF-NOT: ttnn.to_memory_config"(%a)
// OFF: %m = "ttnn.matmul"(%a, %w)
// The simulated results are exact and the simulator times the copy and the matmul as the plan
// did; the report names the copy and what it saves.
// SIM: │ 6 │ ttnn.to_memory_config │ {{.*}} │ 5.228 │
// SIM-NEXT: │ 7 │ ttnn.matmul {{ +}}│ {{.*}} │ 20.857 │
// SIM: Reshards
// SIM-NEXT: %a (32x1024xbf16): dram_interleaved -> l1_block_sharded before 'ttnn.matmul' %m (line {{[0-9]+}}): saves 9.336 us (copy 5.228 us, 35.421 -> 20.857 us)
// SIM: check: result0 matches the golden run
// SIM: check: result1 matches the golden run
// SIMOFF: │ 6 │ ttnn.matmul {{ +}}│ {{.*}} │ 35.421 │
// SIMOFF-NOT: Reshards
#block = #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (7, 7)>]>, <128x128>, <row_major>>>
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1x1, chipIds = [0]>,
                   tt.system_desc = #tt.system_desc<meshShape = 1x1, chipDescs = [#tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 32768, dramBanks = 12, dramBankSize = 1073741824>], chipDescIndices = [0], chipCoords = [[0, 0]], links = []>} {
  func.func @main(%xa: tensor<32x1024xbf16>, %xw: tensor<1024x2048xbf16>, %xb: tensor<1024x1024xbf16>) -> (tensor<1024x1024xbf16>, tensor<32x2048xbf16>) {
    %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
    %a = "ttnn.to_device"(%xa, %d) : (tensor<32x1024xbf16>, !ttnn.device) -> tensor<32x1024xbf16>
    %w = "ttnn.to_device"(%xw, %d) : (tensor<1024x2048xbf16>, !ttnn.device) -> tensor<1024x2048xbf16>
    %big = "ttnn.to_device"(%xb, %d) {memory_config = #block} : (tensor<1024x1024xbf16>, !ttnn.device) -> tensor<1024x1024xbf16>
    %big2 = "ttnn.to_memory_config"(%big) {memory_config = #block} : (tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16>
    %r = "ttnn.relu"(%big2) : (tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16>
    %rh = "ttnn.from_device"(%r) : (tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16>
    %m = "ttnn.matmul"(%a, %w) : (tensor<32x1024xbf16>, tensor<1024x2048xbf16>) -> tensor<32x2048xbf16>
    %mh = "ttnn.from_device"(%m) : (tensor<32x2048xbf16>) -> tensor<32x2048xbf16>
    func.return %rh, %mh : tensor<1024x1024xbf16>, tensor<32x2048xbf16>
  }
  module attributes {meshc.reference} {
    func.func @main(%xa: tensor<32x1024xbf16>, %xw: tensor<1024x2048xbf16>, %xb: tensor<1024x1024xbf16>) -> (tensor<1024x1024xbf16>, tensor<32x2048xbf16>) {
      %r = "ttir.relu"(%xb) : (tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16>
      %m = "ttir.matmul"(%xa, %xw) : (tensor<32x1024xbf16>, tensor<1024x2048xbf16>) -> tensor<32x2048xbf16>
      func.return %r, %m : tensor<1024x1024xbf16>, tensor<32x2048xbf16>
    }
  }
}

// -----

// A copy that would pay but does not fit: on cores of 34,816 B, %big (32,768 B a core, kept) is
// live at the matmul too (the relu reads it after), and so is %m, kept width-sharded (%m2
// reads it as the same buffer): 2,048 B a core on every core, the L1 full. %a goes to DRAM as
// above; a copy in any L1 place of it (at least 2,048 B on some core) overflows, so none is made
// and the matmul reads %a from DRAM. (Without the L1 check the copy is made: it saves 9.336 us.)
// CHECK-LABEL: func.func @main
// CHECK-NOT: ttnn.to_memory_config"(%a)
// CHECK: %m = "ttnn.matmul"(%a, %w)
#block = #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (7, 7)>]>, <128x128>, <row_major>>>
#width = #ttnn.memory_config<#ttnn.buffer_type<l1>, <width_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (7, 7)>]>, <32x32>, <row_major>>>
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1x1, chipIds = [0]>,
                   tt.system_desc = #tt.system_desc<meshShape = 1x1, chipDescs = [#tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 34816, dramBanks = 12, dramBankSize = 1073741824>], chipDescIndices = [0], chipCoords = [[0, 0]], links = []>} {
  func.func @main(%xa: tensor<32x1024xbf16>, %xw: tensor<1024x2048xbf16>, %xb: tensor<1024x1024xbf16>) -> (tensor<1024x1024xbf16>, tensor<32x2048xbf16>) {
    %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
    %a = "ttnn.to_device"(%xa, %d) : (tensor<32x1024xbf16>, !ttnn.device) -> tensor<32x1024xbf16>
    %w = "ttnn.to_device"(%xw, %d) : (tensor<1024x2048xbf16>, !ttnn.device) -> tensor<1024x2048xbf16>
    %big = "ttnn.to_device"(%xb, %d) {memory_config = #block} : (tensor<1024x1024xbf16>, !ttnn.device) -> tensor<1024x1024xbf16>
    %big2 = "ttnn.to_memory_config"(%big) {memory_config = #block} : (tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16>
    %m = "ttnn.matmul"(%a, %w) {memory_config = #width} : (tensor<32x1024xbf16>, tensor<1024x2048xbf16>) -> tensor<32x2048xbf16>
    %m2 = "ttnn.to_memory_config"(%m) {memory_config = #width} : (tensor<32x2048xbf16>) -> tensor<32x2048xbf16>
    %r = "ttnn.relu"(%big2) : (tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16>
    %rh = "ttnn.from_device"(%r) : (tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16>
    %mh = "ttnn.from_device"(%m2) : (tensor<32x2048xbf16>) -> tensor<32x2048xbf16>
    func.return %rh, %mh : tensor<1024x1024xbf16>, tensor<32x2048xbf16>
  }
}
