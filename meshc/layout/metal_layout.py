"""The `#tt.metal_layout` model: how a tensor is collapsed, gridded and sharded across cores.

`#tt.metal_layout<LINEAR, OOB, <GRID>, memref<SHARD x ELEM, #tt.memory_space<MS>>>`:

* LINEAR is an affine map from the tensor's index to a point of the *collapsed* tensor, whose
  rank is the grid's. `collapse_intervals` say which tensor dims fold into one: the default
  `[(0, -1)]` folds all but the last (Python-style end, exclusive; negative counts from the
  rank), so a 2x3x64x128 tensor gets `(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)`.
* GRID is the core grid the collapsed tensor is divided over.
* SHARD is one core's piece: per dim ceil(extent / grid), where the extent is
  LINEAR(last index) + 1 (in general: the largest value LINEAR takes, plus one). With a tile
  element type the last two dims count tiles: the element count divided by the tile shape,
  rounded up. 2x3x64x128 on grid 2x4: memref 192x32xf32, or 6x1 tiles of 32x32.
* OOB is the value of padding (undef, zero, one, inf, neginf); MS is system, dram or l1.

`build_metal_layout(...)` derives a layout; `MetalLayout.verify_against(shape)` checks a
written one against its tensor.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from meshc.layout.affine import AffineExpr, AffineMap, Dim, as_map
from meshc.layout.dtypes import DataType, get_dtype
from meshc.layout.errors import LayoutError
from meshc.layout.shapes import ceil_div, fmt_shape, fold_2d, round_up
from meshc.layout.memory_config import MemoryConfig

MEMORY_SPACES = ("system", "dram", "l1")
OOB_VALUES = ("undef", "zero", "one", "inf", "neginf")
TILE_SHAPES = ((32, 32), (16, 32), (32, 16), (16, 16), (8, 32), (4, 32), (2, 32), (1, 32))
"""Tile shapes the hardware supports (rows x cols); 16x16 faces, or narrower for the short tiles."""




@dataclass(frozen=True)
class Tile:
    """`!tt.tile<32x32, bf16>`: a tile shape and the data type of its elements."""

    shape: tuple[int, int]
    dtype: DataType

    def __post_init__(self):
        object.__setattr__(self, "shape", tuple(int(s) for s in self.shape))
        object.__setattr__(self, "dtype", get_dtype(self.dtype))
        if self.shape not in TILE_SHAPES:
            raise LayoutError(f"tile shape {fmt_shape(self.shape)} is not supported; expected one of "
                              f"{', '.join(fmt_shape(s) for s in TILE_SHAPES)}")
        if self.dtype.is_block_float:
            self.dtype.bytes_for(*self.shape)  # a whole number of exponent blocks

    @property
    def size_bytes(self) -> int:
        return self.dtype.bytes_for(*self.shape)

    def __str__(self) -> str:
        return f"{fmt_shape(self.shape)}, {self.dtype.name}"


def _check_choice(value: str, choices: tuple[str, ...], what: str) -> str:
    if value not in choices:
        raise LayoutError(f"unknown {what} '{value}'; expected one of {', '.join(choices)}")
    return value


@dataclass(frozen=True)
class MetalLayout:
    linear: AffineMap
    oob: str
    grid: tuple[int, ...]
    shard_shape: tuple[int, ...]
    """The memref shape: elements per core, or tiles in the last two dims when `element` is a Tile."""
    element: "DataType | Tile"
    memory_space: str

    def __post_init__(self):
        object.__setattr__(self, "linear", as_map(self.linear))
        object.__setattr__(self, "grid", tuple(int(g) for g in self.grid))
        object.__setattr__(self, "shard_shape", tuple(int(s) for s in self.shard_shape))
        if not isinstance(self.element, Tile):
            object.__setattr__(self, "element", get_dtype(self.element))
        self.verify()

    @property
    def tiled(self) -> bool:
        return isinstance(self.element, Tile)

    @property
    def dtype(self) -> DataType:
        return self.element.dtype if isinstance(self.element, Tile) else self.element

    def verify(self) -> None:
        """Checks that need no tensor: the parts agree with each other."""
        _check_choice(self.oob, OOB_VALUES, "OOB value")
        _check_choice(self.memory_space, MEMORY_SPACES, "memory space")
        if not self.grid or any(g <= 0 for g in self.grid):
            raise LayoutError(f"grid <{fmt_shape(self.grid)}> must have a rank of at least 1 and positive sizes")
        if self.linear.num_results != len(self.grid):
            raise LayoutError(f"the LINEAR map {self.linear} has {self.linear.num_results} results, but the "
                              f"grid <{fmt_shape(self.grid)}> has rank {len(self.grid)}")
        if len(self.shard_shape) != len(self.grid):
            raise LayoutError(f"the memref shard {fmt_shape(self.shard_shape)} has rank {len(self.shard_shape)}, "
                              f"but the grid <{fmt_shape(self.grid)}> has rank {len(self.grid)}")
        if any(s <= 0 for s in self.shard_shape):
            raise LayoutError(f"the memref shard {fmt_shape(self.shard_shape)} must have positive sizes")
        if not isinstance(self.element, Tile) and self.element.is_block_float:
            raise LayoutError(f"{self.element.name} elements are stored in tiles only (a shared exponent every "
                              f"16 elements); use a tile element type such as 32x32 tiles of {self.element.name}")
        if self.tiled and len(self.grid) < 2:
            raise LayoutError("a tiled layout needs a grid of rank 2 or more (tiles cover the last two dims)")

    @property
    def shard_elements(self) -> tuple[int, ...]:
        """One core's shard in elements (tiles times the tile shape in the last two dims)."""
        if isinstance(self.element, Tile):
            th, tw = self.element.shape
            s = self.shard_shape
            return s[:-2] + (s[-2] * th, s[-1] * tw)
        return self.shard_shape

    @property
    def shard_bytes(self) -> int:
        if isinstance(self.element, Tile):
            return prod(self.shard_shape) * self.element.size_bytes
        return prod(self.shard_shape) * self.element.itemsize

    def collapsed_shape(self, shape) -> tuple[int, ...]:
        return collapsed_shape(self.linear, shape)

    def verify_against(self, shape) -> None:
        """Raise LayoutError unless the memref is exactly the shard this layout derives for a
        tensor of `shape` (ceil(collapsed / grid) per dim, in tiles when tiled): a smaller one
        cannot hold the tensor, a larger one is not the shard the layout describes."""
        shape = _check_tensor_shape(shape)
        if self.linear.num_dims != len(shape):
            raise LayoutError(f"the LINEAR map {self.linear} takes {self.linear.num_dims} dims, but the "
                              f"tensor {fmt_shape(shape)} has rank {len(shape)}")
        collapsed = self.collapsed_shape(shape)
        have = self.shard_elements
        for i, (n, g, s) in enumerate(zip(collapsed, self.grid, have)):
            if s * g < n:
                unit = f" of {fmt_shape(self.element.shape)} tiles" if isinstance(self.element, Tile) else ""
                raise LayoutError(
                    f"the memref shard {fmt_shape(self.shard_shape)}{unit} on grid <{fmt_shape(self.grid)}> covers "
                    f"{fmt_shape(tuple(a * b for a, b in zip(have, self.grid)))} elements, but the tensor "
                    f"{fmt_shape(shape)} collapses to {fmt_shape(collapsed)}: dim {i} needs {n}, has {s * g}")
        derived = shard_shape_for(self.linear, shape, self.grid, self.element if self.tiled else None)
        if derived != self.shard_shape:
            i = next(i for i, (a, b) in enumerate(zip(self.shard_shape, derived)) if a != b)
            unit, how = "", f"ceil({collapsed[i]} / {self.grid[i]})"
            if isinstance(self.element, Tile):
                unit = f" of {fmt_shape(self.element.shape)} tiles"
                if i >= len(derived) - 2:
                    how = f"ceil({how} / {self.element.shape[i - len(derived) + 2]})"
            raise LayoutError(
                f"the memref shard {fmt_shape(self.shard_shape)}{unit} is larger than the shard of tensor {fmt_shape(shape)} "
                f"on grid <{fmt_shape(self.grid)}>: the tensor collapses to {fmt_shape(collapsed)}, so the shard is "
                f"{fmt_shape(derived)}{unit} ({how} = {derived[i]} in dim {i}, not {self.shard_shape[i]})")


