"""Large host transfers (spread over host threads, one device a thread) round-trip exactly and count
the bytes of every device once."""

import numpy as np

from meshc.layout.memory_config import MemoryConfig
from meshc.sim import machine as machine_mod
from meshc.sim.machine import Machine


def test_large_transfer_round_trips_on_threads_and_counts_each_device_once():
    m = Machine("t3k", (2, 4))
    local = (512, 2048)  # 4 MiB of f32 a device, 32 MiB in all: above the threaded threshold
    assert 8 * local[0] * local[1] * 4 >= machine_mod._PARALLEL_BYTES
    buf = m.allocate(local, "f32", MemoryConfig("dram", "interleaved"), name="big")
    rng = np.random.default_rng(0)
    shards = [rng.standard_normal(local).astype(np.float32) for _ in range(8)]
    m.write(buf, shards)
    back = m.read(buf)
    for a, b in zip(shards, back):
        assert np.array_equal(a, b)
    per_device = local[0] * local[1] * 4
    assert sorted(m.traffic.host_to_device.values()) == [per_device] * 8
    assert sorted(m.traffic.device_to_host.values()) == [per_device] * 8
