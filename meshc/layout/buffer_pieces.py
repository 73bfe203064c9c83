"""Where each device's piece of a host tensor lies, for a ShardedBufferConfig (2D or ND).

`MeshPieces(config, mesh_shape)` answers, once per config and mesh, which block of the host
tensor every device receives: the origin of device d's block in the tensor's folded form (the
2D buffer (y, x) of the TT-Mesh form, or the tensor itself for the ND form), vectorized over
the mesh. When the origins are an affine function of the device's mesh coordinates (every
mapper's config, and most hand-written ones), all pieces are one strided numpy view of the
tensor with the mesh axes in front (`view`): a replicated mesh axis has stride 0, so a host
transfer moves whole shards with one copy for the whole mesh and never copies the host tensor.
A config whose placement is not affine (a wrapped shard grid) or whose ND shards are padded
goes through per-device copies (`stacked`, `assemble`).

The facts (which shard a device holds) come from `ShardedBufferConfig.device_shards` and
`NDShardedBufferConfig` (meshc/layout/sharded_buffer.py); this module only turns them into
array views.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from numpy.lib.stride_tricks import as_strided

from meshc.layout.errors import LayoutError
from meshc.layout.sharded_buffer import NDShardedBufferConfig, config_origins, placement_mesh
from meshc.layout.shapes import fmt_shape


class MeshPieces:
    """Device d's piece of a host tensor under `config`, for every device d of `mesh_shape`."""

    def __init__(self, config, mesh_shape):
        self.config = config
        self.mesh_shape = placement_mesh(config, mesh_shape)
        if isinstance(config, NDShardedBufferConfig):
            self.folded, self.block = config.global_shape, config.shard_shape
            self.padded = config.padded
        else:
            (gx, gy), (px, py) = config.global_buffer_shape, config.physical_shard_shape
            self.folded, self.block = (gy, gx), (py, px)
            self.padded = False
        origins = config_origins(config, mesh_shape)
        coords = np.indices(self.mesh_shape).reshape(len(self.mesh_shape), -1).T
        self.origins = origins
        self.num_devices = origins.shape[0]
        self.steps = _affine_steps(origins, coords, self.mesh_shape)
        """(mesh axes, folded dims) origin step a mesh axis, or None when the placement is not affine."""
        steps = self.steps
        self.replicated_axes = tuple(a for a in range(len(self.mesh_shape))
                                     if steps is not None and not steps[a].any())

    # ------------------------------------------------------------------ host side views

    def _fold(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x)
        if math.prod(x.shape) != math.prod(self.folded):
            raise LayoutError(f"a {fmt_shape(x.shape)} tensor is not the config's "
                              f"{fmt_shape(self.folded)} buffer")
        return x.reshape(self.folded)

    def view(self, x: np.ndarray, readers: bool = False) -> np.ndarray | None:
        """All pieces as one view of `x`, shape (*mesh, *block), or None when they are not one
        strided view (non-affine placement, padded shards, or a reshape that would copy). With
        `readers`, replicated mesh axes keep only index 0 (one copy of each piece): writing
        into that view assembles the tensor."""
        if self.steps is None or self.padded:
            return None
        self._fold(x)  # checks the size
        g = reshaped_view(np.asarray(x), self.folded)
        if g is None:
            return None
        o = tuple(int(v) for v in self.origins[0])
        base = g[tuple(slice(a, None) for a in o)]
        mesh_strides = tuple(int(s) for s in self.steps @ np.asarray(g.strides, np.int64))
        shape = tuple(1 if readers and a in self.replicated_axes else n for a, n in enumerate(self.mesh_shape))
        return as_strided(base, shape + tuple(self.block), mesh_strides + tuple(g.strides),
                          writeable=readers)

    def reader_index(self) -> tuple[slice, ...]:
        """The index of the reading devices in a (*mesh, ...) array: 0 on replicated axes."""
        return tuple(slice(0, 1) if a in self.replicated_axes else slice(None) for a in range(len(self.mesh_shape)))

    def bounds(self, device: int) -> tuple[tuple[int, int], ...]:
        """[start, stop) per folded dim of device `device`'s piece (clipped to the tensor)."""
        return tuple((min(int(o), n), min(int(o) + b, n)) for o, b, n in zip(self.origins[device], self.block, self.folded))

    def stacked(self, x: np.ndarray) -> np.ndarray:
        """All pieces, (*mesh, *block): the view when there is one, else per-device copies
        (a padded shard zero-filled)."""
        v = self.view(x)
        if v is not None:
            return v
        g = self._fold(x)
        out = np.zeros((self.num_devices, *self.block), g.dtype)
        for d in range(self.num_devices):
            b = self.bounds(d)
            out[d][tuple(slice(0, hi - lo) for lo, hi in b)] = g[tuple(slice(lo, hi) for lo, hi in b)]
        return out.reshape(tuple(self.mesh_shape) + tuple(self.block))

    def assemble(self, pieces: np.ndarray, out: np.ndarray) -> np.ndarray:
        """Write device pieces (*mesh, *block) into `out` (the host tensor); a replicated piece is
        read from its first device."""
        g = self._fold(out)
        flat = pieces.reshape((self.num_devices, *self.block))
        seen = set()
        for d in range(self.num_devices):
            key = tuple(self.origins[d])
            if key in seen:
                continue
            seen.add(key)
            b = self.bounds(d)
            g[tuple(slice(lo, hi) for lo, hi in b)] = flat[d][tuple(slice(0, hi - lo) for lo, hi in b)]
        return out


def _affine_steps(origins: np.ndarray, coords: np.ndarray, mesh_shape) -> np.ndarray | None:
    """steps (mesh axes, dims) with origins == origins[0] + coords @ steps, or None."""
    rank = len(mesh_shape)
    steps = np.zeros((rank, origins.shape[1]), np.int64)
    stride = 1
    for a in range(rank - 1, -1, -1):
        if mesh_shape[a] > 1:
            steps[a] = origins[stride] - origins[0]
        stride *= mesh_shape[a]
    if not np.array_equal(origins, origins[0] + coords @ steps):
        return None
    return steps


@lru_cache(maxsize=256)
def mesh_pieces(config, mesh_shape: tuple[int, ...]) -> MeshPieces:
    """The (cached) MeshPieces of a config on a mesh."""
    return MeshPieces(config, tuple(mesh_shape))


def local_view(block_pieces: np.ndarray, mesh_rank: int, local_shape) -> np.ndarray:
    """Pieces (*mesh, *block) seen as (*mesh, *local_shape): the 2D block (y, x) of a device is
    its local tensor flattened along y, so this only splits the y axis (always a view)."""
    lead = block_pieces.shape[:mesh_rank]
    local = tuple(int(n) for n in local_shape)
    if math.prod(block_pieces.shape[mesh_rank:]) != math.prod(local):
        raise LayoutError(f"a {fmt_shape(block_pieces.shape[mesh_rank:])} shard does not hold a "
                          f"{fmt_shape(local)} piece")
    v = reshaped_view(block_pieces, lead + local)
    return block_pieces.reshape(lead + local) if v is None else v


def reshaped_view(a: np.ndarray, shape) -> np.ndarray | None:
    """`a` reshaped without a copy, or None when the reshape would copy."""
    v = a.view()
    try:
        v.shape = tuple(shape)
    except AttributeError:
        return None
    return v
