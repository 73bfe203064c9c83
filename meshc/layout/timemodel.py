"""The time model: how long an op takes on Tenstorrent hardware, from the facts of
meshc.layout.hardware and calibrated on Tenstorrent's published component measurements.

One model, read by the simulator (every op it runs, meshc/sim/machine.py) and by
`ttir-auto-shard` (through the simulator). Per op, each resource is busy for a time:

- compute: tiles x cycles a tile over the cores holding the work (`matmul_compute_s`,
  `compute_s`), keyed on the op's cost class in meshc.layout.compute_ops; a TTMetal program's
  as one core's tile ops on its block (`kernel_compute_s`), the cores running in parallel;
- dram: the bytes read from and written to a chip's DRAM over its streaming rate (`dram_s`);
- noc: the bytes crossing a chip's network on chip over its cores' injection rate (`noc_s`);
- ethernet: a collective as alpha-beta (`collective_s`: a fixed cost per call + a cost per hop +
  the bytes through the busiest link over the usable links' rate, line or ring as TT's CCL report
  fits them); other chip-to-chip moves as the busiest link direction's bytes over its rate plus a
  hop's latency (`link_s`);
- host: the bytes over the system's PCIe links (`host_s`), reported apart from device time.

An op takes `OpTime.device_s` = its latency terms + max(compute, movement) + OVERLAP_MISS x
min(compute, movement), movement being the slowest of dram, noc and ethernet: data streams
while the engines compute, except for a part (the first blocks in flight, the last written)
that the GEMM_FLOPS table fits as OVERLAP_MISS. Ops run one after another in program order
(TT-Metal's command queue runs a device's programs in order); host transfers are added apart.

Pure Python: no IR, no numpy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from meshc.layout.compute_ops import DATA_MOVEMENT, ELEMENTWISE_FPU, ELEMENTWISE_SFPU, MATMUL, REDUCTION, compute_op
from meshc.layout.errors import LayoutError
from meshc.layout.hardware import FIDELITY_PHASES, ArchFacts

TILE = 32
TILE_ELEMS = TILE * TILE

OVERLAP_MISS = 0.6
"""Part of the shorter of compute and data movement that does not overlap the longer: fitted on
tech_reports/GEMM_FLOPS's N150 table (80 rows, 512^3 to 16384^3, five fidelity / format pairs)."""

DRAM_INJECTION_BYTES_PER_CYCLE = 23.2
"""What one core reads from DRAM a cycle [tt-npe wormhole_b0.hpp: DRAM injection 23.2 B/cycle]."""

WORKER_INJECTION_BYTES_PER_CYCLE = 28.1
"""What one worker core puts on the NoC a cycle [tt-npe wormhole_b0.hpp: 28.1 B/cycle]."""

ETH_PAYLOAD_EFFICIENCY = 0.96
"""Payload over line rate with the fabric's headers [CCL_bandwidth.md: "near 96%"]."""

SFPU_INSTRUCTIONS_PER_ELEMENT_OP = 16
"""ASSUMPTION: vector-unit instructions an elementwise SFPU op takes per 32 lanes (load, the
function's polynomial or LUT steps, store); no published per-op figure was found."""

DEFAULT_FIDELITY = {"f32": "HiFi4", "bf16": "HiFi4", "bfp_bf8": "HiFi2", "bfp_bf4": "LoFi"}
"""TTNN's default math fidelity per input format (the GEMM_FLOPS report pairs BFLOAT16 with HiFi4,
BFLOAT8_B with HiFi2 and BFLOAT4_B with LoFi as "full" settings)."""

# Collectives on the 1D fabric, fitted by TT's CCL bandwidth report on a Wormhole LoudBox
# (tech_reports/CCLs/results/SUMMARY_wormhole_b0_bfloat16_6144.md): time = startup + per_hop x
# hops + bottleneck bytes / (links x directions x line rate x utilisation). `startup` and
# `per_hop` (microseconds) solve the minimax fit of each measured (N, topology) row, 16 KiB to
# 64 MiB (hops = N - 1 on a line, N / 2 on a ring); utilisation is the report's measured
# asymptote per topology, the 2-device line apart (it ran at about half the 4-device line's rate).
CCL_STARTUP_US = {"all_gather": 5.25, "reduce_scatter": 4.375, "all_reduce": 6.5, "all_to_all": 0.375}
CCL_PER_HOP_US = {  # (line, ring)
    "all_gather": (1.75, 3.19), "reduce_scatter": (4.125, 3.78),
    "all_reduce": (7.75, 5.5), "all_to_all": (3.625, 4.16),
}
CCL_UTILISATION = {  # (2-device line, longer line, ring)
    "all_gather": (0.51, 0.955, 0.78), "reduce_scatter": (0.66, 0.78, 0.61),
    "all_reduce": (0.57, 0.83, 0.69), "all_to_all": (0.495, 0.81, 0.625),
}
CCL_KINDS = tuple(CCL_STARTUP_US)
"""The collectives timed as TT's CCL report fits them (`collective_op_time`)."""
CCL_ONE_SHOT_BYTES = 512 * 1024
CCL_ONE_SHOT_FACTOR = 2.3
"""[CCL_bandwidth.md] a ring reduce_scatter of up to 512 KiB a device uses a one-shot direct
algorithm that "sends about 2.3x the bytes" (all_reduce inherits it)."""


