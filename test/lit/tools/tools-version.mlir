// RUN: meshc-opt --version | filecheck %s -DTOOL=meshc-opt
// RUN: meshc-run --version | filecheck %s -DTOOL=meshc-run
// RUN: meshc-viz --version | filecheck %s -DTOOL=meshc-viz
// RUN: meshc-import --version | filecheck %s -DTOOL=meshc-import
// Every tool answers --version: the tool, meshc's version and the xDSL it runs on, exit 0.
// CHECK: [[TOOL]] 0.1.0 (xDSL 0.74.0)
