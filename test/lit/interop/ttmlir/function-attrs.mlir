// tt-mlir's attributes on function arguments and results (#ttcore.shard_status, #ttcore.argument_type,
// #ttcore<local_shape ...>) are read as tt attributes and kept; unsharded arguments run as written.
// RUN: meshc-opt %S/Inputs/simple_add_2x4.mlir -p 'ttir-to-ttnn-pipeline{mesh-shape=2,4}' -o %t.mlir
// RUN: meshc-run %t.mlir --check | filecheck %s
// CHECK: check: result0: 0 of 2097152 elements differ
// RUN: meshc-opt %S/Inputs/multichip.mlir | filecheck %s --check-prefix=ATTR
// ATTR: ttcore.argument_type = #tt.argument_type<input>, ttcore.shard_status = #tt.shard_status<presharded>, ttcore.local_shape = #tt.local_shape<local_shape = tensor<5x128x512xbf16>>
// A presharded argument is one piece a device, placed before the program runs: presharded.mlir runs
// this file.
