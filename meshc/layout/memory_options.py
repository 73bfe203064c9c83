"""The ways one tensor can be held on a chip, and what each costs in memory: the choices of the
memory-layout optimizer (`meshc.layout.memory_plan`).

Per device tensor, six kinds (TT-Metal's Tensor and Memory Layouts report, section 4):

- `l1_block_sharded`: 2-D blocks on a rectangle of cores (the layout `ttir-layout` wrote when it
  is one; else the largest rectangle of the chip's grid the tensor's page grid covers);
- `l1_height_sharded`: whole rows, ceil(page rows / cores) page rows a core, over the chip's grid;
- `l1_width_sharded`: whole columns, likewise over page columns;
- `l1_interleaved`: pages round-robin over the L1 of the chip's cores (every core a bank), so each
  of the grid's cores reserves ceil(pages / cores) pages; an op with such a result computes on
  the chip's whole grid, as for any interleaved result;
- `dram_interleaved`: pages round-robin over the chip's DRAM banks;
- `dram_sharded`: width-sharded over the DRAM banks (a bank holds a band of columns).

Every fact of an `Option` comes from the placement model: `place` (shard shape, owners, the
shard grid the simulator computes on, the tensor's data bytes), `LiveTensor.l1_footprint` (the
cores and the aligned bytes a lockstep allocation reserves on each) and
`dram_budget.dram_bank_bytes` (the bytes it takes in each bank). A kind the placement model
refuses (a shard larger than a core's L1, a grid the tensor cannot be cut into) is no option;
its reason is kept for the report.
"""

from __future__ import annotations

from dataclasses import dataclass

from meshc.layout.dram_budget import dram_bank_bytes
from meshc.layout.dtypes import get_dtype
from meshc.layout.errors import CapacityError, LayoutError
from meshc.layout.l1_budget import LiveTensor
from meshc.layout.memory_config import CoreRange, MemoryConfig
from meshc.layout.placement import place
from meshc.layout.system import get_arch
from meshc.layout.tensor_layout import TensorLayout

KINDS = ("l1_block_sharded", "l1_height_sharded", "l1_width_sharded", "l1_interleaved", "dram_interleaved",
         "dram_sharded")
"""The kinds in the order that breaks ties of equal modelled time (after the tensor's own layout)."""


def kind_of(config: MemoryConfig) -> str:
    """The kind of a memory config (`dram_sharded` for any sharded DRAM; an L1 ND sharded config
    keeps its own name)."""
    if config.buffer == "dram":
        return "dram_interleaved" if config.layout == "interleaved" else "dram_sharded"
    return f"l1_{config.layout}"


@dataclass(frozen=True, eq=False)
class Option:
    """One way to hold a tensor: its memory config and what it takes."""

    kind: str
    config: MemoryConfig
    tile: tuple[int, int] | None
    cores: frozenset
    """L1 cores (y, x) holding part of it (empty in DRAM)."""
    per_core: int
    """L1 bytes each of `cores` reserves (aligned; 0 in DRAM)."""
    bank_bytes: int
    """DRAM bytes each bank it spans reserves (0 in L1)."""
    nbytes: int
    """The tensor's data bytes (pages x page bytes): what reading or writing it moves."""
    grid: tuple[int, int]
    """The shard grid (Placement.shard_grid): (1, 1) for interleaved pages."""

    @property
    def dram(self) -> bool:
        return self.config.buffer == "dram"

    @property
    def interleaved(self) -> bool:
        return self.config.layout == "interleaved"

    def describe(self) -> str:
        if self.dram:
            how = "interleaved" if self.interleaved else f"sharded over {self.grid[0] * self.grid[1]} banks"
            return f"DRAM {how}, {self.bank_bytes:,} B a bank"
        if self.interleaved:
            return f"L1 interleaved over {len(self.cores)} cores, {self.per_core:,} B a core"
        name = self.config.layout.replace("_", "-")
        return f"L1 {name} on {len(self.cores)} cores ({self.grid[0]}x{self.grid[1]} shards), {self.per_core:,} B a core"


