"""System descriptions: chips, their core grids and memories, and the ethernet links between them.

A `SystemDesc` is what `#tt.system_desc` carries and what the simulator builds its machine
from. `system(name)` makes the usual Tenstorrent systems: n150 (1 chip), n300 (1x2),
t3k (2x4) and galaxy (8x4), all wormhole_b0.

A program's device mesh runs on a system's chips: `mesh_fits` says whether it fits the chip
mesh, `mesh_view_chips` which chips its devices take, and `default_system` which system a
program without a `#tt.system_desc` runs on.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from functools import cached_property

from meshc.layout.errors import LayoutError
from meshc.layout.limits import MAX_CORES, MAX_DEVICES, MAX_DRAM_BANKS, check_count
from meshc.layout.shapes import fmt_shape

# the machine's rates (the simulator's time model, docs/simulator.md; ttir-auto-shard's estimate)
ETH_BYTES_PER_S = 100e9 / 8  # an ethernet link, each direction
DRAM_BYTES_PER_S = 288e9  # a chip's DRAM
NOC_BYTES_PER_S = 32 * 1e9  # a chip's network on chip: 32 B a cycle at 1 GHz
HOST_BYTES_PER_S = 32e9  # the host link (PCIe gen4 x16)

GiB = 1 << 30


@dataclass(frozen=True)
class Arch:
    """Per-architecture constants."""

    name: str
    grid: tuple[int, int]
    """Worker (tensix) core grid a chip, rows x cols."""
    l1_size: int
    """Bytes of L1 a worker core (the part usable for tensors)."""
    dram_banks: int
    dram_bank_size: int
    dram_alignment: int = 32
    l1_alignment: int = 16


ARCHS: dict[str, Arch] = {
    "grayskull": Arch("grayskull", (9, 12), 1_048_576 - 131_072, 8, GiB),
    "wormhole_b0": Arch("wormhole_b0", (8, 8), 1_499_136, 12, GiB),
    "blackhole": Arch("blackhole", (10, 13), 1_572_864 - 131_072, 8, 4 * GiB),
}


def get_arch(name: str) -> Arch:
    if name not in ARCHS:
        raise LayoutError(f"unknown architecture '{name}'; expected one of {', '.join(ARCHS)}")
    return ARCHS[name]


@dataclass(frozen=True)
class ChipDesc:
    arch: str
    grid: tuple[int, int]
    l1_size: int
    dram_banks: int
    dram_bank_size: int
    coord: tuple[int, ...]
    """Position of the chip in the system's chip mesh."""

    @classmethod
    def of_arch(cls, arch: str, coord: tuple[int, ...]) -> "ChipDesc":
        a = get_arch(arch)
        return cls(a.name, a.grid, a.l1_size, a.dram_banks, a.dram_bank_size, tuple(coord))

    @property
    def arch_info(self) -> Arch:
        return get_arch(self.arch)


@dataclass(frozen=True)
class SystemDesc:
    chips: tuple[ChipDesc, ...]
    links: tuple[tuple[int, int], ...] = field(default=())
    """Ethernet links as unordered chip-id pairs (a < b); each link carries traffic both ways."""
    mesh_shape: tuple[int, ...] = (1,)
    """Shape of the chip mesh; chip i sits at chips[i].coord."""

    def __post_init__(self):
        verify_system(self)

    @property
    def num_chips(self) -> int:
        return len(self.chips)

    def neighbours(self, chip: int) -> list[int]:
        return sorted({b for a, b in self.links if a == chip} | {a for a, b in self.links if b == chip})

    @cached_property
    def _chip_index(self) -> dict[tuple[int, ...], int]:
        return {c.coord: i for i, c in enumerate(self.chips)}

    def chip_at(self, coord: tuple[int, ...]) -> int:
        """The id of the chip at a chip-mesh coordinate (a dict lookup, built once a system)."""
        i = self._chip_index.get(tuple(coord))
        if i is None:
            raise LayoutError(f"no chip at mesh coordinate {tuple(coord)}")
        return i


def verify_system(s: SystemDesc) -> None:
    if not s.chips:
        raise LayoutError("a system needs at least one chip")
    coords = [c.coord for c in s.chips]
    if len(set(coords)) != len(coords):
        raise LayoutError("two chips of the system share a mesh coordinate")
    for c in s.chips:
        if len(c.coord) != len(s.mesh_shape) or any(not 0 <= x < n for x, n in zip(c.coord, s.mesh_shape)):
            raise LayoutError(f"chip coordinate {c.coord} lies outside the chip mesh {s.mesh_shape}")
        if c.grid[0] <= 0 or c.grid[1] <= 0 or c.l1_size <= 0 or c.dram_banks <= 0:
            raise LayoutError(f"chip at {c.coord} has an empty grid or memory")
        check_count(c.grid[0] * c.grid[1], MAX_CORES, f"the grid {fmt_shape(c.grid)} of the chip at {c.coord}", "cores")
        check_count(c.dram_banks, MAX_DRAM_BANKS, f"the chip at {c.coord}", "DRAM banks")
    n = len(s.chips)
    for a, b in s.links:
        if not (0 <= a < n and 0 <= b < n) or a == b:
            raise LayoutError(f"ethernet link ({a}, {b}) must join two different chips of the {n} in the system")


