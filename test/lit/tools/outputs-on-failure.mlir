// RUN: cp %s %t.in.mlir
// RUN: not meshc-opt %t.in.mlir --split-input-file -o %t.in.mlir 2>&1 | filecheck %s --check-prefix=OPT
// RUN: diff %s %t.in.mlir
// RUN: echo kept > %t.out.mlir
// RUN: not meshc-opt %s --split-input-file -o %t.out.mlir 2>/dev/null
// RUN: filecheck %s --input-file %t.out.mlir --check-prefix=KEPT
// RUN: not meshc-import %s --split-input-file -o %t.out.mlir 2>/dev/null
// RUN: filecheck %s --input-file %t.out.mlir --check-prefix=KEPT
// RUN: not meshc-opt %s --split-input-file 2>/dev/null | filecheck %s --check-prefix=STDOUT

// Nothing lost: `meshc-opt F --split-input-file -o F` with one bad chunk exits 1 and leaves F as
// it was (it used to replace F with the good chunks alone); -o is written, through a temporary
// file renamed into place, only when every chunk succeeded (meshc-import alike). Without -o the
// good chunks still go to stdout, as mlir-opt prints them.
// OPT: outputs-on-failure.mlir.tmp.in.mlir:[[# @LINE + 12]]:20: error: Operation ttir.bogus is not registered
// KEPT: kept
// STDOUT: func.func @good
// STDOUT: // -----
// STDOUT: func.func @also_good
func.func @good(%x: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
}

// -----

func.func @bad() {
  %0 = "ttir.bogus"() : () -> ()
  func.return
}

// -----

func.func @also_good(%x: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
}
