// RUN: printf '' | meshc-opt | filecheck %s
// RUN: meshc-opt %s | filecheck %s
// RUN: printf '// -----\n// only a comment\n' | meshc-opt --split-input-file | filecheck %s --check-prefix=SPLIT

// Empty or comment-only input is an empty module (as mlir-opt reads it).
// CHECK: builtin.module {
// CHECK-NEXT: }
// SPLIT: builtin.module {
// SPLIT-NEXT: }
// SPLIT-NEXT: // -----
// SPLIT-NEXT: builtin.module {
// SPLIT-NEXT: }