def _check_tensor_shape(shape) -> tuple[int, ...]:
    shape = tuple(int(s) for s in shape)
    if any(s <= 0 for s in shape):
        raise LayoutError(f"tensor shape {fmt_shape(shape) or '<scalar>'} must have static, positive sizes "
                          "to be laid out")
    return shape


def collapsed_shape(linear: "AffineMap | str", shape) -> tuple[int, ...]:
    """The extent of each LINEAR result over the tensor: largest value + 1 (values must be >= 0)."""
    linear = as_map(linear)
    shape = _check_tensor_shape(shape)
    out = []
    for i, (lo, hi) in enumerate(linear.bounds(shape)):
        if lo < 0:
            raise LayoutError(f"result {i} of the LINEAR map {linear} reaches {lo} on tensor "
                              f"{fmt_shape(shape)}; LINEAR values must not be negative")
        out.append(hi + 1)
    return tuple(out)


def normalize_intervals(rank: int, collapse_intervals=None) -> list[tuple[int, int]]:
    """Collapse intervals as sorted, non-overlapping [start, end) pairs with non-negative bounds."""
    if collapse_intervals is None:
        collapse_intervals = [(0, -1)]
    out: list[tuple[int, int]] = []
    for iv in collapse_intervals:
        if len(iv) != 2:
            raise LayoutError(f"collapse interval {tuple(iv)} must be a (start, end) pair")
        s, e = (int(v) + rank if int(v) < 0 else int(v) for v in iv)
        if not 0 <= s <= e <= rank:
            raise LayoutError(f"collapse interval {tuple(iv)} does not lie within the {rank} dims of the tensor")
        if e - s >= 1:
            out.append((s, e))
    out.sort()
    for (s0, e0), (s1, _) in zip(out, out[1:]):
        if s1 < e0:
            raise LayoutError(f"collapse intervals overlap at dim {s1}")
    return out


