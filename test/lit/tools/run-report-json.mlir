// RUN: meshc-run %s --report-json %t.json --trace %t.trace.json | filecheck %s --check-prefix=OUT
// RUN: python -c "import json; r = json.load(open('%t.json')); t = r['traffic']; print('link', t['link']); print('totals', t['totals']['ethernet_bytes'], t['totals']['delivered_bytes']); print('ops', [o['name'] for o in r['ops'] if o['totals']['ethernet_bytes']]); print('time', r['time_model']['seconds'] == sum(o['seconds'] for o in r['ops'])); print('memory', sorted(r['memory']['per_chip']))" | filecheck %s
// RUN: python -c "import json; t = json.load(open('%t.trace.json'))['traceEvents']; names = {(e['pid'], e.get('tid')): e['args']['name'] for e in t if e['ph'] == 'M'}; print(sorted(set(v for v in names.values()))); x = [e for e in t if e['ph'] == 'X' and e['cat'] == 'ethernet']; print('eth', [(names[(e['pid'], e['tid'])], e['args'].get('bytes'), round(e['dur'], 5)) for e in x])" | filecheck %s --check-prefix=TRACE
// RUN: not meshc-run %s --report-json %t.nodir/r.json 2>&1 | filecheck %s --check-prefix=NOWRITE

// Two chips (1x2): x (4x8 f32) split by columns, each chip's 4x4 piece (64 B) all-gathered, so
// each link direction carries 64 B. The time model takes the CCL report's 2-device line
// all_gather: (N - 1) x 64 B over one link at 12.5 GB/s x 0.51 = 0.01004 us on the ethernet lane
// of the resources and on each link direction's lane.
// OUT: result0: 4x8 float32
// CHECK: link {'0->1': 64, '1->0': 64}
// CHECK: totals 128 128
// CHECK: ops ['ttnn.all_gather']
// CHECK: time True
// CHECK: memory ['0', '1']
// TRACE: ['chip 0 -> chip 1', 'chip 1 -> chip 0', 'compute', 'dram', 'ethernet', 'ethernet links', 'host', 'latency', 'noc', 'ops', 'program (ops)', 'resources']
// TRACE: eth [('ethernet', None, 0.01004), ('chip 0 -> chip 1', 64, 0.01004), ('chip 1 -> chip 0', 64, 0.01004)]
// NOWRITE: meshc-run: error: cannot write '{{.*}}nodir/r.json': No such file or directory
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %s = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_dims = array<i64: -1, 1>} : (tensor<4x8xf32>) -> tensor<4x4xf32>
    %g = "ttir.all_gather"(%s) {all_gather_dim = 1 : si32, cluster_axis = 1 : ui32} : (tensor<4x4xf32>) -> tensor<4x8xf32>
    %o = "ttir.mesh_shard"(%g) {shard_type = #ttir.shard_type<replicate>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 1>, shard_dims = array<i64: -1, -1>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    func.return %o : tensor<4x8xf32>
  }
}
