// RUN: not meshc-opt --split-input-file %s 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=ERR < %t.err

// --split-input-file prints every good chunk, separated by `// -----`, reports the bad ones on
// stderr and exits 1 (the good output is not thrown away with them).
// CHECK: func.func @first
// CHECK-NEXT: func.return
// CHECK: // -----
// CHECK-NEXT: builtin.module {
// CHECK-NEXT: func.func @third
// CHECK-NOT: @second
// ERR: opt-split-input-file-errors.mlir:21:20: error: Expected argument or type
// ERR-NOT: @first

func.func @first() {
  func.return
}

// -----

func.func @second( {
  func.return
}

// -----

func.func @third() {
  func.return
}
