// RUN: meshc-opt %s --split-input-file | filecheck %s
// RUN: meshc-opt %s --split-input-file --print-op-generic | meshc-opt --split-input-file | filecheck %s

// #tt.system_desc: chip kinds (arch, worker grid, L1 bytes a core, DRAM banks and bank size),
// which kind each chip is, where it sits in the chip mesh, and the ethernet links.

// A named wormhole_b0 system expands to the full form: 8x8 cores, 1,499,136 B of L1 a core,
// 12 DRAM banks of 1 GiB; n300 is two chips side by side, linked.
// CHECK: #system_desc = #tt.system_desc<meshShape = 1x2, chipDescs = [#tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 1499136, dramBanks = 12, dramBankSize = 1073741824>], chipDescIndices = [0, 0], chipCoords = [[0, 0], [0, 1]], links = [[0, 1]]>
// CHECK: builtin.module attributes {tt.system_desc = #system_desc}
module attributes {tt.system_desc = #tt.system_desc<n300>} {
}

// -----

// t3k: a 2x4 mesh, chips numbered row-major, links between mesh neighbours:
// along rows 0-1 1-2 2-3 4-5 5-6 6-7, along columns 0-4 1-5 2-6 3-7.
// CHECK: // -----
// CHECK: #system_desc = #tt.system_desc<meshShape = 2x4, chipDescs = [#tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 1499136, dramBanks = 12, dramBankSize = 1073741824>], chipDescIndices = [0, 0, 0, 0, 0, 0, 0, 0], chipCoords = [[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1], [1, 2], [1, 3]], links = [[0, 1], [0, 4], [1, 2], [1, 5], [2, 3], [2, 6], [3, 7], [4, 5], [5, 6], [6, 7]]>
module attributes {tt.system_desc = #tt.system_desc<t3k>} {
}

// -----

// The full form round-trips as written, here with two kinds of chip.
// CHECK: // -----
// CHECK: #system_desc = #tt.system_desc<meshShape = 2, chipDescs = [#tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 1499136, dramBanks = 12, dramBankSize = 1073741824>, #tt.chip_desc<arch = blackhole, grid = 10x13, l1Size = 1441792, dramBanks = 8, dramBankSize = 4294967296>], chipDescIndices = [0, 1], chipCoords = [[0], [1]], links = []>
module attributes {tt.system_desc = #tt.system_desc<
  meshShape = 2,
  chipDescs = [
    #tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 1499136, dramBanks = 12, dramBankSize = 1073741824>,
    #tt.chip_desc<arch = blackhole, grid = 10x13, l1Size = 1441792, dramBanks = 8, dramBankSize = 4294967296>
  ],
  chipDescIndices = [0, 1],
  chipCoords = [[0], [1]],
  links = []
>} {
}
