// RUN: meshc-run %s --check --progress 2>&1 >/dev/null | filecheck %s
// RUN: meshc-run %s --check 2>&1 >/dev/null | filecheck %s --check-prefix=QUIET --allow-empty

// --progress reports every long phase on stderr (here not a terminal: one line a phase at its end);
// simulating and the golden run count work (meshc/tools/run_progress.py op_work), not ops.
// CHECK: meshc-run: lowering: done in {{[0-9.]+}} s
// CHECK: meshc-run: simulating 100% of the work ([[N:[0-9]+]]/[[N]] ops), {{[0-9.]+}} s elapsed, done
// CHECK: meshc-run: golden 100% of the work (3/3 ops), {{[0-9.]+}} s elapsed, done
// CHECK: meshc-run: check 1/1 outputs (100%), {{[0-9.]+}} s elapsed, done
// Without --progress and without a terminal, stderr stays quiet.
// QUIET-NOT: meshc-run:
module {
  func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = "ttir.relu"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %1 = "ttir.exp"(%0) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %1 : tensor<64x64xf32>
  }
}
