"""The traffic counters and the time model applied to them (Machine.op_time), figures by hand
from the constants' sources: Wormhole links 12.5 GB/s a direction at 96% payload efficiency and
711 ns a hop (tech_reports/CCLs), DRAM 288 GB/s and PCIe 4.0 x16 32 GB/s (Wormhole spec), a
program's launch 5 us (fitted on GEMM_FLOPS), and the overlap rule of meshc.layout.timemodel."""

import pytest

from meshc.sim.machine import Machine
from meshc.sim.traffic import Traffic


def test_point_to_point_link_time():
    m = Machine("n300")
    t = Traffic()
    t.link[(0, 1)] += 12_000
    t.link[(1, 0)] += 24_000  # the busiest direction: 24,000 B / (12.5 GB/s x 0.96) = 2 us
    ot = m.op_time(t)
    assert ot.ethernet == pytest.approx(2e-6)
    assert ot.latency == pytest.approx(711e-9)  # one hop, no device program
    assert ot.device_s == pytest.approx(2.711e-6) and ot.bound == "ethernet"


def test_dram_and_launch():
    m = Machine("n150")
    t = Traffic()
    t.dram_read[(0, 3)] += 288_000  # 1 us at 288 GB/s
    t.dram_write[(0, 5)] += 288_000  # same chip: 2 us together
    ot = m.op_time(t)
    assert ot.dram == pytest.approx(2e-6) and ot.latency == pytest.approx(5e-6)
    assert ot.device_s == pytest.approx(7e-6) and ot.bound == "latency"


def test_host_transfers_are_apart_from_device_time():
    m = Machine("n150")
    t = Traffic()
    t.host_to_device[0] += 32_000  # 1 us over one PCIe 4.0 x16 link
    ot = m.op_time(t)
    assert ot.host == pytest.approx(1e-6) and ot.device_s == 0 and ot.seconds == pytest.approx(1e-6)


def test_compute_overlaps_streaming_but_for_a_part():
    m = Machine("n150")
    with m.op("matmul"):
        m.charge_compute(3e-6)
        m.traffic.counter("dram_read")[(0, 0)] += 288_000  # 1 us
    ot = m.ops[0].time
    # 5 us launch + max(3, 1) + 0.6 x min(3, 1)
    assert ot.device_s == pytest.approx(8.6e-6) and ot.bound == "latency"


def test_a_run_sums_its_ops():
    m = Machine("n300")
    with m.op("a"):
        m.send(0, 1, 12_000)  # 1 us + one hop
    with m.op("b"):
        m.send(1, 0, 24_000)  # 2 us + one hop
        m.send(0, 1, 12_000)
    assert [o.name for o in m.ops] == ["a", "b"]
    assert m.ops[1].traffic.link == {(1, 0): 24_000, (0, 1): 12_000}
    assert m.time_estimate == pytest.approx(1e-6 + 2e-6 + 2 * 711e-9)
    assert m.traffic.link[(0, 1)] == 24_000


def test_links_per_pair_divide_the_link_time():
    # a galaxy has 4 usable links a neighbouring pair (Programming Mesh of Devices): 4x the rate
    t = Traffic()
    t.link[(0, 1)] += 48_000
    assert Machine("galaxy").op_time(t).ethernet == pytest.approx(1e-6)


def test_multi_hop_sends_count_on_every_hop():
    m = Machine("galaxy")
    # chip 0 at (0, 0) to chip 31 at (7, 3): 7 hops down axis 0, then 3 along axis 1
    m.send(0, 31, 100)
    assert m.traffic.link_bytes == 10 * 100
    assert m.traffic.link[(0, 4)] == 100 and m.traffic.link[(30, 31)] == 100