def mesh_system(mesh_shape: tuple[int, ...], arch: str = "wormhole_b0", torus: bool = False) -> SystemDesc:
    """Chips on a row-major mesh, ethernet between mesh neighbours (and wrap-around if torus)."""
    if any(n < 1 for n in mesh_shape):
        raise LayoutError(f"chip mesh {fmt_shape(mesh_shape)} must have positive sizes")
    check_count(math.prod(mesh_shape), MAX_DEVICES, f"chip mesh {fmt_shape(mesh_shape)}", "chips")
    coords = list(itertools.product(*[range(n) for n in mesh_shape]))
    index = {c: i for i, c in enumerate(coords)}
    links: set[tuple[int, int]] = set()
    for c in coords:
        for axis, n in enumerate(mesh_shape):
            if n == 1:
                continue
            nxt = list(c)
            nxt[axis] = c[axis] + 1
            if nxt[axis] == n:
                if not torus or n <= 2:
                    continue
                nxt[axis] = 0
            a, b = index[c], index[tuple(nxt)]
            links.add((min(a, b), max(a, b)))
    chips = tuple(ChipDesc.of_arch(arch, c) for c in coords)
    return SystemDesc(chips, tuple(sorted(links)), tuple(mesh_shape))


SYSTEMS: dict[str, tuple[int, ...]] = {"n150": (1, 1), "n300": (1, 2), "t3k": (2, 4), "galaxy": (8, 4)}


def system(name: str) -> SystemDesc:
    """The named wormhole_b0 system: n150, n300, t3k or galaxy."""
    if name not in SYSTEMS:
        raise LayoutError(f"unknown system '{name}'; expected one of {', '.join(SYSTEMS)} or a file path")
    return mesh_system(SYSTEMS[name])



def mesh_fits(mesh_shape: tuple[int, ...], system_mesh: tuple[int, ...]) -> bool:
    """Whether a device mesh (size-1 axes ignored) fits a chip mesh, aligned at the last axis."""
    sq = tuple(n for n in mesh_shape if n > 1)
    if len(sq) > len(system_mesh):
        return False
    sq = (1,) * (len(system_mesh) - len(sq)) + sq
    return all(a <= b for a, b in zip(sq, system_mesh))


def mesh_view_chips(system: SystemDesc, mesh_shape: tuple[int, ...]) -> tuple[int, ...]:
    """The chip ids a device mesh's devices take, in device order (row-major over `mesh_shape`).

    A mesh that fits the chip mesh (`mesh_fits`) takes the chips at the same mesh coordinates,
    size-1 axes dropped and the rest aligned at the last axis (a smaller mesh takes the origin
    corner). A mesh of another shape whose volume fits (2x2x2 on a t3k) is a view of the first
    chips in row-major chip order. LayoutError when the system has too few chips."""
    smesh = tuple(system.mesh_shape)
    if not mesh_fits(mesh_shape, smesh):
        n = math.prod(mesh_shape)
        if n > system.num_chips:
            raise LayoutError(f"a {fmt_shape(mesh_shape)} device mesh needs {n} chips, but the system "
                              f"has {system.num_chips} (chip mesh {fmt_shape(smesh)})")
        return tuple(system.chip_at(c) for c in itertools.islice(itertools.product(*[range(k) for k in smesh]), n))
    sq = tuple(k for k in mesh_shape if k > 1)
    ms = (1,) * (len(smesh) - len(sq)) + sq
    # device order is row-major over the program mesh, which size-1 axes do not change
    return tuple(system.chip_at(c) for c in itertools.product(*[range(k) for k in ms]))


def default_system(mesh_shape: tuple[int, ...], chip_ids=()) -> SystemDesc:
    """The system a program on `mesh_shape` runs on when it names none: the smallest named system
    (n150, n300, t3k, galaxy) whose chip mesh holds the mesh and that has every chip in `chip_ids`
    (the program's `#tt.device`'s), else the smallest with enough chips (the mesh is then a view of
    its first chips, `mesh_view_chips`), else a plain chip mesh of the program's shape."""
    chips_needed = max(int(c) for c in chip_ids) + 1 if len(chip_ids) else 1
    for name, shape in SYSTEMS.items():
        if mesh_fits(mesh_shape, shape) and math.prod(shape) >= chips_needed:
            return system(name)
    for name, shape in SYSTEMS.items():  # a view of the first chips (2x2x2 on a t3k)
        if math.prod(shape) >= max(chips_needed, math.prod(mesh_shape)):
            return system(name)
    return mesh_system(tuple(mesh_shape))


def chips_system(system: SystemDesc, chip_ids) -> SystemDesc:
    """The part of `system` a device's chips make up: device i is chip `chip_ids[i]`, linked as the
    system links those chips (the topology a reshard between the device's devices runs on)."""
    ids = [int(c) for c in chip_ids]
    index = {c: i for i, c in enumerate(ids)}
    links = tuple(sorted((min(index[a], index[b]), max(index[a], index[b]))
                         for a, b in system.links if a in index and b in index))
    return SystemDesc(tuple(system.chips[c] for c in ids), links, tuple(system.mesh_shape))
