"""Per-architecture and per-system hardware facts: the one table meshc's memory model and time
model read.

Every number cites the public source it was read from (short names, spelled out in
docs/simulator.md, "Sources of the time model"):

- [WH spec]   docs.tenstorrent.com, Wormhole specifications (n150 / n300 cards)
- [BH spec]   docs.tenstorrent.com, Blackhole specifications (p100a / p150 cards)
- [GS spec]   docs.tenstorrent.com, Grayskull specifications (e75 / e150 cards)
- [ISA]       tenstorrent/tt-isa-documentation (WormholeB0: L1, NoC, Vector Unit (SFPU))
- [GEMM]      tt-metal tech_reports/GEMM_FLOPS ("Matrix Multiply FLOPS")
- [CCL]       tt-metal tech_reports/CCLs/CCL_bandwidth.md and its results/SUMMARY tables
- [MESH]      tt-metal tech_reports "Programming Mesh of Devices with TT-NN"
- [NPE]       tenstorrent/tt-npe device models (wormhole_b0.hpp, blackhole.hpp)
- [CORSIX]    "Tenstorrent Wormhole Series Part 1: Physicalities" (tenstorrent.com community highlight)

A fact no source gave is marked ASSUMPTION where it is defined, and docs/simulator.md lists it.
Pure Python: no IR, no numpy.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from meshc.layout.errors import LayoutError

GiB = 1 << 30

DEFAULT_ARCH = "wormhole_b0"
"""The architecture a program that names none runs on (every named system of meshc but p150 and
bh_galaxy is Wormhole B0)."""

FIDELITY_PHASES = {"LoFi": 1, "HiFi2": 2, "HiFi3": 3, "HiFi4": 4}
"""Passes of the matrix engine a math fidelity takes: cycles a 32x32x32 tile product takes are
16 x phases (LoFi 16, HiFi2 32, HiFi3 48, HiFi4 64) [GEMM, "Utilization derivation formula"]."""


@dataclass(frozen=True)
class ArchFacts:
    """One chip architecture. Rates are bytes a second, times seconds."""

    name: str
    grid: tuple[int, int]
    """Worker core grid meshc places on (rows, cols): TTNN's compute grid."""
    l1_size: int
    """Bytes of a worker core's L1 usable for tensors."""
    dram_banks: int
    dram_bank_size: int
    dram_channels: int
    dram_bytes_per_s: float
    """Peak DRAM bandwidth of the whole chip."""
    clock_hz: float
    noc_bytes_per_cycle: float
    """One NoC link, one direction."""
    noc_count: int
    noc_hop_cycles: float
    """Latency a NoC hop adds (a write is `noc_write_cycles` + hops x this)."""
    noc_write_cycles: float
    tile_cycles_lofi: float
    """Cycles the matrix engine takes for one 32x32x32 tile product at LoFi; x FIDELITY_PHASES."""
    unpack_cycles_per_tile: dict = field(default_factory=dict)
    """Floor on cycles a 32x32x32 tile product takes per input data format, set by the unpackers
    feeding the matrix engine (calibrated, see below)."""
    fpu_efficiency: float = 1.0
    """Fraction of the fidelity-bound rate the matrix engine sustains when nothing else binds."""
    sfpu_lanes: int = 32
    """Vector unit (SFPU) lanes of 32 bits, one instruction a cycle."""
    eth_bytes_per_s: float = 0.0
    """Line rate of one ethernet link, one direction."""
    eth_hop_s: float = 0.0
    """Forwarding latency of one ethernet hop on the 1D fabric."""
    pcie_bytes_per_s: float = 0.0
    """One card's host link."""
    op_launch_s: float = 0.0
    """Fixed device time of one op on the cores (kernel start, first block in flight)."""
    l1_alignment: int = 16
    dram_alignment: int = 32


