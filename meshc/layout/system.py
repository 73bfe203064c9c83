"""System descriptions: chips, their core grids and memories, and the ethernet links between them.

A `SystemDesc` is what `#tt.system_desc` carries and what the simulator builds its machine
from. `system(name)` makes the Tenstorrent systems of meshc.layout.hardware's table: n150
(1 chip), n300 (1x2), t3k (2x4) and galaxy (8x4) of Wormhole B0; p150 and bh_galaxy of Blackhole.

A program's device mesh runs on a system's chips: `mesh_fits` says whether it fits the chip
mesh, `mesh_view_chips` which chips its devices take, and `default_system` which system a
program without a `#tt.system_desc` runs on.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass, field
from functools import cached_property

from meshc.layout.errors import LayoutError
from meshc.layout.hardware import ARCH_FACTS, DEFAULT_ARCH, SYSTEM_FACTS, ArchFacts
from meshc.layout.limits import MAX_CORES, MAX_DEVICES, MAX_DRAM_BANKS, check_count
from meshc.layout.shapes import fmt_shape

GiB = 1 << 30

Arch = ArchFacts
"""Per-architecture constants: the rows of meshc.layout.hardware's table."""

ARCHS: dict[str, Arch] = ARCH_FACTS


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
    links_per_pair: int = 1
    """Usable ethernet links joining two linked chips (each entry of `links` stands for this many)."""
    host_links: int | None = None
    """Host (PCIe) links the host reaches the chips through; None: one a chip."""

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


def mesh_system(mesh_shape: tuple[int, ...], arch: str = DEFAULT_ARCH, torus: bool = False) -> SystemDesc:
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


SYSTEMS: dict[str, tuple[int, ...]] = {name: f.mesh_shape for name, f in SYSTEM_FACTS.items()}
"""Named systems and their chip meshes (meshc.layout.hardware.SYSTEM_FACTS): n150, n300, t3k and
galaxy (Wormhole B0), p150 and bh_galaxy (Blackhole)."""


@functools.lru_cache(maxsize=None)
def system(name: str) -> SystemDesc:
    """The named system (SYSTEMS), its chips of the system's architecture."""
    if name not in SYSTEMS:
        raise LayoutError(f"unknown system '{name}'; expected one of {', '.join(SYSTEMS)} or a file path")
    f = SYSTEM_FACTS[name]
    s = mesh_system(f.mesh_shape, f.arch, f.torus)
    return SystemDesc(s.chips, s.links, s.mesh_shape, max(f.links_per_pair, 1), f.host_links)



def with_named_facts(s: SystemDesc) -> SystemDesc:
    """`s` with the links a pair and host links of the named system it is chip for chip and link
    for link (a `#tt.system_desc` written out in full carries only chips and links)."""
    for name in SYSTEMS:
        n = system(name)
        if n.mesh_shape == s.mesh_shape and n.links == s.links and n.chips == s.chips:
            return n
    return s


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


def mesh_chips(system: SystemDesc, mesh_shape: tuple[int, ...], chip_ids=None) -> tuple[int, ...]:
    """The chips a device mesh's devices run on, in device order: `chip_ids` (a `#tt.device`'s,
    one a device and each a chip of the system: LayoutError otherwise), else `mesh_view_chips`."""
    if chip_ids is None:
        return mesh_view_chips(system, mesh_shape)
    chip_ids = tuple(int(c) for c in chip_ids)
    if len(chip_ids) != math.prod(mesh_shape):
        raise LayoutError(f"{len(chip_ids)} chip ids for a {fmt_shape(mesh_shape)} device mesh")
    bad = [c for c in chip_ids if not 0 <= c < system.num_chips]
    if bad:
        raise LayoutError(f"chip id {bad[0]} is not a chip of the {system.num_chips}-chip system")
    return chip_ids


def default_system(mesh_shape: tuple[int, ...], chip_ids=()) -> SystemDesc:
    """The system a program on `mesh_shape` runs on when it names none: the smallest named system
    of the default architecture (n150, n300, t3k, galaxy) whose chip mesh holds the mesh and that has every chip in `chip_ids`
    (the program's `#tt.device`'s), else the smallest with enough chips (the mesh is then a view of
    its first chips, `mesh_view_chips`), else a plain chip mesh of the program's shape."""
    chips_needed = max(int(c) for c in chip_ids) + 1 if len(chip_ids) else 1
    named = {n: s for n, s in SYSTEMS.items() if SYSTEM_FACTS[n].arch == DEFAULT_ARCH}
    for name, shape in named.items():
        if mesh_fits(mesh_shape, shape) and math.prod(shape) >= chips_needed:
            return system(name)
    for name, shape in named.items():  # a view of the first chips (2x2x2 on a t3k)
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
    return SystemDesc(tuple(system.chips[c] for c in ids), links, tuple(system.mesh_shape),
                      system.links_per_pair, system.host_links)
