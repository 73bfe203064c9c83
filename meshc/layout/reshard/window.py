"""Windowed moves: each device's piece of a box (a *window*) of a sharded tensor, from the pieces
of the tensor itself, moving only what a device needs and does not hold.

A slice `x[b:e]` of a dim split over mesh axes, and each operand's place in a concatenation
along a split dim, are windows: the result is the tensor `x[window]` (a window may reach past
`x`: those positions hold zeros), split by a target spec over the window's shape. Device d's
target piece, in `x`'s coordinates, is its target box shifted by the window's start; it keeps
the part it holds of `x` and receives every other part from the one device that holds it and
differs from d only on the mesh axes splitting the windowed dims (so a device replicated or
partial over the other axes reads from its own row of the mesh). Every element delivered is
one the receiver needs and lacks, each once: the moves deliver the lower bound
(`window_needed_bytes`), a halo exchange when the window starts near a piece boundary,
nothing when the pieces already line up, never a gather. Uneven pieces are torch.chunk's
(`ShardingSpec.local_bounds`, all devices at once: `cells.device_bounds`); the padding of a
buffer is never sent.

Rows are `ttir.point_to_point`'s: `step, src, dst, lo_0, hi_0, ...` in `x`'s coordinates.
Pure numpy over (devices, candidate senders); no IR.
"""

from __future__ import annotations

import math

import numpy as np

from meshc.layout.errors import LayoutError
from meshc.layout.limits import MAX_RESHARD_TRANSFERS, check_count
from meshc.layout.mesh import ShardingSpec
from meshc.layout.reshard.cells import device_bounds
from meshc.layout.reshard.plan import Box

__all__ = ["target_boxes", "window_moves", "window_needed_bytes", "window_shape"]


def window_shape(window: Box) -> tuple[int, ...]:
    return tuple(hi - lo for lo, hi in window)


def target_boxes(window: Box, target: ShardingSpec) -> np.ndarray:
    """(devices, rank, 2): every device's target piece of `x[window]`, in `x`'s coordinates."""
    boxes = device_bounds(target, window_shape(window))
    return boxes + np.array([lo for lo, _ in window], dtype=np.int64)[None, :, None]


def _check(shape: tuple[int, ...], source: ShardingSpec, target: ShardingSpec, window: Box) -> list[int]:
    """The windowed dims; LayoutError when the specs are not one placement of x and its window."""
    if len(window) != len(shape) or any(hi < lo for lo, hi in window):
        raise LayoutError(f"window {list(window)} is not a box of the rank-{len(shape)} tensor {shape}")
    if source.mesh.shape != target.mesh.shape or source.rank != target.rank or source.rank != len(shape):
        raise LayoutError(f"a windowed move keeps the mesh and the rank: {source} -> {target} on {shape}")
    if source.dims != target.dims or source.partial != target.partial:
        raise LayoutError(f"a windowed move keeps the placement ({source} -> {target}); reshard before or after it")
    return [d for d, ((lo, hi), n) in enumerate(zip(window, shape)) if (lo, hi) != (0, n)]


def window_moves(shape: tuple[int, ...], source: ShardingSpec, target: ShardingSpec, window: Box) -> np.ndarray:
    """The moves (rows `0, src, dst, lo_0, hi_0, ...`) that give every device its `target` piece
    of `x[window]` from the `source` pieces of `x` (shape `shape`); see the module docstring."""
    dims = _check(shape, source, target, window)
    mesh = source.mesh
    rank = len(shape)
    axes = sorted({a for d in dims for a in source.dims[d]})
    if not axes:  # every device holds the whole window dims: nothing moves
        return np.zeros((0, 3 + 2 * rank), dtype=np.int64)
    coords = np.array(mesh.coords(), dtype=np.int64).reshape(mesh.size, mesh.rank)
    combos = np.array(np.meshgrid(*[np.arange(mesh.shape[a]) for a in axes], indexing="ij")).reshape(len(axes), -1).T
    k = len(combos)
    check_count(mesh.size * k, MAX_RESHARD_TRANSFERS, "the windowed move", "candidate transfers")
    cand = np.repeat(coords[:, None, :], k, axis=1)
    cand[:, :, axes] = combos[None, :, :]
    src_ids = np.ravel_multi_index(tuple(cand.reshape(-1, mesh.rank).T), mesh.shape).reshape(mesh.size, k)
    full = np.array([(0, n) for n in shape], dtype=np.int64)
    need = target_boxes(window, target)
    need[:, :, 0] = np.maximum(need[:, :, 0], full[None, :, 0])  # outside x: zeros, never sent
    need[:, :, 1] = np.minimum(need[:, :, 1], full[None, :, 1])
    have = device_bounds(source, shape)
    lo = np.maximum(need[:, None, :, 0], have[src_ids][:, :, :, 0])
    hi = np.minimum(need[:, None, :, 1], have[src_ids][:, :, :, 1])
    dst_ids = np.repeat(np.arange(mesh.size)[:, None], k, axis=1)
    ok = (lo < hi).all(axis=2) & (src_ids != dst_ids)
    m = int(ok.sum())
    rows = np.zeros((m, 3 + 2 * rank), dtype=np.int64)
    rows[:, 1], rows[:, 2] = src_ids[ok], dst_ids[ok]
    rows[:, 3::2], rows[:, 4::2] = lo[ok], hi[ok]
    return rows[np.lexsort((rows[:, 1], rows[:, 2]))]


def window_needed_bytes(shape: tuple[int, ...], source: ShardingSpec, target: ShardingSpec, window: Box,
                        itemsize: float) -> int:
    """Over all devices, the bytes of `x` a device's target piece of `x[window]` needs and its
    source piece lacks (the lower bound of any windowed move): sum of |T_d & x| - |T_d & S_d|."""
    _check(shape, source, target, window)
    need = target_boxes(window, target)
    full = np.array([(0, n) for n in shape], dtype=np.int64)
    nlo, nhi = np.maximum(need[:, :, 0], full[:, 0]), np.minimum(need[:, :, 1], full[:, 1])
    have = device_bounds(source, shape)
    hlo, hhi = np.maximum(nlo, have[:, :, 0]), np.minimum(nhi, have[:, :, 1])
    total = np.clip(nhi - nlo, 0, None).prod(axis=1) - np.clip(hhi - hlo, 0, None).prod(axis=1)
    return int(math.ceil(int(total.sum()) * itemsize))
