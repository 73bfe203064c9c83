"""Cells: the tensor cut along every chunk boundary of a set of sharding specs.

Every device of every spec holds whole cells, so "who holds what" is a boolean matrix devices x
cells (`Cells.masks`), and a set of cells turns back into disjoint global boxes (`Cells.boxes`).
`device_bounds` gives every device's box of a spec at once, as an array.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from meshc.layout.limits import MAX_RESHARD_CELLS, check_count
from meshc.layout.mesh import ShardingSpec
from meshc.layout.reshard.plan import Box
from meshc.layout.shapes import ceil_div


def device_bounds(spec: ShardingSpec, shape: tuple[int, ...]) -> np.ndarray:
    """(devices, rank, 2): per device id and tensor dim the [start, stop) it holds, as
    `spec.local_bounds` gives it (torch.chunk pieces), for all devices at once."""
    spec.check_shape(shape)
    mesh = spec.mesh
    coords = np.indices(mesh.shape).reshape(mesh.rank, -1).T
    out = np.empty((mesh.size, len(shape), 2), dtype=np.int64)
    for d, n in enumerate(shape):
        piece = np.zeros(mesh.size, dtype=np.int64)
        for a in spec.dims[d]:  # mixed radix over the dim's axes, major first
            piece = piece * mesh.shape[a] + coords[:, a]
        k = spec.num_pieces(d)
        size = ceil_div(n, k) if n else 0
        start = np.minimum(piece * size, n)
        out[:, d, 0] = start
        out[:, d, 1] = np.minimum(start + size, n)
    return out


def cut_edges(shape: tuple[int, ...], specs: Sequence[ShardingSpec]) -> list[np.ndarray]:
    """Per dim, the sorted chunk boundaries of every spec (the edges of the cells)."""
    edges = []
    for d, n in enumerate(shape):
        cuts = {0, n}
        for s in specs:
            k = s.num_pieces(d)
            size = ceil_div(n, k) if n else 0
            cuts.update(min(i * size, n) for i in range(k + 1))
        edges.append(np.array(sorted(cuts), dtype=np.int64))
    return edges


def cell_entries(shape: tuple[int, ...], specs: Sequence[ShardingSpec]) -> int:
    """Devices x cells of the cut of `specs`: the size of the masks `Cells` would hold."""
    devices = max((s.mesh.size for s in specs), default=1)
    return devices * math.prod(len(e) - 1 for e in cut_edges(shape, specs))


class Cells:
    """The tensor cut along every chunk boundary of the given specs; boxes become cell masks."""

    def __init__(self, shape: tuple[int, ...], specs: Sequence[ShardingSpec]):
        self.shape = shape
        self.edges = cut_edges(shape, specs)
        self.grid = tuple(len(e) - 1 for e in self.edges)
        self.count = math.prod(self.grid)
        devices = max((s.mesh.size for s in specs), default=1)
        check_count(devices * self.count, MAX_RESHARD_CELLS,
                    f"resharding {'x'.join(map(str, shape))} on {devices} devices ({self.count} cells)",
                    "device x cell entries")
        vol = np.ones((), dtype=np.int64)
        for e in self.edges:
            vol = np.multiply.outer(vol, np.diff(e))
        self.volume = vol.reshape(-1)

    def masks(self, spec: ShardingSpec) -> np.ndarray:
        """(devices, cells) bool: which cells each device's box of `spec` covers."""
        bounds = device_bounds(spec, self.shape)
        n = len(bounds)
        out = np.ones((n,) + (1,) * len(self.grid), dtype=bool)
        for d, e in enumerate(self.edges):
            i0 = np.searchsorted(e, bounds[:, d, 0])
            i1 = np.searchsorted(e, bounds[:, d, 1])
            idx = np.arange(len(e) - 1)
            dim = (idx[None, :] >= i0[:, None]) & (idx[None, :] < i1[:, None])
            view = [n] + [1] * len(self.grid)
            view[1 + d] = len(e) - 1
            out = out & dim.reshape(view)
        return out.reshape(n, self.count)

    def boxes(self, mask: np.ndarray) -> list[Box]:
        """Cover the cells of `mask` with disjoint boxes (greedy maximal boxes over the cell grid)."""
        m = mask.reshape(self.grid).copy()
        out: list[Box] = []
        rank = len(self.grid)
        while m.any():
            start = tuple(int(i) for i in np.argwhere(m)[0])
            hi = [s + 1 for s in start]
            for dim in reversed(range(rank)):
                while hi[dim] < self.grid[dim]:
                    probe = tuple(slice(s, h) if k != dim else slice(h, h + 1)
                                  for k, (s, h) in enumerate(zip(start, hi)))
                    if not m[probe].all():
                        break
                    hi[dim] += 1
            m[tuple(slice(s, h) for s, h in zip(start, hi))] = False
            out.append(tuple((int(e[s]), int(e[h])) for e, s, h in zip(self.edges, start, hi)))
        return out

    def box_mask(self, box: Box) -> np.ndarray:
        """(cells,) bool: the cells a global box covers."""
        m = np.ones((), dtype=bool)
        for (lo, hi), e in zip(box, self.edges):
            dim = np.zeros(len(e) - 1, dtype=bool)
            dim[np.searchsorted(e, lo):np.searchsorted(e, hi)] = True
            m = np.multiply.outer(m, dim)
        return m.reshape(-1)