ARCH_FACTS: dict[str, ArchFacts] = {
    "grayskull": ArchFacts(
        name="grayskull",
        grid=(9, 12),                     # [GS spec] e150: 120 Tensix cores (TTNN's 9x12 compute grid)
        l1_size=1_048_576 - 131_072,      # [GS spec] 1 MB SRAM a core, less a 128 KiB reserve
        dram_banks=8, dram_bank_size=GiB,  # [GS spec] 8 GB LPDDR4
        dram_channels=8,
        dram_bytes_per_s=118.4e9,         # [GS spec] e150 118.4 GB/s
        clock_hz=1.2e9,                   # [GS spec] e150 AI clock 1.2 GHz
        noc_bytes_per_cycle=32.0,         # ASSUMPTION: 32 B/cycle NoC links
        noc_count=2,
        noc_hop_cycles=10.0, noc_write_cycles=40.0,  # ASSUMPTION: Wormhole's [NPE]
        tile_cycles_lofi=16.0,            # ASSUMPTION: Wormhole's engine rate
        unpack_cycles_per_tile={"bf16": 38.0, "f32": 76.0, "bfp_bf8": 19.0, "bfp_bf4": 18.0},
        fpu_efficiency=0.95,
        pcie_bytes_per_s=32e9,            # [GS spec] PCI Express 4.0 x16
        op_launch_s=5.0e-6,
    ),
    "wormhole_b0": ArchFacts(
        name="wormhole_b0",
        grid=(8, 8),                      # [GEMM] "max for Wormhole is 8x8" compute grid
        l1_size=1_499_136,                # [ISA] WormholeB0 L1: 1464 KiB a Tensix core
        dram_banks=12, dram_bank_size=GiB,  # [CORSIX] six GDDR6 chips of two 1 GB banks; [WH spec] 12 GB
        dram_channels=6,                  # [CCL] "6 channels, ~258 GB/s aggregate"
        dram_bytes_per_s=288e9,           # [WH spec] n150 memory bandwidth 288 GB/s
        clock_hz=1.0e9,                   # [WH spec] AI clock 1 GHz
        noc_bytes_per_cycle=30.0,         # [NPE] wormhole_b0.hpp: 30 B/cycle a link and direction
        noc_count=2,                      # [ISA] WormholeB0/NoC: NoC0 and NoC1
        noc_hop_cycles=10.0,              # [NPE] write latency 40 + 10 x hops cycles
        noc_write_cycles=40.0,
        tile_cycles_lofi=16.0,            # [GEMM] LoFi 16 cycles a tile (HiFi2 32, HiFi3 48, HiFi4 64)
        # Calibrated on [GEMM]'s N150 manually tuned table (80 rows, device-based utilisation):
        # bf16 HiFi2 reaches 71% of its 32 cycles at 16384^3 (~45 cycles a tile) where bf16
        # HiFi4 reaches 91% of 64: a floor set by the unpackers per input format, fitted
        # (minimax over the table, with OVERLAP_MISS and op_launch_s) as bf16 38, bfp8 19,
        # bfp4 18 cycles; f32 twice bf16's bytes, ASSUMPTION twice its floor.
        unpack_cycles_per_tile={"bf16": 38.0, "f32": 76.0, "bfp_bf8": 19.0, "bfp_bf4": 18.0},
        fpu_efficiency=0.95,              # [GEMM] fitted; bf16 HiFi4 16384^3 reaches 91.45% device utilisation
        sfpu_lanes=32,                    # [ISA] Vector Unit (SFPU): 32 lanes of 32 bits, IPC 1
        eth_bytes_per_s=100e9 / 8,        # [CCL] Wormhole 100 Gb/s = 12.5 GB/s a link and direction
        eth_hop_s=711e-9,                 # [CCL] per-hop latency, 1D fabric, Wormhole
        pcie_bytes_per_s=32e9,            # [WH spec] PCI Express 4.0 x16 (~32 GB/s a direction)
        op_launch_s=5.0e-6,               # [GEMM] fitted: N150 512^3 rows take 6.5-9.3 us, ~1-4 us of it compute
    ),
    "blackhole": ArchFacts(
        name="blackhole",
        grid=(10, 13),                    # [GEMM] "Blackhole supporting up to 13x10"
        l1_size=1_572_864 - 131_072,      # [BH spec] 1.5 MB SRAM a Tensix core, less a 128 KiB reserve meshc keeps
        dram_banks=8, dram_bank_size=4 * GiB,  # [BH spec] 32 GB GDDR6 (p150); 8 channels [CCL]
        dram_channels=8,                  # [CCL] "~64 GB/s (8 channels, ~512 GB/s aggregate)"
        dram_bytes_per_s=512e9,           # [BH spec] p150 512 GB/s
        clock_hz=1.35e9,                  # [GEMM] "At 1.35GHz (BH)"
        noc_bytes_per_cycle=60.9,         # [NPE] blackhole.hpp: 60.9 B/cycle a link and direction
        noc_count=2,                      # [NPE] two NoCs
        noc_hop_cycles=10.0,              # ASSUMPTION: Wormhole's hop latency [NPE]
        noc_write_cycles=40.0,            # ASSUMPTION: Wormhole's
        tile_cycles_lofi=16.0,            # [GEMM] same engine: 4096 multiply-adds a cycle
        # ASSUMPTION: Wormhole's unpack floors scaled by [GEMM]'s better Blackhole utilisation
        # (P150 peaks at 96% against N150's 93%): the same floor in cycles, less 10%.
        unpack_cycles_per_tile={"bf16": 34.0, "f32": 68.0, "bfp_bf8": 17.0, "bfp_bf4": 16.0},
        fpu_efficiency=0.96,              # [GEMM] "Blackhole (P150) ... peak utilization reaching 96%"
        sfpu_lanes=32,                    # ASSUMPTION: Wormhole's 32 lanes [ISA]
        eth_bytes_per_s=400e9 / 8,        # [CCL] Blackhole 400 Gb/s = 50 GB/s (ran at half rate when measured)
        eth_hop_s=515e-9,                 # [CCL] per-hop latency, 1D fabric, Blackhole
        pcie_bytes_per_s=64e9,            # [BH spec] PCI Express 5.0 x16 (~64 GB/s a direction)
        op_launch_s=5.0e-6,               # ASSUMPTION: Wormhole's calibrated launch cost
    ),
}


