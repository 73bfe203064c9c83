"""Memory configs: which memory a tensor lives in and how its pages spread (TT-Metal's Tensor and Memory Layouts report, section 4).

`MemoryConfig(buffer, layout, grid, shard_shape, orientation)`:

* buffer: "l1" | "dram".
* layout: "interleaved" (pages round-robin over banks; no grid, no shard shape) or one of
  "height_sharded" | "width_sharded" | "block_sharded" | "nd_sharded" (pages in shards, a shard
  a core).
* grid: the cores the shards go to: a core grid `(rows, cols)` (the rectangle from core (0, 0)),
  a `CoreRange`, or a `CoreRangeSet` of one or more disjoint rectangles. Cores are `(y, x)`.
* shard_shape: elements of one shard, `(height, width)` of the tensor folded to 2D for
  height/width/block sharding, one extent per tensor dim for ND sharding. None lets `place()`
  derive it from the grid (height/width/block only).
* orientation: "row_major" (cores in x-fastest order) or "col_major" (y fastest).

A sharded config stores its grid as a `CoreRangeSet` whatever form it was given in, so
`MemoryConfig(..., grid=(2, 2))` equals the config read back from its IR attribute.

The config is only checked for its own consistency here; `meshc.layout.placement.place`
checks it against a tensor and an architecture.
"""

from __future__ import annotations

from dataclasses import dataclass

from meshc.layout.errors import LayoutError
from meshc.layout.limits import MAX_CORES, as_int, check_count
from meshc.layout.shapes import fmt_shape

BUFFERS = ("l1", "dram")
LAYOUTS = ("interleaved", "height_sharded", "width_sharded", "block_sharded", "nd_sharded")
ORIENTATIONS = ("row_major", "col_major")


def _coord(c, what: str) -> tuple[int, int]:
    try:
        y, x = c
    except (TypeError, ValueError):
        raise LayoutError(f"{what} must be a core coordinate (y, x); got {c!r}") from None
    y, x = as_int(y, f"{what} y"), as_int(x, f"{what} x")
    if y < 0 or x < 0:
        raise LayoutError(f"{what} ({y}, {x}) has a negative coordinate")
    return y, x


@dataclass(frozen=True)
class CoreRange:
    """The rectangle of cores from `start` to `end`, both (y, x) and both included."""

    start: tuple[int, int]
    end: tuple[int, int]

    def __post_init__(self):
        s, e = _coord(self.start, "core range start"), _coord(self.end, "core range end")
        if e[0] < s[0] or e[1] < s[1]:
            raise LayoutError(f"core range {s}-{e} is empty: its end must not lie above or left of its start")
        object.__setattr__(self, "start", s)
        object.__setattr__(self, "end", e)
        check_count(self.num_cores, MAX_CORES, f"core range {self}", "cores")

    @property
    def shape(self) -> tuple[int, int]:
        return self.end[0] - self.start[0] + 1, self.end[1] - self.start[1] + 1

    @property
    def num_cores(self) -> int:
        r, c = self.shape
        return r * c

    def contains(self, core: tuple[int, int]) -> bool:
        return self.start[0] <= core[0] <= self.end[0] and self.start[1] <= core[1] <= self.end[1]

    def intersects(self, other: "CoreRange") -> bool:
        return not (other.start[0] > self.end[0] or other.end[0] < self.start[0]
                    or other.start[1] > self.end[1] or other.end[1] < self.start[1])

    def cores(self, orientation: str = "row_major") -> list[tuple[int, int]]:
        ys = range(self.start[0], self.end[0] + 1)
        xs = range(self.start[1], self.end[1] + 1)
        if orientation == "col_major":
            return [(y, x) for x in xs for y in ys]
        return [(y, x) for y in ys for x in xs]

    def __str__(self) -> str:
        return f"({self.start[0]}, {self.start[1]})-({self.end[0]}, {self.end[1]})"


