// RUN: not meshc-opt %s -p 'tt-register-device{system=t3k mesh-shape=4,4}' 2>&1 | filecheck %s --check-prefix=CHIPS
// RUN: not meshc-opt %s -p 'tt-register-device{system=dgx}' 2>&1 | filecheck %s --check-prefix=NAME
// RUN: not meshc-opt %s -p 'tt-register-device{system="/nonexistent/sys.mlir"}' 2>&1 | filecheck %s --check-prefix=PATH
// RUN: not meshc-opt %s -p 'tt-register-device{system="%s"}' 2>&1 | filecheck %s --check-prefix=NOTSYS

// CHIPS: tt-register-device-errors.mlir:10:1: error: 'builtin.module' op mesh 4x4 needs 16 chips, but system 't3k' has 8 (chip mesh 2x4)
// NAME: error: 'builtin.module' op unknown system 'dgx'; expected one of n150, n300, t3k, galaxy, p150, bh_galaxy or a file path
// NOTSYS: error: 'builtin.module' op '{{.*}}tt-register-device-errors.mlir' does not hold a valid #tt.system_desc
// PATH: error: 'builtin.module' op cannot read system description '/nonexistent/sys.mlir': No such file or directory
module {
  func.func @f(%x: tensor<32x32xf32>) -> tensor<32x32xf32> {
    func.return %x : tensor<32x32xf32>
  }
}

// RUN: not meshc-opt %s -p 'tt-register-device{mesh-shape=9223372036854775807}' 2>&1 | filecheck %s --check-prefix=HUGE
// RUN: not meshc-opt %s -p 'ttir-to-ttmetal-pipeline{mesh-shape=64,65}' 2>&1 | filecheck %s --check-prefix=HUGE2
// A mesh beyond every named system gets a plain chip mesh of its shape, refused above
// MAX_DEVICES before its chips are enumerated (a MemoryError before the guard).
// HUGE: tt-register-device-errors.mlir:10:1: error: 'builtin.module' op no system for mesh 9223372036854775807: chip mesh 9223372036854775807 has 9223372036854775807 chips, more than meshc handles (4096, meshc.layout.limits.MAX_DEVICES)
// HUGE-NOT: internal error
// HUGE2: tt-register-device-errors.mlir:10:1: error: 'builtin.module' op no system for mesh 64x65: chip mesh 64x65 has 4160 chips, more than meshc handles (4096, meshc.layout.limits.MAX_DEVICES)
