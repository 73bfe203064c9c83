// RUN: meshc-run %s --check --report-json %t.json | filecheck %s
// RUN: python -c "import json; r = json.load(open('%t.json')); d = [o for o in r['ops'] if o['name'] == 'ttnn.distribute_tensor']; m = [o for o in r['ops'] if o['name'] == 'ttnn.matmul'][0]; print('host', [o['totals']['host_to_device_bytes'] for o in d]); print('compute ns', round(m['time']['compute_s'] * 1e9, 2))" | filecheck %s --check-prefix=BFP8
// RUN: sed -e 's/bfp_bf8/bfp_bf4/' %s > %t.bfp4.mlir
// RUN: meshc-run %t.bfp4.mlir --check --report-json %t.bfp4.json | filecheck %s
// RUN: python -c "import json; r = json.load(open('%t.bfp4.json')); d = [o for o in r['ops'] if o['name'] == 'ttnn.distribute_tensor']; m = [o for o in r['ops'] if o['name'] == 'ttnn.matmul'][0]; print('host', [o['totals']['host_to_device_bytes'] for o in d]); print('compute ns', round(m['time']['compute_s'] * 1e9, 2))" | filecheck %s --check-prefix=BFP4
// RUN: sed -e 's/"ttir.matmul"(%%x, %%w) :/"ttir.matmul"(%%x, %%w) {math_fidelity = "LoFi"} :/' %s > %t.lofi.mlir
// RUN: meshc-run %t.lofi.mlir --check --report-json %t.lofi.json | filecheck %s
// RUN: python -c "import json; r = json.load(open('%t.lofi.json')); m = [o for o in r['ops'] if o['name'] == 'ttnn.matmul'][0]; print('compute ns', round(m['time']['compute_s'] * 1e9, 2))" | filecheck %s --check-prefix=LOFI
// RUN: sed -e 's/"ttir.matmul"(%%x, %%w) :/"ttir.matmul"(%%x, %%w) {math_fidelity = "HiFi4"} :/' %s > %t.hifi4.mlir
// RUN: meshc-run %t.hifi4.mlir --report-json %t.hifi4.json
// RUN: python -c "import json; r = json.load(open('%t.hifi4.json')); m = [o for o in r['ops'] if o['name'] == 'ttnn.matmul'][0]; print('compute ns', round(m['time']['compute_s'] * 1e9, 2))" | filecheck %s --check-prefix=HIFI4
// RUN: sed -e 's/, tt.storage = #tt.data_type<bfp_bf8>//' %s > %t.f32.mlir
// RUN: meshc-run %t.f32.mlir --report-json %t.f32.json
// RUN: python -c "import json; r = json.load(open('%t.f32.json')); d = [o for o in r['ops'] if o['name'] == 'ttnn.distribute_tensor']; m = [o for o in r['ops'] if o['name'] == 'ttnn.matmul'][0]; print('host', [o['totals']['host_to_device_bytes'] for o in d]); print('compute ns', round(m['time']['compute_s'] * 1e9, 2))" | filecheck %s --check-prefix=F32

// A weight stored as a block float on the devices (tt.storage, docs/dialects.md). On a 1x2 mesh
// x [S0, R] stays whole (axis 0 has one device), w (128x256 = 4x8 tiles) is replicated:
// - host bytes of w's distribute, both chips: f32 2 x 128 x 256 x 4 = 262,144; bfp8 2 x 32 tiles
//   x 1088 B = 69,632; bfp4 2 x 32 x 576 B = 36,864 (x: 2 x 64 x 128 x 4 = 65,536 each time);
// - the matmul (64x128 by 128x256: Mt 2, Kt 4, Nt 8 on a 2x8 core grid, one output tile a core,
//   4 tile products each): f32 at HiFi4, floored at f32's unpack 76 cycles: 4 x 76 = 304 ns;
//   bfp8 at TTNN's default HiFi2, 32 / 0.95 = 33.68 cycles: 134.74 ns; bfp4 at LoFi,
//   max(16 / 0.95, bfp4's unpack 18) = 18 cycles: 72 ns (1 GHz);
// - a matmul's own math_fidelity sets its rate: bfp8 at LoFi, max(16 / 0.95, bfp8's unpack 19)
//   = 19 cycles: 76 ns; at HiFi4, 64 / 0.95 = 67.37 cycles: 269.47 ns (the values do not change:
//   the fidelity's rounding is not simulated);
// - the golden run rounds w to the format as the host packs it, so the f32 rule holds.
// CHECK: check: result0 matches the golden run (within the f32 tolerance)
// BFP8: host [65536, 69632]
// BFP8: compute ns 134.74
// BFP4: host [65536, 36864]
// BFP4: compute ns 72.0
// LOFI: compute ns 76.0
// HIFI4: compute ns 269.47
// F32: host [65536, 262144]
// F32: compute ns 304.0
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @main(%x: tensor<64x128xf32> {tt.sharding = #tt.sharding<[S0, R]>},
                  %w: tensor<128x256xf32> {tt.sharding = #tt.sharding<[R, R]>, tt.storage = #tt.data_type<bfp_bf8>})
      -> (tensor<64x256xf32> {tt.sharding = #tt.sharding<[S0, R]>}) {
    %y = "ttir.matmul"(%x, %w) : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
    return %y : tensor<64x256xf32>
  }
}