def linear_map(shape, collapse_intervals=None) -> AffineMap:
    """LINEAR for a tensor shape: each interval's dims fold row-major into one result."""
    shape = _check_tensor_shape(shape)
    rank = len(shape)
    intervals = normalize_intervals(rank, collapse_intervals)
    starts = {s: e for s, e in intervals}
    d = [Dim(i) for i in range(rank)]
    results: list[AffineExpr] = []
    i = 0
    while i < rank:
        end = starts.get(i, i + 1)
        expr: AffineExpr | None = None
        for j in range(i, end):
            stride = prod(shape[j + 1 : end])
            term = d[j] if stride == 1 else d[j] * stride
            expr = term if expr is None else expr + term
        assert expr is not None
        results.append(expr)
        i = end
    return AffineMap(rank, tuple(results))


def shard_shape_for(linear: AffineMap, shape, grid, tile: Tile | None = None) -> tuple[int, ...]:
    """ceil(collapsed / grid) per dim; with a tile, the last two dims in tiles (rounded up)."""
    grid = tuple(int(g) for g in grid)
    collapsed = collapsed_shape(linear, shape)
    if len(collapsed) != len(grid):
        raise LayoutError(f"the LINEAR map {linear} gives {len(collapsed)} dims, but the grid "
                          f"<{fmt_shape(grid)}> has rank {len(grid)}")
    if any(g <= 0 for g in grid):
        raise LayoutError(f"grid <{fmt_shape(grid)}> must have positive sizes")
    shard = [ceil_div(n, g) for n, g in zip(collapsed, grid)]
    if tile is not None:
        if len(shard) < 2:
            raise LayoutError("a tiled layout needs a grid of rank 2 or more (tiles cover the last two dims)")
        shard[-2] = ceil_div(shard[-2], tile.shape[0])
        shard[-1] = ceil_div(shard[-1], tile.shape[1])
    return tuple(shard)


