// RUN: meshc-opt %examples/transformer_stack_galaxy.mlir -p 'ttir-split-stages{stages=4 stage-mesh=2,4 system=galaxy}' -o %t.mlir
// RUN: filecheck %s < %t.mlir
// RUN: meshc-run %t.mlir --abstract --report | filecheck %s --check-prefix=SIM

// Eight transformer blocks cut into four stages on a galaxy's four 2x4 submeshes (rows 2k and
// 2k+1 of its 8x4 chip mesh: chips 8k to 8k+7). Each stage is two blocks: the two wide blocks
// (512 hidden units, blocks 2 and 5) land in different stages, stages 1 and 2.
// CHECK: tt.devices = [#device, #device1, #device2, #device3]
// CHECK: func.func @stage0
// CHECK: func.func @stage3
// CHECK: tt.split_stages = [{layers = ["block128", "block128"], {{.*}}chips = [0 : i64, 1 : i64, 2 : i64, 3 : i64, 4 : i64, 5 : i64, 6 : i64, 7 : i64]}, {layers = ["block512", "block128"]{{.*}}chips = [8 : i64{{.*}}{layers = ["block128", "block512"]{{.*}}chips = [16 : i64{{.*}}{layers = ["block128", "block128"]{{.*}}chips = [24 : i64
// CHECK: %[[A:.*]] = func.call @stage0(%x,
// CHECK-NEXT: %[[B:.*]] = func.call @stage1(%[[A]],
// CHECK-NEXT: %[[C:.*]] = func.call @stage2(%[[B]],
// CHECK-NEXT: func.call @stage3(%[[C]],
// A shape-only run of the 4 microbatches (8 sequences of 32 tokens) through the four stages: each
// stage hands its activation to the next over the column links between the submeshes.
// SIM: pipeline_transfer
// SIM: pipeline: 4 stages, 4 microbatches of the batch (256 samples)
// SIM: stage 0 (chips 0-7, mesh 2x4)
// SIM: stage 3 (chips 24-31, mesh 2x4)
// SIM: bubble {{0\.[0-9]+}} of the stages' time idle
