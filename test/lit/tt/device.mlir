// RUN: meshc-opt %s | filecheck %s
// RUN: meshc-opt %s --print-op-generic | meshc-opt | filecheck %s
// RUN: meshc-opt %s --no-aliases | filecheck %s --check-prefix=INLINE

// Every #tt.device of tt-mlir's Device spec (Device), written as tt-mlir's Device spec writes it, prints back as the
// seed's text (on one line, once, as an alias) and survives the generic form.

// Single chip, and step 1 of the transpose example (the same attribute: one alias).
// CHECK: #device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chipIds = [0]>
func.func private @single_chip() attributes {tt.device = #tt.device<
  workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>,
  meshShape = 1,
  chipIds = [0]
>}

// Data parallel over batch.
// CHECK: #device1 = #tt.device<workerGrid = #tt.grid<2x8x8, (d0, d1, d2) -> (d0, d1, d2)>, meshShape = 2x1x1, chipIds = [0, 1]>
func.func private @data_parallel_over_batch() attributes {tt.device = #tt.device<
  workerGrid = #tt.grid<2x8x8, (d0, d1, d2) -> (d0, d1, d2)>,
  meshShape = 2x1x1,
  chipIds = [0, 1]
>}

// Data parallel over 2d.
// CHECK: #device2 = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>
func.func private @data_parallel_over_2d() attributes {tt.device = #tt.device<
  workerGrid = #tt.grid<8x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0, d1 mod 8)>,
  meshShape = 1x2,
  chipIds = [0, 1]
>}

// Data parallel over 2d and batch, which is also the first device of the pipeline-parallel example.
// CHECK: #device3 = #tt.device<workerGrid = #tt.grid<2x8x16, (d0, d1, d2) -> (d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1, d2 mod 8)>, meshShape = 2x1x2, chipIds = [0, 1, 2, 3]>
func.func private @data_parallel_over_2d_and_batch() attributes {tt.device = #tt.device<
  workerGrid = #tt.grid<2x8x16, (d0, d1, d2) -> (d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1, d2 mod 8)>,
  meshShape = 2x1x2,
  chipIds = [0, 1, 2, 3]
>}

// Pipeline parallel: two devices over chips 0..3 and 4..7 of an 8-chip system.
// CHECK: #device4 = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [4, 5, 6, 7]>
func.func private @pipeline_stage0() attributes {tt.device = #tt.device<
  workerGrid = #tt.grid<2x8x16, (d0, d1, d2) -> (d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1, d2 mod 8)>,
  meshShape = 2x1x2,
  chipIds = [0, 1, 2, 3]
>}
func.func private @pipeline_stage1() attributes {tt.device = #tt.device<
  workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>,
  meshShape = 2x2,
  chipIds = [4, 5, 6, 7]
>}

// Reinterpreted grids: transposed, extra wide, extra tall + transposed, staircase.
// CHECK: #device5 = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d1, d0)>, meshShape = 1, chipIds = [0]>
func.func private @transpose_step1() attributes {tt.device = #tt.device<
  workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>,
  meshShape = 1,
  chipIds = [0]
>}
func.func private @transpose_step3() attributes {tt.device = #tt.device<
  workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d1, d0)>,
  meshShape = 1,
  chipIds = [0]
>}
// CHECK: #device6 = #tt.device<workerGrid = #tt.grid<1x64, (d0, d1) -> (0, d0 * 8 + d1 floordiv 8, d1 mod 8)>, meshShape = 1, chipIds = [0]>
func.func private @extra_wide() attributes {tt.device = #tt.device<
  workerGrid = #tt.grid<1x64, (d0, d1) -> (0, d0 * 8 + d1 floordiv 8, d1 mod 8)>,
  meshShape = 1,
  chipIds = [0]
>}
// CHECK: #device7 = #tt.device<workerGrid = #tt.grid<64x1, (d0, d1) -> (0, d1 * 8 + d0 floordiv 8, d0 mod 8)>, meshShape = 1, chipIds = [0]>
func.func private @extra_tall_transposed() attributes {tt.device = #tt.device<
  workerGrid = #tt.grid<64x1, (d0, d1) -> (0, d1 * 8 + d0 floordiv 8, d0 mod 8)>,
  meshShape = 1,
  chipIds = [0]
>}
// CHECK: #device8 = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, (d0 + d1) mod 8)>, meshShape = 1, chipIds = [0]>
func.func private @staircase() attributes {tt.device = #tt.device<
  workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, (d0 + d1) mod 8)>,
  meshShape = 1,
  chipIds = [0]
>}

// Each op refers to its device by alias.
// CHECK: func.func private @single_chip() -> () attributes {tt.device = #device}
// CHECK: func.func private @data_parallel_over_batch() -> () attributes {tt.device = #device1}
// CHECK: func.func private @data_parallel_over_2d() -> () attributes {tt.device = #device2}
// CHECK: func.func private @data_parallel_over_2d_and_batch() -> () attributes {tt.device = #device3}
// CHECK: func.func private @pipeline_stage0() -> () attributes {tt.device = #device3}
// CHECK: func.func private @pipeline_stage1() -> () attributes {tt.device = #device4}
// CHECK: func.func private @transpose_step1() -> () attributes {tt.device = #device}
// CHECK: func.func private @transpose_step3() -> () attributes {tt.device = #device5}
// CHECK: func.func private @extra_wide() -> () attributes {tt.device = #device6}
// CHECK: func.func private @extra_tall_transposed() -> () attributes {tt.device = #device7}
// CHECK: func.func private @staircase() -> () attributes {tt.device = #device8}

// INLINE-NOT: #device
// INLINE: func.func private @single_chip() -> () attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chipIds = [0]>}
