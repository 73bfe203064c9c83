// RUN: sed 's/chipIds = \[4, 5, 6, 7\]/chipIds = [4, 1024, 6, 7]/' %examples/pipeline_parallel.mlir > %t.mlir
// RUN: not meshc-opt %t.mlir 2>&1 | filecheck %s
// RUN: not meshc-opt %t.mlir -p 'ttir-to-ttnn-pipeline{system=n300 mesh-shape=1,2}' 2>&1 | filecheck %s

// examples/pipeline_parallel.mlir with its second virtual device taking chip 1024 of an 8-chip t3k
// (the fuzz harness's mutation): the link check between stages indexed its distance table with
// the chip and raised IndexError (an internal error); the chip is refused where the devices are.
// CHECK: error: 'builtin.module' op tt.devices[1] is not a legal device on the system: chip id 1024 is not in the system, which has 8 chips
// CHECK-NOT: internal error
