// RUN: meshc-run %examples/moe_ep8.mlir --check --report | filecheck %s

// examples/moe_ep8.mlir end to end on the simulator: lowered with ttir-to-ttnn-pipeline (its two
// reshards become ttnn.point_to_point, the MoE steps ttnn.moe_*), run on a t3k (the 2x2x2 mesh is
// a view of its 8 chips, device i on chip i, so some moves cross two links), and checked against
// the numpy golden run of the ttir program. The MoE steps are local: no ethernet bytes. The
// delivered bytes of the reshards (768 B and 1,792 B, the lower bounds) are checked by
// test/unit/test_moe_example.py, which derives them by hand.
// CHECK: result0: 2x4x8 float32
// CHECK: Per op (in program order)
// CHECK: ttnn.moe_route {{ *}}│ {{ *}}0 │
// CHECK-NEXT: ttnn.moe_dispatch {{ *}}│ {{ *}}0 │
// CHECK-NEXT: ttnn.point_to_point {{ *}}│ {{ *}}1,024 │
// CHECK: ttnn.point_to_point {{ *}}│ {{ *}}3,200 │
// CHECK-NEXT: ttnn.moe_combine {{ *}}│ {{ *}}0 │
// CHECK: check: result0 matches the golden run
