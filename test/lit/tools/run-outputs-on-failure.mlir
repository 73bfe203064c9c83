// RUN: rm -rf %t.saved %t.json %t.trace %t.checked
// RUN: not meshc-run %s --split-input-file --entry first --save-outputs %t.saved --report-json %t.json --trace %t.trace 2>&1 | filecheck %s
// RUN: not ls %t.saved %t.json %t.trace
// RUN: not meshc-run %S/Inputs/run-relu-ttnn.mlir --golden %S/Inputs/run-golden-exp.mlir --check --save-outputs %t.checked --report-json %t.json 2>&1 | filecheck %s --check-prefix=CHECKED
// RUN: not ls %t.checked %t.json
// RUN: meshc-run %s --split-input-file --save-outputs %t.saved --report-json %t.json 2>&1 | filecheck %s --check-prefix=OK
// RUN: ls %t.saved | filecheck %s --check-prefix=SAVED
// RUN: filecheck %s --input-file %t.json --check-prefix=JSON

// --save-outputs, --report-json and --trace write nothing after a failed module (here the second,
// which has no @first) or a failed
// --check: they used to save the modules that ran before the failure (and the failed check's
// outputs), leaving files that look like a good run's. When every module runs (and checks), each
// file is written whole, through a temporary file renamed into place.
// CHECK: error: no function @first in the module (functions: @second)
// CHECK: meshc-run: no output files written (--save-outputs, --report-json, --trace): the run failed
// CHECKED: check: MISMATCH at result0
// CHECKED: meshc-run: no output files written (--save-outputs, --report-json, --trace): the run failed
// OK-NOT: error
// SAVED: first.result0.npy
// SAVED-NEXT: second.result0.npy
// JSON: "ops"
func.func @first(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = "ttir.relu"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// -----

func.func @second(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = "ttir.relu"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
