// tt-mlir's ttir.all_reduce_async is an all_reduce whose transfer may overlap later ops: meshc reads
// it as ttir.all_reduce {async}, lowers it with the flag kept and runs it as an all_reduce.
// RUN: meshc-opt %S/Inputs/simple_all_reduce_async.mlir | filecheck %s --check-prefix=READ
// READ: "ttir.all_reduce"(%arg0) {cluster_axis = 1 : ui32, reduce_type = #ttir.reduce_type<sum>, async}
// RUN: meshc-opt %S/Inputs/simple_all_reduce_async.mlir -p 'ttir-to-ttnn-pipeline{mesh-shape=1,2}' -o %t.mlir
// RUN: filecheck %s --check-prefix=TTNN < %t.mlir
// TTNN: "ttnn.all_reduce"({{.*}}) {cluster_axis = 1 : ui32, reduce_type = #ttir.reduce_type<sum>, async}
// RUN: meshc-run %t.mlir --check | filecheck %s
// CHECK: check: result0: 0 of 32768 elements differ
