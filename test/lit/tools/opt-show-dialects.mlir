// RUN: meshc-opt --show-dialects | filecheck %s
// The registered dialects on one line, as mlir-opt --show-dialects prints them.
// CHECK: Available Dialects: arith, builtin, func, tensor, tt, ttir, ttmetal, ttnn
