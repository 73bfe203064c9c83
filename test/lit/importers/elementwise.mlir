// The cheap elementwise ops JAX programs use, each imported one for one as its ttir op (the
// compute-op registry's spellings), clamp as maximum then minimum, and the program run on both
// backends against the golden run. test/unit/test_import_jax_ops.py checks each op against JAX.
// RUN: meshc-import %s | filecheck %s
// RUN: meshc-import %s -o %t.mlir
// RUN: meshc-run %t.mlir --seed 2 --check | filecheck %s --check-prefix=SIM
// RUN: meshc-run %t.mlir --seed 2 --check --target ttmetal | filecheck %s --check-prefix=SIM

// CHECK: "ttir.abs"
// CHECK: "ttir.sign"
// CHECK: "ttir.sin"
// CHECK: "ttir.cos"
// CHECK: "ttir.square"
// CHECK: "ttir.erfc"
// CHECK: "ttir.floor"
// CHECK: "ttir.ceil"
// CHECK: "ttir.round"
// CHECK: "ttir.log1p"
// CHECK: "ttir.expm1"
// CHECK: "ttir.rsqrt"
// CHECK: "ttir.remainder"
// CHECK: %[[LO:.*]] = "ttir.maximum"(%{{.*}}, %{{.*}}) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
// CHECK: "ttir.minimum"(%[[LO]], %{{.*}})
// CHECK: "ttir.bitwise_and"(%{{.*}}, %{{.*}}) : (tensor<32x64xi32>, tensor<32x64xi32>) -> tensor<32x64xi32>
// CHECK: "ttir.bitwise_or"
// CHECK: "ttir.bitwise_xor"
// CHECK: "ttir.bitwise_not"
// CHECK: "ttir.shift_left"
// CHECK: "ttir.shift_right_arithmetic"
// CHECK: "ttir.shift_right_logical"
// CHECK: "ttir.div"(%{{.*}}, %{{.*}}) : (tensor<32x64xi32>, tensor<32x64xi32>) -> tensor<32x64xi32>
// CHECK: "ttir.remainder"(%{{.*}}, %{{.*}}) : (tensor<32x64xi32>, tensor<32x64xi32>) -> tensor<32x64xi32>
// SIM: check: result0 matches the golden run
// SIM: check: result1 matches the golden run
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<32x64xf32>, tensor<32x64xi32>, tensor<32x64xi32>) -> (tensor<32x64xf32>, tensor<32x64xi32>), sym_name = "main"}> ({
  ^bb0(%x: tensor<32x64xf32>, %a: tensor<32x64xi32>, %b: tensor<32x64xi32>):
    %0 = "stablehlo.abs"(%x) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %1 = "stablehlo.sign"(%x) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %2 = "stablehlo.sine"(%x) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %3 = "stablehlo.cosine"(%x) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %4 = "chlo.square"(%x) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %5 = "chlo.erfc"(%x) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %6 = "stablehlo.floor"(%x) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %7 = "stablehlo.ceil"(%x) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %8 = "stablehlo.round_nearest_even"(%x) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %9 = "stablehlo.log_plus_one"(%0) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %10 = "stablehlo.exponential_minus_one"(%x) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %11 = "stablehlo.add"(%4, %0) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %12 = "stablehlo.rsqrt"(%11) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %13 = "stablehlo.remainder"(%x, %11) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %lo = "stablehlo.constant"() <{value = dense<-0.5> : tensor<f32>}> : () -> tensor<f32>
    %hi = "stablehlo.constant"() <{value = dense<0.75> : tensor<f32>}> : () -> tensor<f32>
    %14 = "stablehlo.clamp"(%lo, %x, %hi) : (tensor<f32>, tensor<32x64xf32>, tensor<f32>) -> tensor<32x64xf32>
    %s1 = "stablehlo.add"(%1, %2) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %s2 = "stablehlo.add"(%s1, %3) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %s3 = "stablehlo.add"(%s2, %5) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %s4 = "stablehlo.add"(%s3, %6) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %s5 = "stablehlo.add"(%s4, %7) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %s6 = "stablehlo.add"(%s5, %8) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %s7 = "stablehlo.add"(%s6, %9) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %s8 = "stablehlo.add"(%s7, %10) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %s9 = "stablehlo.add"(%s8, %12) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %s10 = "stablehlo.add"(%s9, %13) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %s11 = "stablehlo.add"(%s10, %14) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %i0 = "stablehlo.and"(%a, %b) : (tensor<32x64xi32>, tensor<32x64xi32>) -> tensor<32x64xi32>
    %i1 = "stablehlo.or"(%i0, %b) : (tensor<32x64xi32>, tensor<32x64xi32>) -> tensor<32x64xi32>
    %i2 = "stablehlo.xor"(%i1, %a) : (tensor<32x64xi32>, tensor<32x64xi32>) -> tensor<32x64xi32>
    %i3 = "stablehlo.not"(%i2) : (tensor<32x64xi32>) -> tensor<32x64xi32>
    %i4 = "stablehlo.shift_left"(%i3, %b) : (tensor<32x64xi32>, tensor<32x64xi32>) -> tensor<32x64xi32>
    %i5 = "stablehlo.shift_right_arithmetic"(%i4, %b) : (tensor<32x64xi32>, tensor<32x64xi32>) -> tensor<32x64xi32>
    %i6 = "stablehlo.shift_right_logical"(%i5, %b) : (tensor<32x64xi32>, tensor<32x64xi32>) -> tensor<32x64xi32>
    %i7 = "stablehlo.divide"(%i6, %a) : (tensor<32x64xi32>, tensor<32x64xi32>) -> tensor<32x64xi32>
    %i8 = "stablehlo.remainder"(%i6, %a) : (tensor<32x64xi32>, tensor<32x64xi32>) -> tensor<32x64xi32>
    %i9 = "stablehlo.add"(%i7, %i8) : (tensor<32x64xi32>, tensor<32x64xi32>) -> tensor<32x64xi32>
    "func.return"(%s11, %i9) : (tensor<32x64xf32>, tensor<32x64xi32>) -> ()
  }) : () -> ()
}) : () -> ()
