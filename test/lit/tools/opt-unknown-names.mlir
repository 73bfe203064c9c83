// RUN: not meshc-opt %s -p ttir-layot 2>&1 | filecheck %s --check-prefix=PASS
// RUN: not meshc-opt %s -p 'tt-register-device{sytem=t3k}' 2>&1 | filecheck %s --check-prefix=OPT
// RUN: not meshc-opt %s -p 'zzzz' 2>&1 | filecheck %s --check-prefix=FAR

// Unknown pass and option names: one line, the closest known name, exit 1, no traceback.
// PASS: meshc-opt: error: unknown pass 'ttir-layot'; did you mean 'ttir-layout'? (meshc-opt --list-passes lists the passes)
// OPT: meshc-opt: error: pass 'tt-register-device' has no option 'sytem'; did you mean 'system'? (its options: mesh-shape, system)
// FAR: meshc-opt: error: unknown pass 'zzzz' (meshc-opt --list-passes lists the passes)
// PASS-NOT: Traceback

module {
}
