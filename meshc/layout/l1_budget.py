"""The per-core L1 budget of a program: which tensors are live on which core, and the peak.

A program's device tensors are `LiveTensor`s: a tensor placed on one chip by a memory config
(`meshc.layout.place`), alive from the step that allocates it to the last step that uses it,
both inclusive (steps are the program's ops in order). Every device of a mesh holds the same
placement at the same address (a lockstep allocation), so one chip's budget is every chip's.

An L1 tensor takes, on every core that owns a part of it, the bytes of its largest owner
rounded up to the L1 alignment (16 B on every architecture meshc models): the size a lockstep
allocation reserves in each core's L1. DRAM tensors take no L1. `l1_budget(...)` adds these up
step by step and core by core (`L1Budget`): the busiest core at its busiest step (the peak),
and the first step at which some core holds more than its capacity, each with the tensors live
there and their bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from meshc.layout.dtypes import DataType, get_dtype
from meshc.layout.limits import MAX_TENSOR_BYTES, check_count
from meshc.layout.memory_config import MemoryConfig
from meshc.layout.placement import place
from meshc.layout.system import get_arch
from meshc.layout.shapes import fmt_shape, round_up
from meshc.layout.hardware import DEFAULT_ARCH


def _align_up(n: int, alignment: int) -> int:
    return round_up(n, alignment)


@dataclass(frozen=True)
class LiveTensor:
    """A device tensor of `shape` and `dtype` placed by `config` (tile None: row-major pages),
    alive over steps [start, end]."""

    name: str
    shape: tuple[int, ...]
    dtype: DataType | str
    config: MemoryConfig
    tile: tuple[int, int] | None
    start: int
    end: int

    def l1_footprint(self, arch: str = DEFAULT_ARCH) -> tuple[tuple[tuple[int, int], ...], int]:
        """(cores, bytes a core): the cores holding part of it and the L1 each reserves for it
        (largest owner's bytes, aligned); ((), 0) for a DRAM tensor."""
        if self.config.buffer != "l1":
            return (), 0
        return _footprint(tuple(self.shape), get_dtype(self.dtype).name, self.config, self.tile, arch)


@lru_cache(maxsize=4096)
def _footprint(shape: tuple[int, ...], dtype: str, config: MemoryConfig, tile, arch: str):
    """One placement a distinct tensor (programs repeat the same few shapes and configs)."""
    p = place(shape, get_dtype(dtype), config, tile=tile, arch=arch)
    nbytes = max(p.owner_bytes().values(), default=0)
    # the budget adds the bytes up in int64; a shard past any memory (a shard shape of 2**63 rows)
    # is refused here rather than overflowing it
    part = f"shard {fmt_shape(config.shard_shape)}" if config.shard_shape else "part"
    check_count(int(nbytes), MAX_TENSOR_BYTES, f"one core's {part} of the {fmt_shape(shape)} tensor", "bytes")
    return tuple(tuple(o) for o in p.owners), _align_up(max(int(nbytes), 1), get_arch(arch).l1_alignment)


def footprints(tensors: list[LiveTensor], arch: str = DEFAULT_ARCH) -> list[tuple]:
    """`l1_footprint` of each tensor, looked up once per shape, data type, tile and config object
    (a program's tensors share a few config objects; the memo keeps each alive)."""
    seen: dict[tuple, tuple] = {}
    out = []
    for t in tensors:
        key = (id(t.config), t.shape, t.dtype, t.tile)
        hit = seen.get(key)
        if hit is None:
            hit = seen[key] = (t.l1_footprint(arch), t.config)
        out.append(hit[0])
    return out


@dataclass
class L1Point:
    """The L1 of one core at one step: `bytes` held by the tensors `live` (indices into the
    tensors given, with the bytes each takes there in `bytes_of`)."""

    step: int
    core: tuple[int, int]
    bytes: int
    live: list[int]
    bytes_of: dict[int, int]


@dataclass
class L1Budget:
    """The L1 use of a program: every core's peak, the busiest core at its busiest step
    (`peak`), and the first point where a core holds more than `capacity` (`first_overflow`)."""

    capacity: int
    peak: L1Point | None
    first_overflow: L1Point | None
    core_peaks: dict[tuple[int, int], int] = field(default_factory=dict)
    use: np.ndarray | None = None
    """Bytes each core holds at each step: (steps + 1, len(cores)), rows = steps."""
    cores: list = field(default_factory=list)
    """The cores of `use`'s columns."""

    @property
    def peak_bytes(self) -> int:
        return 0 if self.peak is None else self.peak.bytes

    @property
    def fits(self) -> bool:
        return self.first_overflow is None

    @property
    def shortfall(self) -> int:
        """Bytes over the capacity at the peak."""
        return max(0, self.peak_bytes - self.capacity)


def l1_budget(tensors: list[LiveTensor], arch: str = DEFAULT_ARCH, capacity: int | None = None) -> L1Budget:
    """Add up the L1 bytes of every live tensor on every core at every step. The peak is the
    busiest core at its busiest step, the first overflow the earliest step at which some core
    holds more than `capacity` (that step's busiest core); ties go to the lowest core. Placement
    errors (a shard that fits no core at all) raise the placement model's LayoutError."""
    return L1Use(tensors, arch, capacity).budget()


class L1Use:
    """The L1 each core holds at each step, kept up to date while tensors move (`move`): the use
    is additive, so a move takes the tensor's bytes off its old cores and puts them on its new
    ones over its live range instead of adding every tensor up again; only a move onto a core no
    tensor held, or one changing the last step anything is held, adds everything up again
    (`reserve` holds bytes besides the tensors, as a copy the reshard phase plans). Without
    reserved bytes, `first_overflow()` and `budget()` are what `l1_budget` of the tensors as they
    now are gives."""

    def __init__(self, tensors: list[LiveTensor], arch: str = DEFAULT_ARCH, capacity: int | None = None,
                 footprints_of: list[tuple] | None = None):
        """`footprints_of`: each tensor's `l1_footprint` when the caller has it (the same object
        for equal ones; the cores in any order); then `tensors` need only their start and end."""
        self.arch = arch
        self.capacity = get_arch(arch).l1_size if capacity is None else int(capacity)
        self.footprints = footprints(tensors, arch) if footprints_of is None else list(footprints_of)
        self.reserved: list[tuple] = []
        """Bytes held besides the tensors (`reserve`): (footprint, first step, last step)."""
        n = len(self.footprints)
        self.starts = np.fromiter((t.start for t in tensors), dtype=np.int64, count=n)
        self.ends = np.fromiter((t.end for t in tensors), dtype=np.int64, count=n)
        self._add_up()

    def _add_up(self) -> None:
        """Every tensor added up, a footprint at a time: the tensors of one footprint (the same
        cores and bytes) add their bytes at their starts and take them off after their ends in one
        column of steps, which goes onto those cores once. The cores are kept as atoms: the cores
        that every set of cores held takes whole or not at all hold the same bytes at every step,
        so the use is one column an atom (`_use`: (steps + 1, atoms); `holds`: tensor x atom), a
        few columns instead of a chip's cores, however long the program."""
        footprints = self.footprints
        n = len(footprints)
        group: dict[int, int] = {}  # footprint (by identity: `footprints` shares equal ones) -> its number
        kinds: list[tuple] = []
        of = np.empty(n, dtype=np.int64)
        for i, fp in enumerate(footprints):
            g = group.get(id(fp))
            if g is None:
                g = group[id(fp)] = len(kinds)
                kinds.append(fp)
            of[i] = g
        held = kinds + [fp for fp, _, _ in self.reserved]
        self.cores = sorted({c for cs, _ in held for c in cs})
        self.col = {c: i for i, c in enumerate(self.cores)}
        sets = list(dict.fromkeys(frozenset(cs) for cs, _ in held if cs))
        atoms: dict[tuple, int] = {}  # the sets a core is in -> its atom
        self.atom = np.array([atoms.setdefault(tuple(k for k, s in enumerate(sets) if c in s), len(atoms))
                              for c in self.cores], dtype=np.int64)
        self.atom_size = np.bincount(self.atom, minlength=len(atoms))
        self._atoms: dict = {}
        self.holds = np.zeros((n, len(atoms)), dtype=bool)
        if not self.cores:
            self._use = None
            return
        steps = self._rows()
        delta = np.zeros((steps, len(atoms)), dtype=np.int64)
        for (cs, nbytes), first, last in self.reserved:
            if cs:
                ats = self._atoms_of(cs)
                delta[first, ats] += nbytes
                delta[last + 1, ats] -= nbytes
        order = np.argsort(of, kind="stable")
        bounds = np.searchsorted(of[order], np.arange(len(kinds) + 1))
        by_atoms: dict[tuple, np.ndarray] = {}  # the column of steps of each set of atoms
        for g, (cs, nbytes) in enumerate(kinds):
            if not cs:
                continue
            members = order[bounds[g]:bounds[g + 1]]
            ats = tuple(self._atoms_of(cs))
            column = by_atoms.get(ats)
            if column is None:
                column = by_atoms[ats] = np.zeros(steps, dtype=np.int64)
            np.add.at(column, self.starts[members], nbytes)
            np.subtract.at(column, self.ends[members] + 1, nbytes)
            self.holds[np.ix_(members, ats)] = True
        for ats, column in by_atoms.items():
            delta[:, list(ats)] += column[:, None]
        self._use = np.cumsum(delta, axis=0)

    def _rows(self) -> int:
        """Steps the use has rows for: to the last step anything is held, and one past it."""
        return max([int(self.ends.max(initial=0))] + [last for _, _, last in self.reserved]) + 2

    def _atoms_of(self, cs) -> list[int] | None:
        """The atoms a set of (known) cores is made of; None when it takes part of an atom."""
        hit = self._atoms.get(cs)
        if hit is None:
            ats = sorted({int(self.atom[self.col[c]]) for c in cs})
            whole = int(self.atom_size[ats].sum()) == len(set(cs))
            hit = self._atoms[cs] = ats if whole else []
        return hit or None

    @property
    def use(self) -> np.ndarray | None:
        """Bytes each core holds at each step: (steps + 1, len(cores))."""
        return None if self._use is None else self._use[:, self.atom]

    def move(self, i: int, tensor: LiveTensor, footprint: tuple | None = None) -> None:
        """Tensor i is now `tensor` (another place; a LayoutError if it fits no core), of
        `footprint` when the caller has it."""
        was_cs, was_bytes = self.footprints[i]
        cs, nbytes = footprint = tensor.l1_footprint(self.arch) if footprint is None else footprint
        was_rows = slice(int(self.starts[i]), int(self.ends[i]) + 1)
        self.footprints[i] = footprint
        self.starts[i], self.ends[i] = tensor.start, tensor.end
        if self._use is None or (was_rows.stop - 1 != tensor.end and self._rows() != len(self._use)) \
                or any(c not in self.col for c in cs) or (cs and self._atoms_of(cs) is None):  # rows or atoms change
            self._add_up()
            return
        if was_cs:
            was = self._atoms_of(was_cs)
            self._use[was_rows, was] -= was_bytes
            self.holds[i, was] = False
        if cs:
            now = self._atoms_of(cs)
            self._use[tensor.start:tensor.end + 1, now] += nbytes
            self.holds[i, now] = True

    def fits(self, footprint: tuple, first: int, last: int) -> bool:
        """Whether `footprint`'s bytes (cores, bytes a core) held over steps [first, last] besides
        what is there keep every core within the capacity (a core nothing holds holds 0 B)."""
        cs, nbytes = footprint
        if not cs:
            return True
        known = [self.col[c] for c in cs if c in self.col]
        if (len(known) < len(set(cs)) or self._use is None) and nbytes > self.capacity:
            return False
        if not known or self._use is None:
            return True
        ats = sorted({int(self.atom[k]) for k in known})
        return bool((self._use[first:last + 1, ats] + nbytes <= self.capacity).all())

    def reserve(self, footprint: tuple, first: int, last: int) -> None:
        """Hold `footprint`'s bytes over steps [first, last] besides the tensors (a copy of one, as
        the reshard phase plans them): in the use, not among any point's live tensors."""
        self.reserved.append((footprint, first, last))
        cs, nbytes = footprint
        if not cs:
            return
        if self._use is None or last + 2 > len(self._use) or any(c not in self.col for c in cs) \
                or self._atoms_of(cs) is None:
            self._add_up()
            return
        self._use[first:last + 1, self._atoms_of(cs)] += nbytes

    def _point(self, step: int, col: int) -> L1Point:
        a = self.atom[col]
        live = [int(i) for i in np.flatnonzero((self.starts <= step) & (self.ends >= step) & self.holds[:, a])]
        return L1Point(step, self.cores[col], int(self._use[step, a]), live,
                       {i: self.footprints[i][1] for i in live})

    def first_overflow(self) -> L1Point | None:
        """The earliest step at which some core holds more than the capacity, at that step's
        busiest core (ties: the lowest core); None when every core fits."""
        if self._use is None:
            return None
        over = (self._use > self.capacity).any(axis=1)
        if not over.any():
            return None
        step = int(np.argmax(over))
        return self._point(step, int(np.argmax(self._use[step, self.atom])))

    def budget(self) -> L1Budget:
        """The whole budget (peak, first overflow, every core's peak) of the tensors as they are."""
        held = self.holds.any(axis=0)[self.atom] if self.cores else np.zeros(0, dtype=bool)
        if not held.any():
            return L1Budget(self.capacity, None, None)
        cols = np.flatnonzero(held)
        cores = [self.cores[c] for c in cols]
        use = self._use[:, self.atom[cols]]
        per_core = use.max(axis=0)
        col = int(cols[int(np.argmax(per_core))])
        peak = self._point(int(np.argmax(self._use[:, self.atom[col]])), col)
        return L1Budget(self.capacity, peak, self.first_overflow(), {c: int(p) for c, p in zip(cores, per_core)},
                        use, cores)
