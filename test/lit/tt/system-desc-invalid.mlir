// RUN: meshc-opt %s --split-input-file --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

// expected-error @+1 {{chip coordinate (0, 2) lies outside the chip mesh (1, 2)}}
module attributes {tt.system_desc = #tt.system_desc<meshShape = 1x2, chipDescs = [#tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 1499136, dramBanks = 12, dramBankSize = 1073741824>], chipDescIndices = [0, 0], chipCoords = [[0, 0], [0, 2]], links = [[0, 1]]>} {
}
// CHECK: system-desc-invalid.mlir:5:37: error: invalid attribute '#tt.system_desc': chip coordinate (0, 2) lies outside the chip mesh (1, 2)

// -----

// expected-error @+1 {{two chips of the system share a mesh coordinate}}
module attributes {tt.system_desc = #tt.system_desc<meshShape = 1x2, chipDescs = [#tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 1499136, dramBanks = 12, dramBankSize = 1073741824>], chipDescIndices = [0, 0], chipCoords = [[0, 1], [0, 1]], links = []>} {
}
// CHECK: system-desc-invalid.mlir:12:{{[0-9]+}}: error: {{.*}}two chips of the system share a mesh coordinate

// -----

// expected-error @+1 {{ethernet link (0, 2) must join two different chips of the 2 in the system}}
module attributes {tt.system_desc = #tt.system_desc<meshShape = 1x2, chipDescs = [#tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 1499136, dramBanks = 12, dramBankSize = 1073741824>], chipDescIndices = [0, 0], chipCoords = [[0, 0], [0, 1]], links = [[0, 2]]>} {
}
// CHECK: system-desc-invalid.mlir:19:{{[0-9]+}}: error: {{.*}}ethernet link (0, 2) must join two different chips of the 2 in the system

// -----

// expected-error @+1 {{chip 1 refers to chipDescs[1], but there are 1 chip descs}}
module attributes {tt.system_desc = #tt.system_desc<meshShape = 1x2, chipDescs = [#tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 1499136, dramBanks = 12, dramBankSize = 1073741824>], chipDescIndices = [0, 1], chipCoords = [[0, 0], [0, 1]], links = []>} {
}
// CHECK: system-desc-invalid.mlir:26:{{[0-9]+}}: error: {{.*}}chip 1 refers to chipDescs[1], but there are 1 chip descs

// -----

// expected-error @+1 {{chipDescIndices has 2 entries but chipCoords has 1; both list one entry per chip}}
module attributes {tt.system_desc = #tt.system_desc<meshShape = 1x2, chipDescs = [#tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 1499136, dramBanks = 12, dramBankSize = 1073741824>], chipDescIndices = [0, 0], chipCoords = [[0, 0]], links = []>} {
}
// CHECK: system-desc-invalid.mlir:33:{{[0-9]+}}: error: {{.*}}chipDescIndices has 2 entries but chipCoords has 1

// -----

// expected-error @+1 {{an ethernet link joins two chips, got [0, 1, 2]}}
module attributes {tt.system_desc = #tt.system_desc<meshShape = 1x2, chipDescs = [#tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 1499136, dramBanks = 12, dramBankSize = 1073741824>], chipDescIndices = [0, 0], chipCoords = [[0, 0], [0, 1]], links = [[0, 1, 2]]>} {
}
// CHECK: system-desc-invalid.mlir:40:{{[0-9]+}}: error: {{.*}}an ethernet link joins two chips, got [0, 1, 2]

// -----

// expected-error @+1 {{unknown architecture 'wormhole'; expected one of grayskull, wormhole_b0, blackhole}}
module attributes {c = #tt.chip_desc<arch = wormhole, grid = 8x8, l1Size = 1499136, dramBanks = 12, dramBankSize = 1073741824>} {
}
// CHECK: system-desc-invalid.mlir:47:{{[0-9]+}}: error: unknown architecture 'wormhole'; expected one of grayskull, wormhole_b0, blackhole

// -----

// expected-error @+1 {{dramBanks must be positive, got 0}}
module attributes {c = #tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 1499136, dramBanks = 0, dramBankSize = 1073741824>} {
}
// CHECK: system-desc-invalid.mlir:54:{{[0-9]+}}: error: {{.*}}dramBanks must be positive, got 0

// -----

// expected-error @+1 {{a chip's grid must be 2-d with positive sizes, got 8x8x2}}
module attributes {c = #tt.chip_desc<arch = wormhole_b0, grid = 8x8x2, l1Size = 1499136, dramBanks = 12, dramBankSize = 1073741824>} {
}
// CHECK: system-desc-invalid.mlir:61:{{[0-9]+}}: error: {{.*}}a chip's grid must be 2-d with positive sizes, got 8x8x2

// -----

// expected-error @+1 {{unknown system 't4k'}}
module attributes {tt.system_desc = #tt.system_desc<t4k>} {
}
// CHECK: system-desc-invalid.mlir:68:{{[0-9]+}}: error: unknown system 't4k'

// -----

// expected-error @+1 {{chipDescs lists #tt.chip_desc<...> attributes}}
module attributes {tt.system_desc = #tt.system_desc<meshShape = 1, chipDescs = [#tt.memory_space<l1>], chipDescIndices = [0], chipCoords = [[0]], links = []>} {
}
// CHECK: system-desc-invalid.mlir:75:{{[0-9]+}}: error: chipDescs lists #tt.chip_desc<...> attributes

// CHECK-NOT: Traceback

// -----

// A chip with more DRAM banks than meshc keeps allocators for (2**63: one allocator a bank would
// not fit in memory) is refused where the system is read.
// expected-error @+1 {{the chip at (0, 0) has 9223372036854775808 DRAM banks, more than meshc handles (1024, meshc.layout.limits.MAX_DRAM_BANKS)}}
module attributes {tt.system_desc = #tt.system_desc<meshShape = 1x1, chipDescs = [#tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 1499136, dramBanks = 9223372036854775808, dramBankSize = 1073741824>], chipDescIndices = [0], chipCoords = [[0, 0]], links = []>} {
}

// -----

// expected-error @+1 {{the grid 4194304x4194304 of the chip at (0, 0) has 17592186044416 cores, more than meshc handles (1048576, meshc.layout.limits.MAX_CORES)}}
module attributes {tt.system_desc = #tt.system_desc<meshShape = 1x1, chipDescs = [#tt.chip_desc<arch = wormhole_b0, grid = 4194304x4194304, l1Size = 1499136, dramBanks = 12, dramBankSize = 1073741824>], chipDescIndices = [0], chipCoords = [[0, 0]], links = []>} {
}
