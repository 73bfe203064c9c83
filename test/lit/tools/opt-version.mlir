// RUN: meshc-opt --version | filecheck %s
// RUN: meshc-opt --version %s | filecheck %s
// --version prints meshc's version and the xDSL it runs on (xDSL's own version action) and exits 0.
// CHECK: meshc-opt 0.1.0 (xDSL 0.74.0)
