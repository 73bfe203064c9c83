// RUN: meshc-opt %s -p 'ttir-split-stages{stages=2 stage-mesh=2,2 system=t3k}' -o %t.mlir
// RUN: filecheck %s < %t.mlir
// RUN: meshc-run %t.mlir --check | filecheck %s --check-prefix=SIM
// RUN: meshc-run %t.mlir --check --target ttmetal | filecheck %s --check-prefix=SIM

// A chain of three layers, the last one 8x wider (its weights and its matmul), cut into two
// stages on a t3k's two 2x2 blocks (chips 0, 1, 4, 5 and 2, 3, 6, 7): the slowest stage is
// fastest with the two narrow layers together and the wide one alone. Each stage keeps the
// shardings @main gives its values; the layers become private, inlined into their stages when
// lowered; @main calls the stages, the chain value crossing between them.
// CHECK: #device = #tt.device<{{.*}}meshShape = 2x2, chipIds = [0, 1, 4, 5]>
// CHECK: #device1 = #tt.device<{{.*}}meshShape = 2x2, chipIds = [2, 3, 6, 7]>
// CHECK: tt.devices = [#device, #device1]
// CHECK: func.func private @narrow
// CHECK: func.func private @wide
// CHECK: func.func @stage0(%x: tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>}, %a: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>}, %b: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>}) -> (tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>}) attributes {tt.stage = 0 : i64}
// CHECK-NEXT: func.call @narrow
// CHECK-NEXT: func.call @narrow
// CHECK: func.func @stage1(%h: tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>}, %c: tensor<64x512xf32> {tt.sharding = #tt.sharding<[R, S1]>}, %d: tensor<512x64xf32> {tt.sharding = #tt.sharding<[S1, R]>}) -> (tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>}) attributes {tt.stage = 1 : i64}
// CHECK-NEXT: func.call @wide
// CHECK: func.func @main(%x: tensor<64x64xf32>, %a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x512xf32>, %d: tensor<512x64xf32>)
// CHECK-SAME: tt.split_stages = [{layers = ["narrow", "narrow"]
// CHECK-SAME: {layers = ["wide"]
// CHECK-NEXT: %[[S0:.*]] = func.call @stage0(%x, %a, %b)
// CHECK-NEXT: func.call @stage1(%[[S0]], %c, %d)
// SIM: check: result0 matches the golden run
module {
  func.func @narrow(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = "ttir.matmul"(%x, %w) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %1 = "ttir.gelu"(%0) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %1 : tensor<64x64xf32>
  }
  func.func @wide(%x: tensor<64x64xf32>, %up: tensor<64x512xf32>, %down: tensor<512x64xf32>) -> tensor<64x64xf32> {
    %0 = "ttir.matmul"(%x, %up) : (tensor<64x64xf32>, tensor<64x512xf32>) -> tensor<64x512xf32>
    %1 = "ttir.gelu"(%0) : (tensor<64x512xf32>) -> tensor<64x512xf32>
    %2 = "ttir.matmul"(%1, %down) : (tensor<64x512xf32>, tensor<512x64xf32>) -> tensor<64x64xf32>
    func.return %2 : tensor<64x64xf32>
  }
  func.func @main(%x: tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>},
                  %a: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %b: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %c: tensor<64x512xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %d: tensor<512x64xf32> {tt.sharding = #tt.sharding<[S1, R]>}) -> (tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>}) {
    %0 = func.call @narrow(%x, %a) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %1 = func.call @narrow(%0, %b) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %2 = func.call @wide(%1, %c, %d) : (tensor<64x64xf32>, tensor<64x512xf32>, tensor<512x64xf32>) -> tensor<64x64xf32>
    func.return %2 : tensor<64x64xf32>
  }
}
