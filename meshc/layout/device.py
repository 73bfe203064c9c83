"""Devices: a logical worker grid over one or more chips, as `#tt.device` carries it.

A `Device` is a logical grid shape, an affine map from a logical core to (chip index, y, x),
the mesh shape that virtualizes the chips, and the chip ids the chip index refers to (ids of
chips in the `SystemDesc`). `locate` evaluates the map for many cores at once and returns
(chip id, y, x); `inverse` goes back; `verify` checks what makes a device legal (tt-mlir's Device spec's
"Concerns"): chip count equals the mesh volume, ids unique (and in the system), the map has
three results, and it is injective and lands inside each chip's physical grid.

`derive_device(mesh_shape, ...)` builds the device of a mesh shape: the chips' grids are laid
side by side along the last two mesh axes and stacked along the others, chips numbered
row-major over the mesh. Mesh 1x2 on 8x8 chips gives the 8x16 grid
`(d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)`.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

import numpy as np

from meshc.layout.affine import AffineExpr, AffineMap, Const, Dim, as_map, grid_points
from meshc.layout.errors import LayoutError
from meshc.layout.limits import MAX_CHIP_ID, MAX_CORES, MAX_DEVICES, as_ints, check_count
from meshc.layout.system import SystemDesc
from meshc.layout.shapes import fmt_shape

DEFAULT_CHIP_GRID = (8, 8)


def _fmt_point(p) -> str:
    return "(" + ", ".join(str(int(v)) for v in p) + ")"



@dataclass(frozen=True)
class Device:
    grid_shape: tuple[int, ...]
    """The logical worker grid."""
    mapping: AffineMap
    """Logical core -> (chip index into chip_ids, y, x)."""
    mesh_shape: tuple[int, ...]
    chip_ids: tuple[int, ...]

    def __post_init__(self):
        object.__setattr__(self, "grid_shape", tuple(int(s) for s in self.grid_shape))
        object.__setattr__(self, "mapping", as_map(self.mapping))
        object.__setattr__(self, "mesh_shape", tuple(int(s) for s in self.mesh_shape))
        object.__setattr__(self, "chip_ids", tuple(int(c) for c in self.chip_ids))
        bad = [c for c in self.chip_ids if not 0 <= c < MAX_CHIP_ID]
        if bad:
            raise LayoutError(f"chip id {bad[0]} is out of range; chip ids lie in [0, {MAX_CHIP_ID})")
        if all(s > 0 for s in self.grid_shape):
            check_count(self.num_cores, MAX_CORES, f"grid {fmt_shape(self.grid_shape)}", "cores")
        if all(s > 0 for s in self.mesh_shape):
            check_count(prod(self.mesh_shape), MAX_DEVICES, f"mesh {fmt_shape(self.mesh_shape)}", "devices")

    # -------------------------------------------------------------- evaluation

    @property
    def rank(self) -> int:
        return len(self.grid_shape)

    @property
    def num_cores(self) -> int:
        return prod(self.grid_shape)

    def _chip_index(self, coords: np.ndarray) -> np.ndarray:
        """(N, rank) logical cores -> (N, 3) of (chip index, y, x); checks the index range."""
        self._check_shape()
        pts = np.asarray(coords, dtype=np.int64)
        if pts.ndim == 1:
            pts = pts.reshape(1, -1)
        if pts.ndim != 2 or pts.shape[1] != self.rank:
            raise LayoutError(f"logical cores of a rank-{self.rank} grid need {self.rank} coordinates, "
                              f"got an array of shape {tuple(pts.shape)}")
        bad = np.nonzero(np.any((pts < 0) | (pts >= np.array(self.grid_shape, dtype=np.int64)), axis=1))[0]
        if bad.size:
            raise LayoutError(f"logical core {_fmt_point(pts[bad[0]])} lies outside the "
                              f"{fmt_shape(self.grid_shape)} worker grid")
        phys = self.mapping.evaluate(pts)
        idx = phys[:, 0]
        bad = np.nonzero((idx < 0) | (idx >= len(self.chip_ids)))[0]
        if bad.size:
            i = bad[0]
            raise LayoutError(f"logical core {_fmt_point(pts[i])} maps to chip index {int(idx[i])}, "
                              f"but the device has {len(self.chip_ids)} chips")
        return phys

    def _check_shape(self) -> None:
        if self.mapping.num_dims != self.rank:
            raise LayoutError(f"the device map {self.mapping} takes {self.mapping.num_dims} dims, but the "
                              f"worker grid {fmt_shape(self.grid_shape)} has rank {self.rank}")
        if self.mapping.num_results != 3:
            raise LayoutError(f"the device map {self.mapping} has {self.mapping.num_results} results; "
                              "expected 3: (chip index, y, x)")

    def locate(self, coords) -> np.ndarray:
        """(N, rank) logical cores -> (N, 3) int64 array of (chip id, y, x)."""
        phys = self._chip_index(coords)
        phys[:, 0] = np.asarray(self.chip_ids, dtype=np.int64)[phys[:, 0]]
        return phys

    def locate_all(self) -> np.ndarray:
        """(chip id, y, x) of every logical core, in row-major order of the logical grid."""
        return self.locate(grid_points(self.grid_shape))

    def inverse(self, physical) -> np.ndarray:
        """(N, 3) physical cores (chip id, y, x) -> (N, rank) logical cores.

        Raises LayoutError naming the first physical core that no logical core maps to.
        """
        phys = np.asarray(physical, dtype=np.int64)
        if phys.ndim == 1:
            phys = phys.reshape(1, -1)
        if phys.ndim != 2 or phys.shape[1] != 3:
            raise LayoutError(f"physical cores are (chip id, y, x) triples, got an array of shape {tuple(phys.shape)}")
        logical = grid_points(self.grid_shape)
        image = self.locate(logical)
        key_img, key_q = self._keys(image, phys)
        order = np.argsort(key_img, kind="stable")
        sorted_keys = key_img[order]
        pos = np.searchsorted(sorted_keys, key_q)
        pos_c = np.minimum(pos, len(sorted_keys) - 1)
        found = (pos < len(sorted_keys)) & (sorted_keys[pos_c] == key_q)
        bad = np.nonzero(~found)[0]
        if bad.size:
            c = phys[bad[0]]
            raise LayoutError(f"no logical core of the device maps to chip {int(c[0])} core "
                              f"({int(c[1])}, {int(c[2])})")
        return logical[order[pos_c]]

    @staticmethod
    def _keys(image: np.ndarray, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        both = np.concatenate([image, query])
        lo = both.min(axis=0)
        span = both.max(axis=0) - lo + 1

        def key(a: np.ndarray) -> np.ndarray:
            a = a - lo
            return (a[:, 0] * span[1] + a[:, 1]) * span[2] + a[:, 2]

        return key(image), key(query)

    # -------------------------------------------------------------- verification

    def verify(self, system: SystemDesc | None = None, chip_grid: tuple[int, int] | None = None,
               physical: bool = True) -> None:
        """Raise LayoutError if the device is not legal.

        Chip grids come from `system` when given, else `chip_grid` (default 8x8). With
        `physical=False` the chips' grids are unknown: cores are only checked to be
        non-negative and distinct (what `#tt.device` can check on its own).
        """
        if not self.grid_shape or any(s <= 0 for s in self.grid_shape):
            raise LayoutError(f"the worker grid {fmt_shape(self.grid_shape) or '<empty>'} must have a rank "
                              "of at least 1 and positive sizes")
        if not self.mesh_shape or any(s <= 0 for s in self.mesh_shape):
            raise LayoutError(f"meshShape {fmt_shape(self.mesh_shape) or '<empty>'} must have positive sizes")
        self._check_shape()
        n = prod(self.mesh_shape)
        if len(self.chip_ids) != n:
            raise LayoutError(f"chipIds has {len(self.chip_ids)} chips, but meshShape "
                              f"{fmt_shape(self.mesh_shape)} needs {n}")
        seen: dict[int, int] = {}
        for i, c in enumerate(self.chip_ids):
            if c < 0:
                raise LayoutError(f"chip id {c} is negative")
            if c in seen:
                raise LayoutError(f"chip id {c} appears twice in chipIds (at {seen[c]} and {i})")
            seen[c] = i
        if system is not None:
            for c in self.chip_ids:
                if c >= system.num_chips:
                    raise LayoutError(f"chip id {c} is not in the system, which has {system.num_chips} chips")
            grids = np.array([system.chips[c].grid for c in self.chip_ids], dtype=np.int64)
        else:
            g = tuple(chip_grid or DEFAULT_CHIP_GRID)
            grids = np.tile(np.array(g, dtype=np.int64), (len(self.chip_ids), 1))

        pts = grid_points(self.grid_shape)
        phys = self._chip_index(pts)
        if not physical:
            neg = np.nonzero(np.any(phys[:, 1:] < 0, axis=1))[0]
            if neg.size:
                i = neg[0]
                raise LayoutError(f"logical core {_fmt_point(pts[i])} maps to core ({phys[i, 1]}, {phys[i, 2]}) "
                                  f"of chip {self.chip_ids[phys[i, 0]]}; core coordinates cannot be negative")
            grids = np.tile(phys[:, 1:].max(axis=0) + 1, (len(self.chip_ids), 1))
        g = grids[phys[:, 0]]
        outside = np.nonzero(np.any((phys[:, 1:] < 0) | (phys[:, 1:] >= g), axis=1))[0]
        if outside.size:
            i = outside[0]
            chip = self.chip_ids[phys[i, 0]]
            raise LayoutError(f"logical core {_fmt_point(pts[i])} maps to core ({phys[i, 1]}, {phys[i, 2]}) "
                              f"of chip {chip}, outside its {fmt_shape(g[i])} grid")
        key = (phys[:, 0] * (grids[:, 0].max()) + phys[:, 1]) * grids[:, 1].max() + phys[:, 2]
        order = np.argsort(key, kind="stable")
        dup = np.nonzero(key[order][1:] == key[order][:-1])[0]
        if dup.size:
            a, b = sorted((order[dup[0]], order[dup[0] + 1]))
            chip = self.chip_ids[phys[a, 0]]
            raise LayoutError(f"the device map is not injective: logical cores {_fmt_point(pts[a])} and "
                              f"{_fmt_point(pts[b])} both map to core ({phys[a, 1]}, {phys[a, 2]}) of chip {chip}")

    def is_bijective_onto_chips(self, chip_grid: tuple[int, int] = DEFAULT_CHIP_GRID) -> bool:
        """Every core of every chip of the device is the image of exactly one logical core."""
        try:
            self.verify(chip_grid=chip_grid)
        except LayoutError:
            return False
        return self.num_cores == len(self.chip_ids) * chip_grid[0] * chip_grid[1]


# ----------------------------------------------------------------------------- derivation


def derive_device(
    mesh_shape,
    chip_grid: tuple[int, int] | None = None,
    chip_ids=None,
    system: SystemDesc | None = None,
) -> Device:
    """The device of a chip mesh: chips side by side along the last two mesh axes, stacked along the rest.

    `mesh_shape` is an int or a tuple (a rank-1 mesh `n` means `1xn`: chips side by side).
    The chip grid is `chip_grid`, else the grid of the system's chips, else 8x8. Chip ids
    default to 0..n-1 (row-major over the mesh); with a system they must name its chips.
    The logical grid has rank max(2, mesh rank); its last two sizes are the mesh's times the
    chip grid, the leading ones the mesh's. The chip index is the row-major mesh position,
    printed from the fastest mesh axis outwards: mesh 2x4 gives
    `(d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)`.
    """
    if isinstance(mesh_shape, (int, np.integer)) and not isinstance(mesh_shape, bool):
        mesh = (int(mesh_shape),)
    else:
        mesh = as_ints(mesh_shape, "a mesh shape")
    if not mesh or any(s <= 0 for s in mesh):
        raise LayoutError(f"mesh shape {fmt_shape(mesh) or '<empty>'} must have positive sizes")
    n = prod(mesh)
    check_count(n, MAX_DEVICES, f"mesh {fmt_shape(mesh)}", "devices")
    ids = tuple(range(n)) if chip_ids is None else as_ints(chip_ids, "chip_ids")
    if len(ids) != n:
        raise LayoutError(f"{len(ids)} chip ids given, but mesh shape {fmt_shape(mesh)} needs {n}")
    if chip_grid is None:
        if system is not None:
            bad = [c for c in ids if not 0 <= c < system.num_chips]
            if bad:
                raise LayoutError(f"chip id {bad[0]} is not in the system, which has {system.num_chips} chips")
            grids = {system.chips[c].grid for c in ids}
            if len(grids) != 1:
                raise LayoutError(f"the chips {list(ids)} have different grids {sorted(grids)}; "
                                  "pass chip_grid to use a common sub-grid")
            chip_grid = grids.pop()
        else:
            chip_grid = DEFAULT_CHIP_GRID
    grid_ints = as_ints(chip_grid, "chip_grid")
    if len(grid_ints) != 2:
        raise LayoutError(f"chip_grid is (rows, cols) of one chip's cores; got {chip_grid!r}")
    gy, gx = grid_ints
    if gy <= 0 or gx <= 0:
        raise LayoutError(f"chip grid {gy}x{gx} must have positive sizes")
    check_count(n * gy * gx, MAX_CORES, f"mesh {fmt_shape(mesh)} of {gy}x{gx}-core chips", "cores")

    rank = max(2, len(mesh))
    m = (1,) * (rank - len(mesh)) + mesh  # mesh padded to the grid's rank
    grid = tuple(m[:-2]) + (m[-2] * gy, m[-1] * gx)
    d = [Dim(i) for i in range(rank)]

    # mesh coordinate along each axis, as an expression of the logical core
    def mesh_coord(axis: int) -> AffineExpr:
        if axis < rank - 2:
            return d[axis]
        return d[axis].floordiv(gy if axis == rank - 2 else gx)

    chip: AffineExpr | None = None
    stride = 1
    for axis in reversed(range(rank)):
        if m[axis] == 1:
            continue
        term = mesh_coord(axis) if stride == 1 else mesh_coord(axis) * stride
        chip = term if chip is None else chip + term
        stride *= m[axis]
    y = d[rank - 2] if m[-2] == 1 else d[rank - 2].mod(gy)
    x = d[rank - 1] if m[-1] == 1 else d[rank - 1].mod(gx)
    mapping = AffineMap(rank, (chip if chip is not None else Const(0), y, x))
    dev = Device(grid, mapping, mesh, ids)
    dev.verify(system=system, chip_grid=(gy, gx))
    return dev
