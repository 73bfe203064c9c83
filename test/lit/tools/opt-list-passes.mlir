// RUN: meshc-opt --list-passes | filecheck %s

// Every pass as the flag that runs it, its description, and its options as mlir-opt's help
// lists them: --name=<type> (MLIR's type names, not Python's) - what it means (default).
// CHECK: Available passes (run one as a flag, --NAME or --NAME='option=value ...', or in -p 'NAME{option=value ...},...'):
// CHECK: --reshard-to-collectives
// CHECK-NEXT: lower `ttir.reshard` into moves
// CHECK-NEXT: --max-ratio=<number> - take the collectives walk
// CHECK-NEXT: --point-to-point=<boolean> - allow ttir.point_to_point moves {{.*}}(default: true)
// CHECK: --tt-register-device
// CHECK-NEXT: attach `#tt.system_desc` and a derived `#tt.device` to the module.
// CHECK-NEXT: --system=<string> - the system the mesh runs on
// CHECK-NEXT: --mesh-shape=<long,...> - the device mesh, e.g. 2,4
// CHECK: --ttir-layout
// CHECK: --tiled=<boolean> - lay tensors out in 32x32 tiles (false: row-major pages) (default: true)
// Each pipeline has its own description.
// CHECK: --ttir-to-ttmetal-pipeline
// CHECK-NEXT: ttir -> TTMetal's level
// CHECK: --ttir-to-ttnn-pipeline
// CHECK-NEXT: ttir -> TTNN's API level
// CHECK-NOT: mesh_shape
// CHECK-NOT: tuple[
// CHECK-NOT: | None
