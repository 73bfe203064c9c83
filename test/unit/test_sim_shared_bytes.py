"""Bytes that several chips hold alike are held once by the host process (copy-on-write), while
the simulated machine -- its memory arrays, allocators, traffic and per-chip reports -- is the
same as with one copy a chip. Figures derived by hand in each test."""

import tracemalloc

import numpy as np
import pytest

from meshc.layout.memory_config import MemoryConfig
from meshc.layout.mesh_mappers import ReplicateTensorToMesh
from meshc.layout.sharded_buffer import lower_mesh_mapper
from meshc.sim.machine import Machine

MESH = (8, 4)  # a galaxy: 32 chips
SHAPE = (512, 512)  # f32: 1 MiB
DRAM = MemoryConfig("dram", "interleaved")
L1_BLOCKS = MemoryConfig("l1", "block_sharded", (8, 8))  # 64 x 64 a core


def replicated(layout, tile=None):
    m = Machine("galaxy", MESH)
    buf = m.allocate(SHAPE, "f32", layout, name="x", tile=tile)
    config = lower_mesh_mapper(SHAPE, MESH, ReplicateTensorToMesh(), 4)
    x = np.random.default_rng(5).standard_normal(SHAPE).astype(np.float32)
    return m, buf, config, x


@pytest.mark.parametrize("layout,tile", [(DRAM, None), (L1_BLOCKS, (32, 32))], ids=["dram-rows", "l1-tiles"])
def test_a_replicated_distribute_to_32_chips_is_held_once(layout, tile):
    m, buf, config, x = replicated(layout, tile)
    tracemalloc.start()
    try:
        m.write_host(buf, x, config)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # one copy of the tensor's bytes (1 MiB) plus at most one more in flight (the tiles encoded);
    # a copy a chip would be 32 MiB
    assert peak < 3 * x.nbytes
    # every chip reads the whole tensor, and got it over its host link
    assert np.array_equal(m.read_host(buf, config, SHAPE), x)
    for d in (0, 13, 31):
        assert np.array_equal(m.peek(buf, d), x)
    assert m.traffic.host_to_device == {c: x.nbytes for c in m.devices}


def test_the_memory_array_holds_the_shared_bytes_on_every_chip():
    m, buf, config, x = replicated(DRAM)
    m.write_host(buf, x, config)
    # interleaved rows of 2,048 B: row r is page r, in bank r % 12 at slot r // 12
    banks = m.dram.array(buf.address + 43 * 2048)
    rows = x.view(np.uint8).reshape(512, 2048)
    for chip in (0, 31):
        assert np.array_equal(banks[0, chip, buf.address:buf.address + 2048], rows[0])
        assert np.array_equal(banks[5, chip, buf.address + 2048:buf.address + 4096], rows[12 + 5])
    # 512 rows over 12 banks: banks 0-7 hold 43 pages, 4-11 hold 42
    assert m.memory_use()[m.devices[31]]["peak_dram_bank"] == 43 * 2048


def test_writing_one_chip_copies_the_shared_bytes_first():
    m, buf, config, x = replicated(L1_BLOCKS, (32, 32))
    m.write_host(buf, x, config)
    y = -x
    m.poke(buf, 5, y)
    assert np.array_equal(m.peek(buf, 5), y)
    for d in (0, 4, 6, 31):
        assert np.array_equal(m.peek(buf, d), x)
    # read back through the replicated config: the piece of the first device, 0
    assert np.array_equal(m.read_host(buf, config, SHAPE), x)


def test_devices_given_one_array_share_it_and_others_keep_their_own():
    m = Machine("galaxy", MESH)
    buf = m.allocate((64, 64), "f32", DRAM, name="t")
    rows = [np.full((64, 64), r, np.float32) for r in range(MESH[0])]
    # the same array along mesh axis 1: each row of the mesh shares one copy
    m.write(buf, [rows[d // MESH[1]] for d in range(32)])
    vals = m.peek_all(buf)
    assert all(vals[d] is vals[d - d % MESH[1]] for d in range(32))
    assert [float(vals[d][0, 0]) for d in range(0, 32, MESH[1])] == list(range(8))
    assert m.traffic.host_to_device == {c: 64 * 64 * 4 for c in m.devices}
