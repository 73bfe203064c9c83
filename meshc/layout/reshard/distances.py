"""Link distances between the chips of a system: how many ethernet links a byte crosses.

`link_distances(n, system)` answers `hops[s, d]` (scalars or index arrays) for the n chips of
`system`. On a chip mesh whose links are exactly the neighbours along every axis (a line per
axis, or a ring where the axis wraps around), the distance is closed form: per axis |a - b|, or
min(|a - b|, size - |a - b|) on a ring, summed over axes; nothing of size n x n is built. Any
other link set falls back to a breadth-first search from every chip (fine for the few chips such
hand-written systems have).
"""

from __future__ import annotations

from collections import deque

import numpy as np

from meshc.layout.errors import LayoutError
from meshc.layout.system import SystemDesc


class LinkDistances:
    """hops[s, d]: links on a shortest route from chip s to chip d (s, d ints or index arrays)."""

    def __init__(self, n: int, coords: np.ndarray | None = None, ring: np.ndarray | None = None,
                 matrix: np.ndarray | None = None):
        self.n = n
        self._coords = coords
        """(n, rank) chip coordinates in the chip mesh (closed form), or None."""
        self._ring = ring
        """Per axis of the chip mesh: its size when the axis wraps around, else 0."""
        self._matrix = matrix
        """All pairs (the breadth-first fallback), or None."""

    @property
    def closed_form(self) -> bool:
        return self._matrix is None

    @property
    def shape(self) -> tuple[int, int]:
        return (self.n, self.n)

    def __getitem__(self, key):
        s, d = key
        if self._matrix is not None:
            return self._matrix[s, d]
        diff = np.abs(self._coords[np.asarray(s)] - self._coords[np.asarray(d)])
        diff = np.where(self._ring > 0, np.minimum(diff, self._ring - diff), diff)
        return diff.sum(axis=-1)

    def __array__(self, dtype=None, copy=None):
        """All pairs as an (n, n) array (n^2 entries: for small systems and tests)."""
        if self._matrix is not None:
            out = self._matrix
        else:
            idx = np.arange(self.n)
            out = np.stack([self[s, idx] for s in range(self.n)]) if self.n else np.zeros((0, 0), np.int64)
        return out.astype(dtype) if dtype is not None else out


def link_distances(n: int, system: SystemDesc) -> LinkDistances:
    """Distances between the n chips of `system` (device i = chip i); LayoutError when some pair
    of chips has no chain of links between them."""
    if system.num_chips != n:
        raise LayoutError(f"the topology has {system.num_chips} chips but the mesh has {n} devices")
    coords = np.array([c.coord for c in system.chips], dtype=np.int64).reshape(n, len(system.mesh_shape))
    links = np.array(system.links, dtype=np.int64).reshape(-1, 2)
    ring = _grid_rings(coords, links, tuple(system.mesh_shape))
    if ring is not None:
        return LinkDistances(n, coords=coords, ring=ring)
    return LinkDistances(n, matrix=bfs_distances(n, system.links))


def _grid_rings(coords: np.ndarray, links: np.ndarray, mesh_shape: tuple[int, ...]) -> np.ndarray | None:
    """Per axis its size if it wraps around, else 0, when `links` are exactly a chip mesh's
    neighbour links (every axis a line, or a ring); None when they are anything else."""
    n = len(coords)
    size = int(np.prod(mesh_shape)) if mesh_shape else 1
    if n != size:
        return None
    if n == 1:
        return np.zeros(len(mesh_shape), dtype=np.int64)
    links = np.unique(np.sort(links, axis=1), axis=0)
    delta = coords[links[:, 1]] - coords[links[:, 0]]
    moved = delta != 0
    if not (moved.sum(axis=1) == 1).all():
        return None
    axis = moved.argmax(axis=1)
    step = np.abs(delta[np.arange(len(links)), axis])
    shape = np.array(mesh_shape, dtype=np.int64)
    wrap = (step == shape[axis] - 1) & (shape[axis] > 2)
    if not ((step == 1) | wrap).all():
        return None
    ring = np.zeros(len(mesh_shape), dtype=np.int64)
    for a, k in enumerate(mesh_shape):
        if k == 1:
            continue
        on_axis = axis == a
        if int((on_axis & ~wrap).sum()) != (k - 1) * (n // k):  # every neighbour pair along the axis
            return None
        wraps = int((on_axis & wrap).sum())
        if wraps == n // k:
            ring[a] = k
        elif wraps:
            return None
    return ring


def bfs_distances(n: int, links) -> np.ndarray:
    """All-pairs link distances by a breadth-first search from every chip (the simple reference)."""
    adj: list[list[int]] = [[] for _ in range(n)]
    for a, b in links:
        adj[a].append(b)
        adj[b].append(a)
    dist = np.full((n, n), -1, dtype=np.int64)
    for s in range(n):
        row = dist[s]
        row[s] = 0
        queue = deque([s])
        while queue:
            x = queue.popleft()
            for y in adj[x]:
                if row[y] < 0:
                    row[y] = row[x] + 1
                    queue.append(y)
    if (dist < 0).any():
        a, b = map(int, np.argwhere(dist < 0)[0])
        raise LayoutError(f"devices {a} and {b} are not connected by any chain of links in the topology")
    return dist