def _explicit(config: MemoryConfig, p) -> MemoryConfig:
    """The config with the shard shape the placement derived (an IR attribute states it)."""
    if config.layout == "interleaved" or config.shard_shape is not None:
        return config
    sr, sc = p.shard_pages
    ph, pw = p.layout.page_shape
    return MemoryConfig(config.buffer, config.layout, grid=config.grid, shard_shape=(sr * ph, sc * pw),
                        orientation=config.orientation)


def make_option(shape: tuple[int, ...], dtype: str, tile, config: MemoryConfig, arch: str) -> Option:
    """The option of holding a tensor by `config` (LayoutError / CapacityError when it cannot be)."""
    p = place(shape, get_dtype(dtype), config, tile=tile, arch=arch)
    config = _explicit(config, p)
    live = LiveTensor("", tuple(shape), dtype, config, tile, 0, 0)
    cores, per_core = live.l1_footprint(arch)
    bank = dram_bank_bytes(live, arch, get_arch(arch).dram_banks)
    return Option(kind_of(config), config, tile, frozenset(cores), per_core, bank,
                  p.num_pages * p.page_bytes, p.shard_grid)


def candidate_configs(shape: tuple[int, ...], dtype: str, tile, arch: str,
                      current: MemoryConfig | None) -> dict[str, MemoryConfig]:
    """The memory config of each kind for a tensor (module docstring)."""
    a = get_arch(arch)
    gy, gx = a.grid
    rows, cols = TensorLayout(shape, get_dtype(dtype), tile).page_grid
    chip = CoreRange((0, 0), (gy - 1, gx - 1))
    block = current if current is not None and kind_of(current) == "l1_block_sharded" else \
        MemoryConfig("l1", "block_sharded", grid=(min(rows, gy), min(cols, gx)))
    return {
        "l1_block_sharded": block,
        "l1_height_sharded": MemoryConfig("l1", "height_sharded", grid=chip),
        "l1_width_sharded": MemoryConfig("l1", "width_sharded", grid=chip),
        "l1_interleaved": MemoryConfig("l1", "interleaved"),
        "dram_interleaved": MemoryConfig("dram", "interleaved"),
        "dram_sharded": MemoryConfig("dram", "width_sharded", grid=CoreRange((0, 0), (0, a.dram_banks - 1))),
    }


def tensor_options(shape: tuple[int, ...], dtype: str, tile, arch: str, current: MemoryConfig | None,
                   cache: dict) -> tuple[dict[str, Option], dict[str, str]]:
    """({kind: Option} of the kinds the placement model accepts, {kind: why not} of the others);
    the tensor's own config, when it is of none of the six kinds (L1 ND sharded), is one more
    option under its own kind. `cache` holds the options of configs already placed."""
    whole = ("options", shape, dtype, tile, current, arch)
    hit = cache.get(whole)
    if hit is not None:
        return dict(hit[0]), dict(hit[1])
    out: dict[str, Option] = {}
    why: dict[str, str] = {}
    configs = candidate_configs(shape, dtype, tile, arch, current)
    if current is not None and kind_of(current) not in configs:
        configs[kind_of(current)] = current
    for kind, cfg in configs.items():
        key = (shape, dtype, tile, cfg, arch)
        hit = cache.get(key)
        if hit is None:
            try:
                hit = make_option(shape, dtype, tile, cfg, arch)
            except CapacityError as e:
                hit = f"does not fit: {e}"
            except LayoutError as e:
                hit = f"cannot be laid out so: {e}"
            cache[key] = hit
        if isinstance(hit, str):
            why[kind] = hit
        else:
            out[kind] = hit
    cache[whole] = (out, why)
    return dict(out), dict(why)
