// RUN: meshc-opt %s -p 'tt-register-device{system=t3k mesh-shape=2,4},ttir-layout' --time-passes 2>&1 >/dev/null | filecheck %s

// --time-passes reports every pass's wall time and share, then the total, on stderr.
// CHECK: meshc-opt pass execution timing report
// CHECK: wall time (s)   share  pass
// CHECK-NEXT: {{[0-9]+\.[0-9]+ +[0-9.]+%}}  tt-register-device
// CHECK-NEXT: {{[0-9]+\.[0-9]+ +[0-9.]+%}}  ttir-layout
// CHECK-NEXT: {{[0-9]+\.[0-9]+}}  100.0%  total

func.func @f(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = "ttir.relu"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  func.return %0 : tensor<64x64xf32>
}