@dataclass(frozen=True)
class CoreRangeSet:
    """One or more disjoint core ranges; cores are enumerated range by range, in order."""

    ranges: tuple[CoreRange, ...]

    def __post_init__(self):
        rs = tuple(r if isinstance(r, CoreRange) else CoreRange(*r) for r in self.ranges)
        if not rs:
            raise LayoutError("a core range set needs at least one core range")
        for i, a in enumerate(rs):
            for b in rs[i + 1 :]:
                if a.intersects(b):
                    raise LayoutError(f"core ranges {a} and {b} overlap; the ranges of a set must be disjoint")
        object.__setattr__(self, "ranges", rs)
        check_count(self.num_cores, MAX_CORES, f"core range set {self}", "cores")

    @classmethod
    def from_grid(cls, grid) -> "CoreRangeSet":
        try:
            rows, cols = grid
        except (TypeError, ValueError):
            raise LayoutError(f"a core grid is (rows, cols); got {grid!r}") from None
        rows, cols = as_int(rows, "core grid rows"), as_int(cols, "core grid columns")
        if rows <= 0 or cols <= 0:
            raise LayoutError(f"core grid {rows}x{cols} is empty")
        return cls((CoreRange((0, 0), (rows - 1, cols - 1)),))

    @classmethod
    def of(cls, grid) -> "CoreRangeSet":
        """A core range set from a grid (rows, cols), a CoreRange or a CoreRangeSet."""
        if isinstance(grid, CoreRangeSet):
            return grid
        if isinstance(grid, CoreRange):
            return cls((grid,))
        if isinstance(grid, (list, tuple)) and grid and all(isinstance(r, CoreRange) for r in grid):
            return cls(tuple(grid))
        return cls.from_grid(grid)

    @property
    def num_cores(self) -> int:
        return sum(r.num_cores for r in self.ranges)

    @property
    def is_rectangle(self) -> bool:
        return len(self.ranges) == 1

    @property
    def bounding_box(self) -> CoreRange:
        return CoreRange((min(r.start[0] for r in self.ranges), min(r.start[1] for r in self.ranges)),
                         (max(r.end[0] for r in self.ranges), max(r.end[1] for r in self.ranges)))

    def cores(self, orientation: str = "row_major") -> list[tuple[int, int]]:
        return [c for r in self.ranges for c in r.cores(orientation)]

    def __str__(self) -> str:
        return "{" + ", ".join(str(r) for r in self.ranges) + "}"


@dataclass(frozen=True)
class ShardSpec:
    """The sharded part of a memory config: cores, shard shape (elements), orientation."""

    grid: CoreRangeSet
    shard_shape: "tuple[int, ...] | None"
    orientation: str = "row_major"


@dataclass(frozen=True)
class MemoryConfig:
    buffer: str = "dram"
    layout: str = "interleaved"
    grid: "CoreRangeSet | tuple[int, int] | None" = None
    shard_shape: "tuple[int, ...] | None" = None
    orientation: str = "row_major"

    def __post_init__(self):
        if self.buffer not in BUFFERS:
            raise LayoutError(f"unknown buffer type '{self.buffer}'; expected one of {', '.join(BUFFERS)}")
        if self.layout not in LAYOUTS:
            raise LayoutError(f"unknown memory layout '{self.layout}'; expected one of {', '.join(LAYOUTS)}")
        if self.orientation not in ORIENTATIONS:
            raise LayoutError(f"unknown shard orientation '{self.orientation}'; "
                              f"expected one of {', '.join(ORIENTATIONS)}")
        if self.layout == "interleaved":
            if self.grid is not None or self.shard_shape is not None:
                raise LayoutError("an interleaved layout spreads pages over every bank: it takes no grid "
                                  "and no shard shape (use a sharded layout to choose cores)")
            return
        if self.grid is None:
            raise LayoutError(f"a {self.layout} layout needs a core grid (or core range set) to put its shards on")
        object.__setattr__(self, "grid", CoreRangeSet.of(self.grid))
        if self.shard_shape is not None:
            try:
                ss = tuple(as_int(v, "shard shape") for v in self.shard_shape)
            except (TypeError, LayoutError):
                raise LayoutError(f"a shard shape is a sequence of integers; got {self.shard_shape!r}") from None
            if not ss or any(v <= 0 for v in ss):
                raise LayoutError(f"shard shape {fmt_shape(ss)} must have positive extents")
            if self.layout != "nd_sharded" and len(ss) != 2:
                raise LayoutError(f"{self.layout} takes a 2D shard shape (height, width) of the tensor "
                                  f"folded to 2D; got {len(ss)} dims (use nd_sharded for N-d shards)")
            object.__setattr__(self, "shard_shape", ss)
        elif self.layout == "nd_sharded":
            raise LayoutError("an nd_sharded layout needs a shard shape (one extent per tensor dim)")
        if self.layout == "block_sharded" and not self.grid.is_rectangle:  # type: ignore[union-attr]
            raise LayoutError(f"block sharding needs a single rectangle of cores; got {len(self.grid.ranges)} "  # type: ignore[union-attr]
                              "ranges (use height, width or nd sharding over a core range set)")

    @property
    def is_sharded(self) -> bool:
        return self.layout != "interleaved"

    @property
    def core_ranges(self) -> CoreRangeSet | None:
        return self.grid  # type: ignore[return-value]

    @property
    def shard_spec(self) -> ShardSpec | None:
        if not self.is_sharded:
            return None
        return ShardSpec(self.grid, self.shard_shape, self.orientation)  # type: ignore[arg-type]


HOST_UPLOAD_CONFIG = MemoryConfig("dram", "interleaved")
"""Where a device op's host operand (a constant, an argument not distributed) goes first: the
simulator writes it to every device's DRAM, interleaved (meshc/interp/runtime.py `as_device`),
and the memory plan times that write (meshc/layout/memory_plan.py)."""
