"""Mesh buffers: bytes exactly as the placement model lays them out, counted host transfers,
lockstep addresses, and running out of L1."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meshc.layout.errors import CapacityError
from meshc.layout.memory_config import MemoryConfig
from meshc.layout.numerics import quantize
from meshc.sim.machine import Machine
from meshc.sim.memory import ShardLayout

CONFIGS = [
    MemoryConfig("dram", "interleaved"),
    MemoryConfig("l1", "interleaved"),
    MemoryConfig("l1", "height_sharded", (2, 4)),
    MemoryConfig("l1", "width_sharded", (2, 2)),
    MemoryConfig("l1", "block_sharded", (4, 4)),
    MemoryConfig("l1", "block_sharded", (4, 4), orientation="col_major"),
]


@settings(max_examples=60, deadline=None)
@given(h=st.integers(1, 70), w=st.integers(1, 70), cfg=st.sampled_from(CONFIGS),
       dtype=st.sampled_from(["f32", "bf16", "si32", "u16", "bfp_bf8"]), tiled=st.booleans())
def test_stored_bytes_are_the_placement_models(h, w, cfg, dtype, tiled):
    tile = (32, 32) if tiled else None
    try:
        layout = ShardLayout((h, w), dtype, cfg, tile)
    except ValueError:
        return  # a layout the placement model rejects (e.g. more shards than cores)
    rng = np.random.default_rng(h * 71 + w)
    x = (rng.standard_normal((h, w)) * 50).astype(layout.dtype.host_dtype)
    data = np.zeros((len(layout.owners), layout.owner_bytes), np.uint8)
    layout.scatter(x, list(data))  # one byte region an owner
    for k, (owner, buf) in enumerate(layout.placement.scatter(x).items()):
        assert owner == layout.owners[k]
        assert np.array_equal(data[k, : buf.size], buf), f"owner {owner} differs"
    assert np.array_equal(layout.gather(list(data)), quantize(x, dtype))


def test_host_write_counts_bytes_per_dram_bank_and_noc():
    m = Machine("n150")
    # 13 rows of 64 f32: 256 B pages; bank b gets pages b and b + 12: bank 0 two pages, 1..11 one
    buf = m.allocate((13, 64), "f32")
    x = np.arange(13 * 64, dtype=np.float32).reshape(13, 64)
    m.write(buf, [x])
    assert m.traffic.dram_write[(0, 0)] == 512
    assert all(m.traffic.dram_write[(0, b)] == 256 for b in range(1, 12))
    assert m.traffic.host_to_device[0] == 13 * 256
    assert m.traffic.noc[0] == 13 * 256
    (y,) = m.read(buf)
    assert np.array_equal(x, y)
    assert m.traffic.dram_read[(0, 0)] == 512 and m.traffic.device_to_host[0] == 13 * 256


def test_mesh_buffers_take_one_address_on_every_chip_and_are_freed():
    m = Machine("t3k")
    cfg = MemoryConfig("l1", "block_sharded", (2, 2))
    a = m.allocate((64, 64), "f32", cfg)
    b = m.allocate((64, 64), "f32", cfg)
    assert a.address == 0 and b.address == 32 * 32 * 4  # one 32x32 f32 shard a core
    # one allocator a core position serves the 8 chips of the mesh (lockstep allocation)
    assert m.l1.allocators[0 * 8 + 0].allocations == {0: 4096, 4096: 4096}
    assert m.l1.allocators[3 * 8 + 3].allocations == {}
    # the bytes live at those addresses: core (1, 1)'s L1 array on every chip holds b's shard at 4096
    x = np.arange(64 * 64, dtype=np.float32).reshape(64, 64)
    m.write(b, [x] * 8)
    l1 = m.l1.array(8192)[1 * 8 + 1]
    assert l1.shape[0] == 8
    assert np.array_equal(l1[5, 4096:8192].view(np.float32).reshape(32, 32), x[32:, 32:])
    m.free(a)
    c = m.allocate((32, 32), "f32", cfg)  # 16x16 shards fit the freed hole at 0
    assert c.address == 0
    assert m.peak_l1_core == 8192


def test_running_out_of_l1_names_the_core_and_the_missing_bytes():
    m = Machine("n300")
    cfg = MemoryConfig("l1", "height_sharded", (1, 1))
    m.allocate((1000, 256), "f32", cfg)  # 1,024,000 B on core (0, 0) of both chips
    with pytest.raises(CapacityError, match=r"core \(0, 0\) of chip \d.*524,288 B there.*475,136 B are free"):
        m.allocate((512, 256), "f32", cfg)


def test_a_shard_larger_than_l1_is_refused_before_allocating():
    m = Machine("n150")
    with pytest.raises(CapacityError, match="B short"):
        m.allocate((2048, 256), "f32", MemoryConfig("l1", "height_sharded", (1, 1)))