@dataclass(frozen=True)
class OpTime:
    """Seconds each resource of one op is busy, its latency terms, and its host transfer."""

    compute: float = 0.0
    dram: float = 0.0
    noc: float = 0.0
    ethernet: float = 0.0
    latency: float = 0.0
    host: float = 0.0

    @property
    def movement(self) -> float:
        return max(self.dram, self.noc, self.ethernet)

    @property
    def device_s(self) -> float:
        """The op's device time (module docstring)."""
        c, m = self.compute, self.movement
        return self.latency + max(c, m) + OVERLAP_MISS * min(c, m)

    @property
    def seconds(self) -> float:
        """Device time plus host transfer time (the host link is not overlapped)."""
        return self.device_s + self.host

    @property
    def bound(self) -> str:
        """What bound the op: the resource with the most time (latency when the fixed costs do)."""
        terms = {"compute": self.compute, "dram": self.dram, "noc": self.noc, "ethernet": self.ethernet,
                 "latency": self.latency, "host": self.host}
        best = max(terms.values())
        return "none" if best <= 0 else next(k for k, v in terms.items() if v == best)

    def as_dict(self) -> dict:
        return {"compute_s": self.compute, "dram_s": self.dram, "noc_s": self.noc, "ethernet_s": self.ethernet,
                "latency_s": self.latency, "host_s": self.host, "device_s": self.device_s, "bound": self.bound}


def _format(dtype: str) -> str:
    return dtype if dtype in ("bfp_bf8", "bfp_bf4", "f32") else "bf16"


def math_fidelity_of(value) -> str:
    """A math fidelity a program names, checked (LayoutError naming the accepted ones)."""
    if value not in FIDELITY_PHASES:
        raise LayoutError(f"math_fidelity '{value}' is not one of {', '.join(FIDELITY_PHASES)}")
    return value


def tile_cycles(arch: ArchFacts, fidelity: str, fmt: str) -> float:
    """Cycles one 32x32x32 tile product takes on one core: the matrix engine's fidelity-bound
    rate, or the unpackers' floor for the format when that is slower."""
    engine = arch.tile_cycles_lofi * FIDELITY_PHASES[fidelity] / arch.fpu_efficiency
    return max(engine, arch.unpack_cycles_per_tile[_format(fmt)])


def matmul_compute_s(arch: ArchFacts, m: int, k: int, n: int, grid: tuple[int, int], fidelity: str | None = None,
                     fmt: str = "bf16", batch: int = 1) -> float:
    """A (batch of) m x k by k x n matmul on a gy x gx grid of cores: each core computes its
    ceil(Mt / gy) x ceil(Nt / gx) block of output tiles over all Kt (the block utilisation of a
    2D multicast matmul: a ragged edge costs a whole block)."""
    gy, gx = max(1, grid[0]), max(1, grid[1])
    mt, kt, nt = (math.ceil(max(x, 1) / TILE) for x in (m, k, n))
    per_core = math.ceil(mt / gy) * math.ceil(nt / gx) * kt * max(1, batch)
    fid = fidelity or DEFAULT_FIDELITY.get(_format(fmt), "HiFi4")
    return per_core * tile_cycles(arch, fid, fmt) / arch.clock_hz


