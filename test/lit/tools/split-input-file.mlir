// RUN: meshc-opt --split-input-file %s | filecheck %s
// RUN: not meshc-opt --split-input-file %s -p no-such-pass 2>&1 | filecheck %s --check-prefix=BADPASS

// CHECK: func.func @first
func.func @first() {
  func.return
}

// -----

// CHECK: // -----
// CHECK: func.func @second
func.func @second() {
  func.return
}

// BADPASS: error: {{.*}}no-such-pass

// RUN: not meshc-opt %s -p 'tt-register-device{system=/no/such/file}' 2>&1 | filecheck %s --check-prefix=BADSPEC
// BADSPEC: meshc-opt: error: invalid pass pipeline 'tt-register-device{system=/no/such/file}': {{.*}}Unknown token (quote option values that are paths
// BADSPEC-NOT: Traceback
