// RUN: not meshc-import %s 2>&1 | filecheck %s
// RUN: not meshc-opt %s --allow-unregistered-dialect 2>&1 | filecheck %s --check-prefix=OPT

// A module whose body holds a second block (the fuzz harness made it by swapping lines): reading
// tt-mlir's ttcore.device_module wrapper after parsing asked the module for its one block, which
// raises on two (an internal ValueError under meshc-import). It is the module's located error.
// CHECK: module-blocks.mlir:[[# @LINE + 4]]:1: error: 'builtin.module' op the module's body has 2 blocks; a module holds one
// CHECK-NOT: internal error
// OPT: module-blocks.mlir:[[# @LINE + 2]]:1: error: 'builtin.module' op
// OPT-NOT: internal error
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "main"}> ({
  }) : () -> ()
^bb0:
}) : () -> ()
