// RUN: meshc-opt --list-passes | filecheck %s

// Every pass with its description and its options, spelled as in a pipeline (mesh-shape, not mesh_shape).
// CHECK: Available passes (options as written in -p 'name{option=value ...}'):
// CHECK: reshard-to-collectives
// CHECK-NEXT: lower `ttir.reshard` into moves
// CHECK-NEXT: max-ratio=<float | int | None> (default: none)
// CHECK-NEXT: point-to-point=<bool> (default: true)
// CHECK: tt-register-device
// CHECK-NEXT: attach `#tt.system_desc` and a derived `#tt.device` to the module.
// CHECK-NEXT: system=<str | None> (default: none)
// CHECK-NEXT: mesh-shape=<tuple[int, ...] | None> (default: none)
// CHECK: ttir-to-ttnn-pipeline
// CHECK-NOT: mesh_shape