def build_metal_layout(
    shape,
    grid,
    collapse_intervals=None,
    memory_space: str = "l1",
    dtype: "str | DataType" = "f32",
    tile: "tuple[int, int] | Tile | None" = None,
    oob: str = "undef",
) -> MetalLayout:
    """The layout of a tensor on a core grid: LINEAR from the collapse intervals, the shard, the memref.

    `tile` is a tile shape (e.g. (32, 32)) whose elements are `dtype`, or a Tile; None for
    untiled (row-major) storage of `dtype` elements.
    """
    linear = linear_map(shape, collapse_intervals)
    t = tile if isinstance(tile, Tile) or tile is None else Tile(tuple(tile), get_dtype(dtype))
    shard = shard_shape_for(linear, shape, grid, t)
    element: DataType | Tile = t if t is not None else get_dtype(dtype)
    layout = MetalLayout(linear, oob, tuple(grid), shard, element, memory_space)
    layout.verify_against(shape)
    return layout


class UnrealisableLayout(LayoutError):
    """A metal layout no TTNN memory config holds: `subject` names the part, `reason` says why."""

    def __init__(self, subject: str, reason: str):
        super().__init__(f"the {subject}: {reason}")
        self.subject = subject
        self.reason = reason


def ttnn_memory_config(layout: MetalLayout, shape, transposed: bool = False, backend: str = "TTNN"):
    """(MemoryConfig, tile or None) realising `layout` for a tensor of `shape` (TTNN and TTMetal
    buffers both place with it): DRAM interleaved for a DRAM layout (its grid must be 1x1); else
    L1 block-sharded over the layout's 2-d grid (a 1-d grid is one row), a shard being the 2-d
    fold split over the grid, every 2-d slice padded to whole tiles and shards in whole tiles when
    tiled; `transposed` (the grid reinterpreted as its transpose) places the shards col_major on
    the transposed grid. UnrealisableLayout (naming `backend`) when no memory config holds it."""
    grid = layout.grid
    if len(grid) == 1:
        grid = (1,) + grid
    if len(grid) != 2:
        raise UnrealisableLayout(f"layout grid {fmt_shape(layout.grid)}", f"{backend} shards over a 2-d core grid of one chip")
    tile = tuple(layout.element.shape) if isinstance(layout.element, Tile) else None
    if layout.memory_space == "dram":
        if grid != (1, 1):
            raise UnrealisableLayout(f"DRAM layout grid {grid[0]}x{grid[1]}",
                                     f"{backend} keeps DRAM tensors interleaved over the banks; use a 1x1 grid")
        return MemoryConfig("dram", "interleaved"), tile
    shape = tuple(shape)
    h, w = fold_2d(shape)
    if tile is not None and len(shape) >= 2:  # TTNN pads every 2-d slice to whole tiles
        h = prod(shape[:-2]) * round_up(shape[-2], tile[0])
    shard = (ceil_div(h, grid[0]), ceil_div(w, grid[1]))
    if tile is not None:  # TTNN shards tiled tensors in whole tiles
        shard = (round_up(shard[0], tile[0]), round_up(shard[1], tile[1]))
    orientation, phys = ("col_major", (grid[1], grid[0])) if transposed else ("row_major", grid)
    try:
        return MemoryConfig("l1", "block_sharded", grid=phys, shard_shape=shard, orientation=orientation), tile
    except LayoutError as e:
        raise UnrealisableLayout("layout", str(e)) from None
