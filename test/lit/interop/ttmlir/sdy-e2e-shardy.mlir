// tt-mlir's Shardy end-to-end conversion tests, as written (Conversion/StableHLOToTTIR/ccl/):
// e2e_fsdp_tp_shardy splits weights y-major over both axes (in_shardings [{"y", "x"}, {}]: a
// mesh_shard of the y split, then an all_slice along x) and all-gathers them over x in the body;
// e2e_tp_shardy applies a relu on whole tensors between its shard_maps (computed on every device,
// read back once and distributed to the next). Each imports on the module's mesh, lowers with the
// ttnn pipeline and matches the numpy run of the imported program; importers/shard-map-axis-order
// and importers/shard-map-between check both constructs against numpy by hand.
// RUN: meshc-import %S/Inputs/e2e_fsdp_tp_shardy.mlir -o %t.fsdp.mlir
// RUN: filecheck %s --check-prefix=FSDP < %t.fsdp.mlir
// FSDP: "ttir.mesh_shard"(%{{.*}}) {{.*}}full_to_shard{{.*}}shard_dims = array<i64: -1, 0>} : (tensor<784x128xf32>) -> tensor<196x128xf32>
// FSDP-NEXT: "ttir.all_slice"({{.*}}) {slice_dim = 0 : si32, cluster_axis = 0 : ui32} : (tensor<196x128xf32>) -> tensor<98x128xf32>
// RUN: meshc-opt %t.fsdp.mlir -p 'ttir-to-ttnn-pipeline' -o %t.fsdp.ttnn.mlir
// RUN: meshc-run %t.fsdp.ttnn.mlir --check | filecheck %s
// RUN: meshc-import %S/Inputs/e2e_tp_shardy.mlir -o %t.tp.mlir
// RUN: meshc-opt %t.tp.mlir -p 'ttir-to-ttnn-pipeline' -o %t.tp.ttnn.mlir
// RUN: filecheck %s --check-prefix=TP < %t.tp.ttnn.mlir
// TP: %[[R:.*]] = "ttnn.maximum"
// TP-NEXT: "ttnn.aggregate_tensor"(%[[R]]) {shard_dims = array<i64: -1, -1>
// RUN: meshc-run %t.tp.ttnn.mlir --check | filecheck %s
// CHECK: check: result0 matches the golden run
