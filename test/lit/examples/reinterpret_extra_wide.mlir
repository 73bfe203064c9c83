// RUN: not meshc-opt %examples/reinterpret_extra_wide.mlir -p ttir-to-ttnn-pipeline 2>&1 | filecheck %s --check-prefix=TTNN
// RUN: meshc-opt %examples/reinterpret_extra_wide.mlir -p ttir-to-ttmetal-pipeline | filecheck %s --check-prefix=METAL

// tt-mlir's Device spec's "Concerns": TTNN cannot open this device; TTMetal lowers it.
// TTNN: reinterpret_extra_wide.mlir:4:1: error: 'builtin.module' op TTNN cannot realise the device grid 1x64 with map (d0, d1) -> (0, d0 * 8 + d1 floordiv 8, d1 mod 8)
// METAL: "ttmetal.tile_binary"(%{{.*}}, %{{.*}}) {op = "add"}
// METAL: "ttmetal.tile_unary"(%{{.*}}) {op = "exp"}
// METAL: "ttmetal.finish"
