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
    capacity = get_arch(arch).l1_size if capacity is None else int(capacity)
    footprints = [t.l1_footprint(arch) for t in tensors]
    cores = sorted({c for cs, _ in set(footprints) for c in cs})
    if not cores:
        return L1Budget(capacity, None, None)
    index = {c: i for i, c in enumerate(cores)}
    steps = max(t.end for t in tensors) + 2
    delta = np.zeros((steps, len(cores)), dtype=np.int64)
    columns: dict[tuple, np.ndarray] = {}
    for t, (cs, nbytes) in zip(tensors, footprints):
        if cs:
            cols = columns.get(cs)
            if cols is None:
                cols = columns[cs] = np.fromiter((index[c] for c in cs), dtype=np.int64, count=len(cs))
            delta[t.start, cols] += nbytes
            delta[t.end + 1, cols] -= nbytes
    use = np.cumsum(delta, axis=0)

    def point(step: int, col: int) -> L1Point:
        core = cores[col]
        live = [i for i, (t, (cs, _)) in enumerate(zip(tensors, footprints))
                if t.start <= step <= t.end and core in cs]
        return L1Point(step, core, int(use[step, col]), live, {i: footprints[i][1] for i in live})

    per_core = use.max(axis=0)
    col = int(np.argmax(per_core))
    peak = point(int(np.argmax(use[:, col])), col)
    over = (use > capacity).any(axis=1)
    first = None
    if over.any():
        step = int(np.argmax(over))
        first = point(step, int(np.argmax(use[step])))
    return L1Budget(capacity, peak, first, {c: int(p) for c, p in zip(cores, per_core)}, use, cores)