def compute_s(arch: ArchFacts, kind: str, elements: int, cores: int, fmt: str = "bf16") -> float:
    """A non-matmul compute op over `elements` result elements on `cores` cores, by its cost class."""
    cost = compute_op(kind).cost
    tiles = math.ceil(max(elements, 0) / TILE_ELEMS / max(1, cores))
    if cost == DATA_MOVEMENT or tiles == 0:
        return 0.0
    unpack = arch.unpack_cycles_per_tile[_format(fmt)]
    if cost in (ELEMENTWISE_FPU, REDUCTION):
        cycles = unpack
    elif cost == ELEMENTWISE_SFPU:
        cycles = max(unpack, TILE_ELEMS / arch.sfpu_lanes * SFPU_INSTRUCTIONS_PER_ELEMENT_OP)
    elif cost == MATMUL:
        raise ValueError("a matmul is timed by matmul_compute_s")
    else:
        raise ValueError(f"cost class '{cost}' has no time model")
    return tiles * cycles / arch.clock_hz


COPY = "copy"
"""A kernel's tile copy (TTMetal's `tile_unary` op "copy"): moves a block within a core, computes none."""


@dataclass(frozen=True)
class TileOp:
    """One tile op of a TTMetal kernel as one core runs it on its block."""

    kind: str
    """The op's kind in meshc.layout.compute_ops (`matmul`, `gelu`, `add`, `where`, `sum`,
    `transpose`, ...) or COPY."""
    elements: int
    """Elements of the result block."""
    fmt: str = "bf16"
    """The data format the engine reads: the result's; a matmul's B operand's (as TTNN's)."""
    mkn: tuple[int, int, int] = (0, 0, 0)
    """A matmul's block: (m, k) x (k, n) for each of `batch` matrices."""
    batch: int = 1
    fidelity: str | None = None
    """A matmul's math fidelity (None: TTNN's default for `fmt`)."""


def tile_op_s(arch: ArchFacts, op: TileOp) -> float:
    """Seconds one core computes one tile op on its block: a matmul as `matmul_compute_s` on one
    core, any other op as `compute_s` by its cost class on one core (data movement: none)."""
    if op.kind == COPY:
        return 0.0
    if compute_op(op.kind).cost == MATMUL:
        m, k, n = op.mkn
        return matmul_compute_s(arch, m, k, n, (1, 1), op.fidelity, op.fmt, op.batch)
    return compute_s(arch, op.kind, op.elements, 1, op.fmt)


def kernel_compute_s(arch: ArchFacts, ops) -> float:
    """A TTMetal program's compute seconds: every core of its grid runs the kernel's tile ops
    `ops` (TileOp) on its own block, the cores in parallel. A program's blocks are alike (a block
    access splits a buffer evenly over the grid), so the program computes as long as one core
    does: the sum of its tile ops. The same op on the same grid costs what TTNN's op does
    (`matmul_compute_s` over the grid splits Mt and Nt as the blocks do; `compute_s` over the
    grid's cores counts the tiles a core holds)."""
    return sum(tile_op_s(arch, op) for op in ops)


def dram_s(arch: ArchFacts, nbytes: float, readers: int | None = None) -> float:
    """Bytes to or from one chip's DRAM: the chip's peak, or what `readers` cores can pull."""
    rate = arch.dram_bytes_per_s
    if readers is not None:
        rate = min(rate, readers * DRAM_INJECTION_BYTES_PER_CYCLE * arch.clock_hz)
    return nbytes / rate


def matmul_dram_readers(grid: tuple[int, int], weight_banks: int | None = None) -> int:
    """Cores that read a 2D multicast matmul's operands from DRAM: one row of the grid reads B and
    multicasts it down the columns (and one column A); the busier of the two sets is a row.
    `weight_banks`: B is sharded over that many DRAM banks, which TTNN's DRAM-sharded matmul
    (MatmulMultiCoreReuseMultiCastDRAMShardedProgramConfig, "for very narrow tensors stored in
    DRAM") reads with a core a bank; ASSUMPTION: one reader core a bank, so the readers are the
    larger of the row and the banks."""
    return max(1, grid[1], weight_banks or 0)


def noc_s(arch: ArchFacts, nbytes: float, cores: int) -> float:
    """Bytes crossing one chip's NoC, injected by `cores` cores."""
    return nbytes / (max(1, cores) * WORKER_INJECTION_BYTES_PER_CYCLE * arch.clock_hz)


