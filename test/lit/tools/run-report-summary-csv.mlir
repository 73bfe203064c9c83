// RUN: meshc-run %s --report | filecheck %s --check-prefix=SUMMARY
// RUN: meshc-run %s --report-csv %t.csv 2>&1 >/dev/null | filecheck %s --check-prefix=WROTE -DOUT=%t.csv
// RUN: filecheck %s --input-file %t.csv --check-prefix=CSV

// The text report opens with a summary: totals, the busiest links, the slowest ops. Here a
// 64x128 f32 tensor is split by columns over a 1x2 mesh (32 KiB to the devices, 32 KiB back)
// and all_gathered along mesh axis 1: each chip sends its 64x64 f32 half (16,384 B) to the
// other, so both directions of the one link carry 16,384 B.
// SUMMARY: summary: {{[0-9]+}} ops on a 1x2 mesh ({{[0-9]+}} chips in the system), time estimate {{[0-9.]+}} us
// SUMMARY-NEXT: moved: ethernet 32,768 B, NOC {{[0-9,]+}} B, DRAM 0 B, host->device 32,768 B, device->host 65,536 B; peak L1 a core {{[0-9,]+}} B
// SUMMARY-NEXT: busiest links (2 of 2 used): chip 0 -> chip 1 16,384 B, chip 1 -> chip 0 16,384 B
// SUMMARY-NEXT: slowest ops: #{{[0-9]+}} ttnn.{{[a-z_]+}} {{[0-9.]+}} us ({{[0-9]+}}%
// SUMMARY: Ethernet traffic per link and direction

// --report-csv: one row an op, its time by resource and its bytes.
// WROTE: meshc-run: wrote [[OUT]] ({{[0-9,]+}} bytes)
// CSV: index,op,start_s,seconds,bound,{{.*}}_s,{{.*}}ethernet_bytes{{.*}},host_to_device_bytes,device_to_host_bytes
// CSV-NEXT: 0,ttnn.distribute_tensor,0.0,{{[-0-9.e]+}},host,{{.*}},32768,0
// CSV: ttnn.all_gather,{{.*}},32768,{{.*}}
// CSV: ttnn.aggregate_tensor,{{.*}},0,65536

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @main(%x: tensor<64x128xf32>) -> tensor<64x256xf32> {
    %0 = "ttir.mesh_shard"(%x) {shard_dims = array<i64: -1, 1>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_type = #ttir.shard_type<devices>} : (tensor<64x128xf32>) -> tensor<64x64xf32>
    %1 = "ttir.all_gather"(%0) {all_gather_dim = 1 : si32, cluster_axis = 1 : ui32} : (tensor<64x64xf32>) -> tensor<64x128xf32>
    %2 = "ttir.mesh_shard"(%1) {shard_dims = array<i64: -1, 1>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2>, shard_type = #ttir.shard_type<devices>} : (tensor<64x128xf32>) -> tensor<64x256xf32>
    return %2 : tensor<64x256xf32>
  }
}
