"""The hardware table (meshc/layout/hardware.py) is what the systems, the memory model and the
time model read: one default arch, every named system built from its row."""

from meshc.dialects.tt.device import SystemDescAttr
from meshc.layout.hardware import ARCH_FACTS, DEFAULT_ARCH, FIDELITY_PHASES, SYSTEM_FACTS
from meshc.layout.system import SYSTEMS, default_system, get_arch, mesh_system, system


def test_named_systems_come_from_the_table():
    assert set(SYSTEMS) == set(SYSTEM_FACTS)
    for name, f in SYSTEM_FACTS.items():
        s = system(name)
        assert s.mesh_shape == f.mesh_shape
        assert {c.arch for c in s.chips} == {f.arch}
        assert s.num_chips == f.mesh_shape[0] * f.mesh_shape[1]


def test_links_per_pair_as_the_mesh_report_gives_them():
    # "Programming Mesh of Devices with TT-NN": n300 1 usable of 2, T3K 2, Galaxy 4
    assert system("n300").links_per_pair == 1
    assert system("t3k").links_per_pair == 2
    assert system("galaxy").links_per_pair == 4


def test_memory_model_reads_the_same_rows():
    wh = get_arch("wormhole_b0")
    assert wh is ARCH_FACTS["wormhole_b0"]
    # tt-isa-documentation: 1464 KiB of L1 a Wormhole core; 12 GB of GDDR6 in 12 banks
    assert wh.l1_size == 1464 * 1024 and wh.dram_banks * wh.dram_bank_size == 12 << 30
    assert system("p150").chips[0].grid == ARCH_FACTS["blackhole"].grid


def test_one_default_arch():
    assert DEFAULT_ARCH == "wormhole_b0"
    # a program that names no system runs on a default-arch system, never on a Blackhole one
    for shape in [(1, 1), (1, 2), (2, 4), (8, 4)]:
        assert {c.arch for c in default_system(shape).chips} == {DEFAULT_ARCH}


def test_fidelity_cycles():
    # GEMM_FLOPS: LoFi 16, HiFi2 32, HiFi3 48, HiFi4 64 cycles a tile
    wh = ARCH_FACTS["wormhole_b0"]
    assert [wh.tile_cycles_lofi * FIDELITY_PHASES[f] for f in ("LoFi", "HiFi2", "HiFi3", "HiFi4")] == [16, 32, 48, 64]


def test_a_written_out_system_desc_keeps_its_links_a_pair():
    # #tt.system_desc lists chips and links only; a system that is a named one chip for chip
    # takes that system's links a pair and host links back (the t3k's 2 links a pair)
    assert SystemDescAttr.from_model(system("t3k")).model().links_per_pair == 2
    assert SystemDescAttr.from_model(system("galaxy")).model().host_links == 4
    # a system of no name keeps the defaults: one link a pair, one host link a chip
    odd = SystemDescAttr.from_model(mesh_system((3, 3))).model()
    assert odd.links_per_pair == 1 and odd.host_links is None