def collective_s(arch: ArchFacts, kind: str, topology: str, n: int, input_bytes: float,
                 links: int = 1) -> tuple[float, float]:
    """(latency, ethernet seconds) of one collective over `n` devices of one mesh axis.
    `input_bytes` is each device's input (all_gather: its piece; the others: its whole tensor)."""
    if n <= 1:
        return 0.0, 0.0
    ring = topology == "ring"
    hops = n / 2 if ring else n - 1
    per_hop = CCL_PER_HOP_US[kind][1 if ring else 0]
    latency = (CCL_STARTUP_US[kind] + per_hop * hops) * 1e-6
    if kind == "all_gather":
        bottleneck = (n - 1) * input_bytes
    elif kind == "reduce_scatter":
        bottleneck = (n - 1) / n * input_bytes
    elif kind == "all_reduce":
        bottleneck = 2 * (n - 1) / n * input_bytes
    else:
        bottleneck = (n // 2) * ((n + 1) // 2) / n * input_bytes
    if ring and kind in ("reduce_scatter", "all_reduce") and input_bytes <= CCL_ONE_SHOT_BYTES:
        bottleneck *= CCL_ONE_SHOT_FACTOR
    util = CCL_UTILISATION[kind][2 if ring else (0 if n == 2 else 1)]
    rate = max(1, links) * (2 if ring else 1) * arch.eth_bytes_per_s * util
    return latency, bottleneck / rate


def collective_op_time(arch: ArchFacts, kind: str, topology: str, n: int, input_bytes: float, links: int,
                       dram_bytes: float, noc_bytes: float, cores: int) -> OpTime:
    """One collective of CCL_KINDS as the simulator times it (meshc/sim/machine.py) and the memory
    plans do (meshc/passes/ttmetal_optimize_memory.py): its latency and ethernet time as
    `collective_s` (no op launch: the fit's startup holds it), its DRAM and NoC time the busiest
    chip's reads of its input and writes of its output (`dram_bytes`, `noc_bytes`). The NoC moves
    of its sends (a chip's ethernet cores reading and writing pieces) are not added: TT's CCL
    report measured whole ops, so they are inside the fitted alpha-beta."""
    latency, eth = collective_s(arch, kind, topology, n, input_bytes, links)
    return OpTime(dram=dram_s(arch, dram_bytes), noc=noc_s(arch, noc_bytes, cores), ethernet=eth, latency=latency)


def traffic_op_time(arch: ArchFacts, dram_bytes: float, noc_bytes: float, cores: int, link_bytes: float = 0,
                    links: int = 1, launch: bool = True, compute: float = 0.0, readers: int | None = None,
                    host: float = 0.0) -> OpTime:
    """One op that is not a collective of CCL_KINDS, as the simulator times it (meshc/sim/machine.py)
    and the TTMetal memory plan does (its programs and other collectives): `compute` seconds, the
    busiest chip's DRAM bytes (streamed by `readers` cores when given) and NoC bytes, the busiest
    link direction's bytes over `links` links (`link_s`: a hop's latency), a device program's
    launch when `launch`, and `host` seconds of host transfer."""
    latency, eth = link_s(arch, link_bytes, links)
    return OpTime(compute=compute, dram=dram_s(arch, dram_bytes, readers), noc=noc_s(arch, noc_bytes, cores),
                  ethernet=eth, latency=latency + (arch.op_launch_s if launch else 0.0), host=host)


def link_s(arch: ArchFacts, busiest_direction_bytes: float, links: int = 1, hops: int = 1) -> tuple[float, float]:
    """(latency, ethernet seconds) of point-to-point moves: the busiest link direction's bytes at
    the payload rate of the usable links, plus the hops' forwarding latency."""
    if busiest_direction_bytes <= 0:
        return 0.0, 0.0
    return hops * arch.eth_hop_s, busiest_direction_bytes / (max(1, links) * arch.eth_bytes_per_s * ETH_PAYLOAD_EFFICIENCY)


def host_s(arch: ArchFacts, nbytes: float, host_links: int = 1) -> float:
    """Bytes between host and devices over `host_links` PCIe links used at once."""
    return nbytes / (max(1, host_links) * arch.pcie_bytes_per_s)


def matmul_time(arch: ArchFacts, m: int, k: int, n: int, grid: tuple[int, int], fmt: str = "bf16",
                fidelity: str | None = None, dram_bytes: float = 0.0, batch: int = 1) -> OpTime:
    """One matmul on one chip: its compute, the `dram_bytes` it streams (read by one row of the
    grid, `matmul_dram_readers`) and the op's launch cost."""
    return OpTime(compute=matmul_compute_s(arch, m, k, n, grid, fidelity, fmt, batch),
                  dram=dram_s(arch, dram_bytes, matmul_dram_readers(grid)), latency=arch.op_launch_s)


def collective_time(arch: ArchFacts, kind: str, topology: str, n: int, input_bytes: float, links: int = 1) -> OpTime:
    """One collective as alpha-beta (collective_s)."""
    latency, eth = collective_s(arch, kind, topology, n, input_bytes, links)
    return OpTime(ethernet=eth, latency=latency)
