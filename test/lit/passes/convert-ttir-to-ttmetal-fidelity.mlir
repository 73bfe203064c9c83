// A matmul's math_fidelity reaches TTMetal's tile_matmul, so both pipelines time it alike.
// RUN: meshc-opt %s -p ttir-to-ttmetal-pipeline | filecheck %s --check-prefix=IR
// IR: "ttmetal.tile_matmul"(%{{.*}}, %{{.*}}) {math_fidelity = "LoFi"}
// RUN: meshc-run %s --target ttmetal --check --report-json %t.metal.json | filecheck %s
// RUN: meshc-run %s --check --report-json %t.ttnn.json | filecheck %s
// CHECK: check: result0 matches the golden run
// RUN: sed -e 's/ {math_fidelity = "LoFi"}//' %s > %t.default.mlir
// RUN: meshc-run %t.default.mlir --target ttmetal --report-json %t.default.json
// RUN: sed -e 's/"LoFi"/"HiFi3"/' %s > %t.hifi3.mlir
// RUN: meshc-run %t.hifi3.mlir --target ttmetal --report-json %t.hifi3.metal.json
// RUN: meshc-run %t.hifi3.mlir --report-json %t.hifi3.ttnn.json
// RUN: python -c "import json; c = lambda f, n: sum(o['time']['compute_s'] for o in json.load(open(f))['ops'] if o['name'] == n); m, t, d = c('%t.metal.json', 'ttmetal.enqueue_program'), c('%t.ttnn.json', 'ttnn.matmul'), c('%t.default.json', 'ttmetal.enqueue_program'); h, ht = c('%t.hifi3.metal.json', 'ttmetal.enqueue_program'), c('%t.hifi3.ttnn.json', 'ttnn.matmul'); print('same', m == t, h == ht); print('lofi/default %%.7f' %% (m / d)); print('hifi3/default %%.4f' %% (h / d))" | filecheck %s --check-prefix=TIME
// By hand (meshc/layout/hardware.py, wormhole_b0): a 32x32x32 tile product takes 16 cycles a
// LoFi pass, times the fidelity's passes (LoFi 1, HiFi3 3, HiFi4 4), over the engine's 0.95,
// and never less than the unpackers' floor for the B block's format (bf16: 38 cycles). bf16's
// default is HiFi4: 64 / 0.95 = 67.37 cycles; LoFi max(16 / 0.95, 38) = 38 cycles; HiFi3
// 48 / 0.95 = 50.53 cycles. Every core runs the same tile products, so the ratios are the
// cycles': LoFi / default = 38 x 0.95 / 64 = 0.5640625, HiFi3 / default = 3 / 4.
// TIME: same True True
// TIME: lofi/default 0.5640625
// TIME: hifi3/default 0.7500
// RUN: sed -e 's/"LoFi"/"HiFi9"/' %s > %t.bad.mlir
// RUN: not meshc-opt %t.bad.mlir -p ttir-to-ttmetal-pipeline 2>&1 | filecheck %s --check-prefix=BAD
// BAD: convert-ttir-to-ttmetal-fidelity.mlir.tmp.bad.mlir:[[# @LINE + 2]]:3: error: 'ttir.matmul' op math_fidelity 'HiFi9' is not one of LoFi, HiFi2, HiFi3, HiFi4
func.func @main(%x: tensor<64x128xbf16>, %w: tensor<128x256xbf16>) -> tensor<64x256xbf16> {
  %y = "ttir.matmul"(%x, %w) {math_fidelity = "LoFi"} : (tensor<64x128xbf16>, tensor<128x256xbf16>) -> tensor<64x256xbf16>
  return %y : tensor<64x256xbf16>
}
