"""The traffic counters and the bottleneck time model, with figures derived by hand."""

import pytest

from meshc.sim.machine import Machine
from meshc.sim.traffic import Traffic


def test_time_is_the_busiest_resource():
    t = Traffic()
    t.link[(0, 1)] += 12_500  # 12.5 kB at 100 Gb/s = 12.5 GB/s: 1 us
    t.link[(1, 0)] += 25_000  # 2 us: the busiest link direction
    t.noc[0] += 32_000  # 32 B a cycle at 1 GHz: 1 us
    t.dram_read[(0, 3)] += 288_000  # 288 GB/s a chip, banks together: 1 us
    t.dram_write[(0, 5)] += 288_000  # same chip: 2 us in all
    t.host_to_device[0] += 32_000  # 32 GB/s: 1 us
    assert t.time_estimate() == pytest.approx(2e-6)
    t.dram_write[(0, 7)] += 288_000  # chip 0's DRAM now 3 us
    assert t.time_estimate() == pytest.approx(3e-6)


def test_a_run_sums_its_ops():
    m = Machine("n300")
    with m.op("a"):
        m.send(0, 1, 12_500)
    with m.op("b"):
        m.send(1, 0, 25_000)
        m.send(0, 1, 12_500)
    assert [o.name for o in m.ops] == ["a", "b"]
    assert m.ops[1].traffic.link == {(1, 0): 25_000, (0, 1): 12_500}
    assert m.time_estimate == pytest.approx(1e-6 + 2e-6)
    assert m.traffic.link[(0, 1)] == 25_000


def test_multi_hop_sends_count_on_every_hop():
    m = Machine("galaxy")
    # chip 0 at (0, 0) to chip 31 at (7, 3): 7 hops down axis 0, then 3 along axis 1
    m.send(0, 31, 100)
    assert m.traffic.link_bytes == 10 * 100
    assert m.traffic.link[(0, 4)] == 100 and m.traffic.link[(30, 31)] == 100