@dataclass(frozen=True)
class SystemFacts:
    """One Tenstorrent system: its chips on a mesh and what joins them."""

    name: str
    arch: str
    mesh_shape: tuple[int, ...]
    links_per_pair: int
    """Usable ethernet links between two neighbouring chips (the minimum over the system's hops)."""
    host_links: int
    """PCIe host links (one a card); host transfers to the chips share them."""
    torus: bool = False


SYSTEM_FACTS: dict[str, SystemFacts] = {
    # [WH spec] one Wormhole ASIC a card, PCIe 4.0 x16
    "n150": SystemFacts("n150", "wormhole_b0", (1, 1), links_per_pair=0, host_links=1),
    # [MESH] / [CCL]: two links join the n300's chips, one reserved for fast dispatch (1 usable);
    # [CORSIX] only the first chip is on PCIe
    "n300": SystemFacts("n300", "wormhole_b0", (1, 2), links_per_pair=1, host_links=1),
    # [MESH] T3000 / QuietBox: four n300 cards as a 2x4 mesh, 2 links a neighbouring pair
    "t3k": SystemFacts("t3k", "wormhole_b0", (2, 4), links_per_pair=2, host_links=4),
    # [MESH] Galaxy: 32 chips as 8x4, 4 links a neighbouring pair.
    # ASSUMPTION: host links 4 (the sources read do not say how the host reaches a Galaxy's chips)
    "galaxy": SystemFacts("galaxy", "wormhole_b0", (8, 4), links_per_pair=4, host_links=4),
    # [BH spec] one Blackhole ASIC a card, PCIe 5.0 x16
    "p150": SystemFacts("p150", "blackhole", (1, 1), links_per_pair=0, host_links=1),
    # [CCL] Blackhole Galaxy (the report's second machine), 32 chips.
    # ASSUMPTION: 8x4 like the Wormhole Galaxy, 2 links a pair, 4 host links
    "bh_galaxy": SystemFacts("bh_galaxy", "blackhole", (8, 4), links_per_pair=2, host_links=4),
}


def arch_facts(name: str) -> ArchFacts:
    if name not in ARCH_FACTS:
        raise LayoutError(f"unknown architecture '{name}'; expected one of {', '.join(ARCH_FACTS)}")
    return ARCH_FACTS[name]
