"""Simulator memory is byte-addressed: a buffer is a region at its address in the L1 / bank arrays,
freed space is reused there, stale handles and out-of-bounds regions are errors, and the report
gives each core's peak and fragmentation. Figures derived by hand in each test."""

import numpy as np
import pytest

import meshc
from meshc.interp.runner import RunError
from meshc.layout.errors import LayoutError
from meshc.layout.memory_config import MemoryConfig
from meshc.sim.machine import Machine

ONE_CORE = MemoryConfig("l1", "height_sharded", (1, 1))  # the whole tensor on core (0, 0)


def test_buffers_sit_at_their_addresses_and_freed_space_is_reused():
    m = Machine("n150")
    a = m.allocate((4, 64), "f32", ONE_CORE)  # 1024 B at 0
    b = m.allocate((4, 64), "f32", ONE_CORE)  # 1024 B at 1024
    assert (a.address, b.address) == (0, 1024)
    x = np.full((4, 64), 7.0, np.float32)
    m.write(b, [x])
    core00 = m.l1.array(2048)[0, 0]  # core (0, 0)'s L1 on chip 0
    assert np.array_equal(core00[1024:2048].view(np.float32), x.reshape(-1))
    assert not core00[:1024].any()
    m.free(b)
    c = m.allocate((2, 64), "f32", ONE_CORE)  # 512 B: first fit is the freed space at 1024
    assert c.address == 1024
    assert not m.peek(c, 0).any()  # a new buffer reads as zeros
    with pytest.raises(LayoutError, match="'buffer1' was deallocated"):
        m.peek(b, 0)


def test_a_stale_handle_to_reused_memory_is_detected():
    m = Machine("n150")
    a = m.allocate((4, 64), "f32", ONE_CORE)
    m.l1.allocators[0].free(a.address)  # freed behind the handle's back, then reused
    m.allocate((4, 64), "f32", ONE_CORE)
    with pytest.raises(LayoutError, match="overlaps memory that now belongs to another allocation"):
        m.peek(a, 0)


def test_regions_out_of_bounds_are_errors():
    m = Machine("n150")
    size = m.desc.l1_size
    with pytest.raises(LayoutError, match=r"bytes \[1499120, 1499152\) are out of bounds of the L1 of core \(0, 0\)"):
        m.l1.region(0, size - 16, 32)


def test_peak_and_fragmentation_per_core():
    m = Machine("n150")
    a = m.allocate((4, 64), "f32", ONE_CORE)
    b = m.allocate((4, 64), "f32", ONE_CORE)
    m.allocate((4, 64), "f32", ONE_CORE)
    m.free(b)
    size = m.desc.l1_size
    # free: a 1024 B hole and the tail of size - 3072 B
    frag = 1 - (size - 3072) / (size - 2048)
    core = m.core_report()[(0, 0)]
    assert core["peak"] == 3072
    assert core["fragmentation"] == pytest.approx(frag, abs=1e-4)
    assert m.core_report()[(0, 1)] == {"peak": 0, "fragmentation": 0.0}
    m.free(a)  # the hole grows to 2048 B
    mem = m.memory_use()[0]
    assert mem["cores"][(0, 0)]["fragmentation"] == pytest.approx(1 - (size - 3072) / (size - 1024), abs=1e-4)
    assert mem["peak_l1_core"] == 3072


def test_memory_of_a_big_system_is_created_only_when_used():
    from meshc.layout.system import mesh_system

    m = Machine(mesh_system((64, 64)), (64, 64))
    assert m.num_devices == 4096 and m.l1.resident_bytes() == 0 and m.dram.resident_bytes() == 0
    assert m.system.chip_at((63, 0)) == 63 * 64


USE_AFTER_FREE = """
#device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chipIds = [0]>
builtin.module attributes {tt.device = #device} {
  func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>} : () -> !ttmetal.buffer<64x64xf32>
    "ttmetal.enqueue_write_buffer"(%x, %0) {shard_dims = array<i64: -1>} : (tensor<64x64xf32>, !ttmetal.buffer<64x64xf32>) -> ()
    "ttmetal.deallocate_buffer"(%0) : (!ttmetal.buffer<64x64xf32>) -> ()
    %1 = "ttmetal.enqueue_read_buffer"(%0) {shard_dims = array<i64: -1>} : (!ttmetal.buffer<64x64xf32>) -> tensor<64x64xf32>
    func.return %1 : tensor<64x64xf32>
  }
}
"""


def test_reading_a_deallocated_buffer_is_an_error_at_the_op():
    with pytest.raises(RunError, match="was deallocated") as e:
        meshc.run(USE_AFTER_FREE, seed=0)
    assert e.value.op is not None and e.value.op.name == "ttmetal.enqueue_read_buffer"
