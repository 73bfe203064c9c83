// RUN: meshc-opt %s | filecheck %s
// RUN: meshc-opt %s --print-op-generic | meshc-opt | filecheck %s

// Memory spaces, out-of-bounds values and data types as attributes of their own.

// CHECK: func.func private @enums()
// CHECK-SAME: s0 = #tt.memory_space<system>, s1 = #tt.memory_space<dram>, s2 = #tt.memory_space<l1>
// CHECK-SAME: o0 = #tt.oob_val<undef>, o1 = #tt.oob_val<zero>, o2 = #tt.oob_val<one>, o3 = #tt.oob_val<inf>, o4 = #tt.oob_val<neginf>
// CHECK-SAME: t0 = #tt.data_type<f32>, t1 = #tt.data_type<f16>, t2 = #tt.data_type<bf16>, t3 = #tt.data_type<bfp_bf8>, t4 = #tt.data_type<bfp_bf4>, t5 = #tt.data_type<u32>, t6 = #tt.data_type<u16>, t7 = #tt.data_type<u8>, t8 = #tt.data_type<si32>
func.func private @enums() attributes {
  s0 = #tt.memory_space<system>, s1 = #tt.memory_space<dram>, s2 = #tt.memory_space<l1>,
  o0 = #tt.oob_val<undef>, o1 = #tt.oob_val<zero>, o2 = #tt.oob_val<one>, o3 = #tt.oob_val<inf>, o4 = #tt.oob_val<neginf>,
  t0 = #tt.data_type<f32>, t1 = #tt.data_type<f16>, t2 = #tt.data_type<bf16>, t3 = #tt.data_type<bfp_bf8>,
  t4 = #tt.data_type<bfp_bf4>, t5 = #tt.data_type<u32>, t6 = #tt.data_type<u16>, t7 = #tt.data_type<u8>,
  t8 = #tt.data_type<si32>
}
