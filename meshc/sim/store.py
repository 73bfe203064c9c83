"""Byte-addressed memories: one uint8 array per core L1 and per DRAM bank, on every chip of a mesh.

A `Memory` is one kind of memory (the L1 of the worker cores, or the DRAM banks) of the chips a
program's mesh runs on. Each unit (a core position (y, x), numbered y * cols + x, or a bank) has

- one checked allocator (meshc/sim/allocator.py). A mesh buffer takes the same address in every
  unit it spans on every chip of the mesh (TT-Metal's lockstep mesh allocation), so the chips of
  a mesh always have the same free lists and one allocator a unit serves them all;
- one byte-addressed uint8 array on every chip: [u, c] is unit u's memory on chip c of the mesh
  (device order). The arrays of all units of a kind are one (units, chips, bytes) numpy array,
  created on first use and grown to the highest byte allocated so far (never past a unit's
  size): a large system whose memories are mostly unused costs nothing, a tensor's bytes are
  stored once, and the shards of a buffer on a rectangle of cores (or on consecutive banks) are
  one strided view (`grid`), so a host transfer moves every shard of every chip in one copy.

A buffer is the region [address, address + nbytes) of each of its units: `region` returns one
as a (chips, nbytes) view and `grid` all of them, checking the bounds; writing a tensor moves
whole shards as array slices into those views (meshc/sim/memory.py).
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

from meshc.layout.errors import LayoutError
from meshc.sim.allocator import Allocator
from meshc.layout.shapes import round_up

_GRANULE = 64
"""Arrays grow in multiples of this many bytes."""


class Memory:
    """One kind of memory ('l1' or 'dram') of every chip of a mesh: per unit an allocator, and
    one lazily grown (units, chips, bytes) array: unit u's memory on chip c is row [u, c]."""

    def __init__(self, kind: str, unit_names: list[str], size: int, alignment: int, rows: int):
        self.kind = kind
        self.size = int(size)
        self.rows = int(rows)
        self.allocators = [Allocator(name, size, alignment) for name in unit_names]
        self._array: np.ndarray | None = None
        self.generation = 0
        """Bumped whenever the array grows (views into the old one are then stale)."""
        self.shared: dict[int, object] = {}
        """The live buffers whose bytes are held once for several chips (MeshBuffer.shared, by
        buffer id): the host process's sharing, copied into the array before anyone looks at it
        as a whole (`array`)."""

    @property
    def num_units(self) -> int:
        return len(self.allocators)

    def array(self, need: int) -> np.ndarray:
        """The (units, chips, bytes) array, grown to hold at least `need` bytes a unit, with every
        buffer's bytes in it on every chip (shared bytes are copied in first)."""
        for buf in list(self.shared.values()):
            buf.materialise()
        return self._grown(need)

    def _grown(self, need: int) -> np.ndarray:
        a = self._array
        if a is not None and a.shape[2] >= need:
            return a
        if need > self.size:
            raise LayoutError(f"bytes [0, {need}) are out of bounds of a {self.kind} unit ({self.size:,} B)")
        old = 0 if a is None else a.shape[2]
        cap = max(need, min(2 * old, self.size))
        cap = min(round_up(cap, _GRANULE), self.size)
        grown = np.zeros((self.num_units, self.rows, cap), np.uint8)
        if a is not None:
            grown[:, :, :old] = a
        self._array = grown
        self.generation += 1
        return grown

    def _check(self, unit: int, address: int, end: int) -> None:
        if address < 0 or end > self.size:
            raise LayoutError(f"bytes [{address}, {end}) are out of bounds of {self.allocators[unit].name} "
                              f"({self.size:,} B)")

    def region(self, unit: int, address: int, nbytes: int, rows=slice(None)) -> np.ndarray:
        """Bytes [address, address + nbytes) of unit `unit` on the chips `rows`: a (chips, nbytes) view."""
        self._check(unit, address, address + nbytes)
        return self._grown(address + nbytes)[unit, rows, address:address + nbytes]

    def grid(self, units: np.ndarray, grid: tuple[int, int], address: int, nbytes: int,
             rows=slice(None)) -> np.ndarray | None:
        """The regions of `units` (unit of owner k, k = i * nx + j) as one (ny, nx, chips, nbytes)
        view, when the unit numbers are affine in (i, j) (a rectangle of cores in row- or
        column-major order, consecutive banks); None otherwise."""
        ny, nx = grid
        u = np.asarray(units, np.int64)
        if u.size != ny * nx or u.size == 0:
            return None
        sy = int(u[nx] - u[0]) if ny > 1 else 0
        sx = int(u[1] - u[0]) if nx > 1 else 0
        i, j = np.divmod(np.arange(u.size), nx)
        if not np.array_equal(u, u[0] + i * sy + j * sx):
            return None
        for unit in (int(u.min()), int(u.max())):
            self._check(unit, address, address + nbytes)
        a = self._grown(address + nbytes)
        base = a[int(u[0]):, rows, address:address + nbytes]
        return as_strided(base, (ny, nx) + base.shape[1:], (sy * a.strides[0], sx * a.strides[0]) + base.strides[1:])

    def resident_bytes(self) -> int:
        """Bytes of the array created so far."""
        return 0 if self._array is None else self._array.nbytes
