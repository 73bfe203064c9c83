// RUN: not meshc-opt %s -p 'tt-register-device{mesh-shape=0}' 2>&1 | filecheck %s --check-prefix=ZERO
// RUN: not meshc-opt %s -p 'ttir-to-ttnn-pipeline{system=t3k mesh-shape=-9223372036854775808,4}' 2>&1 | filecheck %s --check-prefix=NEG
// RUN: not meshc-opt %s -p 'ttir-to-ttnn-pipeline{system=dgx}' 2>&1 | filecheck %s --check-prefix=SYSTEM
// RUN: not meshc-opt %s -p 'ttir-to-ttnn-pipeline{system=n300 mesh-shape=2,4}' 2>&1 | filecheck %s --check-prefix=CHIPS
// RUN: not meshc-opt %s -p 'ttir-layout{memory-space=sram}' 2>&1 | filecheck %s --check-prefix=SPACE
// RUN: not meshc-opt %s -p 'ttir-layout{memory-layout=block_sharded}' 2>&1 | filecheck %s --check-prefix=LAYOUT
// RUN: not meshc-opt %s -p 'tt-register-device{system=n300 mesh-shape=1,2},tt-register-device{system=t3k mesh-shape=2,2}' 2>&1 | filecheck %s --check-prefix=OTHER
// RUN: printf '\n// only a comment\n' > %t.comments.mlir
// RUN: not meshc-opt %t.comments.mlir -p 'tt-register-device{mesh-shape=0}' 2>&1 | filecheck %s --check-prefix=EMPTY
// RUN: printf '' > %t.empty.mlir
// RUN: not meshc-opt %t.empty.mlir -p 'tt-register-device{system=dgx}' 2>&1 | filecheck %s --check-prefix=NOTHING
// RUN: printf '// first chunk\n// -----\n\n// second chunk\n// -----\nfunc.func @f() {\n  return\n}\n' > %t.split.mlir
// RUN: not meshc-opt --split-input-file %t.split.mlir -p 'tt-register-device{mesh-shape=0}' 2>&1 | filecheck %s --check-prefix=SPLIT
// RUN: not meshc-run %t.comments.mlir 2>&1 | filecheck %s --check-prefix=EXEC
// RUN: not meshc-viz %t.comments.mlir --text 2>&1 | filecheck %s --check-prefix=VIZ
// RUN: not meshc-import %t.comments.mlir 2>&1 | filecheck %s --check-prefix=IMPORT
// RUN: not meshc-import %s --entry h 2>&1 | filecheck %s --check-prefix=IMPORT2

// Input without an explicit `module` op is wrapped in an implicit one, which mlir-opt places
// at file:0:0. A module-level error (a pass option such as mesh-shape=0, an unknown system, a
// mesh larger than the system, a module already on another device) is reported at the
// module's first operation instead; when the input holds no operation (comments only, or
// nothing), at its first comment, else at line 1; with --split-input-file, in the chunk.

// ZERO: implicit-module-location.mlir:38:1: error: 'builtin.module' op mesh-shape 0 must have positive sizes
// ZERO-NEXT: func.func @f(
// ZERO-NEXT: ^
// NEG: implicit-module-location.mlir:38:1: error: 'builtin.module' op mesh-shape -9223372036854775808x4 must have positive sizes
// SYSTEM: implicit-module-location.mlir:38:1: error: 'builtin.module' op unknown system 'dgx'
// CHIPS: implicit-module-location.mlir:38:1: error: 'builtin.module' op mesh 2x4 needs 8 chips, but system 'n300' has 2
// SPACE: implicit-module-location.mlir:38:1: error: 'builtin.module' op ttir-layout: memory-space must be l1 or dram, got 'sram'
// LAYOUT: implicit-module-location.mlir:38:1: error: 'builtin.module' op ttir-layout: memory-layout must be sharded or interleaved, got 'block_sharded'
// OTHER: implicit-module-location.mlir:38:1: error: 'builtin.module' op the module already runs on the device
// IMPORT2: implicit-module-location.mlir:38:1: error: 'builtin.module' op the module has no function @h; it has @f, @g
// EMPTY: comments.mlir:2:1: error: 'builtin.module' op mesh-shape 0 must have positive sizes
// EMPTY-NEXT: // only a comment
// NOTHING: empty.mlir:1:1: error: 'builtin.module' op unknown system 'dgx'
func.func @f(%a: tensor<32x32xf32>) -> tensor<32x32xf32> {
  return %a : tensor<32x32xf32>
}
func.func @g(%a: tensor<32x32xf32>) -> tensor<32x32xf32> {
  return %a : tensor<32x32xf32>
}

// SPLIT: split.mlir:1:1: error: 'builtin.module' op mesh-shape 0
// SPLIT: split.mlir:4:1: error: 'builtin.module' op mesh-shape 0
// SPLIT: split.mlir:6:1: error: 'builtin.module' op mesh-shape 0
// EXEC: comments.mlir:2:1: error: the module has no function to run
// VIZ: comments.mlir:2:1: error: 'builtin.module' op the module has no tensor value to draw
// IMPORT: comments.mlir:2:1: error: 'builtin.module' op the module has no public function to import
