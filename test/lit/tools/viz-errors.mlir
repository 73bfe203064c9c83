// RUN: not meshc-viz %s --text --value %%nope 2>&1 | filecheck %s --check-prefixes=NOTB,VALUE
// RUN: not meshc-viz %s 2>&1 | filecheck %s --check-prefixes=NOTB,OUT
// RUN: not meshc-viz --shape 128x128 --layout block_sharded --grid 2x2 --shard 32x32 --text 2>&1 | filecheck %s --check-prefixes=NOTB,FIT
// RUN: not meshc-viz --shape 64xx64 --text 2>&1 | filecheck %s --check-prefixes=NOTB,SHAPE
// RUN: not meshc-viz --shape 64x64 --grid 0,0-1 --layout height_sharded --text 2>&1 | filecheck %s --check-prefixes=NOTB,GRID
// RUN: not meshc-viz --shape 64x64 --layout interleaved --buffer l3 --text 2>&1 | filecheck %s --check-prefixes=NOTB,BUF
// RUN: not meshc-viz %s --shape 64x64 --text 2>&1 | filecheck %s --check-prefixes=NOTB,BOTH
// RUN: not meshc-viz %S/viz-errors-bad.notmlir --text 2>&1 | filecheck %s --check-prefixes=NOTB,MISSING
// RUN: echo 'func.func @g(%%a: tensor<4x4xbf16, #ttnn.ttnn_layout<tiled, bf16>>) {}' > %t.mlir
// RUN: not meshc-viz %t.mlir --text 2>&1 | filecheck %s --check-prefixes=NOTB,LOC
// RUN: not meshc-viz %s --text --bogus 2>&1 | filecheck %s --check-prefixes=NOTB,FLAG
// RUN: not meshc-viz --shape 64x64 --mesh 2x4 --text 2>&1 | filecheck %s --check-prefixes=NOTB,MESHONLY
// RUN: not meshc-viz --shape 64x64 --spec "[S0, Q]" --mesh 2x4 --text 2>&1 | filecheck %s --check-prefixes=NOTB,SPEC
// RUN: not meshc-viz --shape 64x64x2 --spec "[S0, R]" --mesh 2x4 --text 2>&1 | filecheck %s --check-prefixes=NOTB,RANK
// RUN: not meshc-viz %s -o %t.jpg 2>&1 | filecheck %s --check-prefixes=NOTB,EXT

// Bad input to meshc-viz: one line that says what is wrong, exit 1, no traceback.

// NOTB-NOT: Traceback

// VALUE: meshc-viz: error: no value %nope in the module; its values are %arg0
// OUT: meshc-viz: error: give -o OUT.png (or .svg) for a picture, or --text for tables
// FIT: meshc-viz: error: block sharding cuts the 4x4-page tensor into 4x4 shards of 1x1 pages (shard shape 32x32); a row_major shard grid needs 4x4 cores but the core grid (0, 0)-(1, 1) is 2x2
// SHAPE: meshc-viz: error: --shape '64xx64' is not a shape like 64x64
// GRID: meshc-viz: error: --grid '0,0-1' is neither RxC nor ranges like '0,0-1,1;3,4-3,5'
// BUF: meshc-viz: error: unknown buffer type 'l3'; expected one of l1, dram
// BOTH: meshc-viz: error: give either an input file or --shape, not both
// MISSING: meshc-viz: error: {{.*}}No such file or directory
// LOC: {{.*}}.mlir:1:{{[0-9]+}}: error: a ttnn_layout starts with tile<RxC> or row_major
// FLAG: meshc-viz: error: unrecognized arguments: --bogus
// MESHONLY: meshc-viz: error: --mesh needs --spec, e.g. --spec '[S0, R]' --mesh 2x4
// SPEC: meshc-viz: error: sharding spec '[S0, Q]' at column 6: 'Q' would shard this dim over a mesh axis of that name, but the mesh 2x4 does not name its axes; accepted forms: the index form [S0, R]
// RANK: meshc-viz: error: sharding spec [S0, R] has 2 dims but the tensor 64x64x2 has rank 3
// EXT: meshc-viz: error: -o '{{.*}}.jpg': the picture is written as PNG or SVG, name it .png or .svg

func.func @f(%arg0: tensor<64x64xbf16, #ttnn.ttnn_layout<tile<32x32>, bf16, #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>>>) {
  func.return
}
