"""What tt-mlir's mesh_partition, update_cache and fill_cache compute, on per-device numpy arrays
(the ops: meshc/dialects/ttir/ttmlir_ops.py; docs/importers.md, "Reading tt-mlir's TTIR").

* `mesh_partition(vals, mesh_shape, dim, cluster_axis, out_shape)`: device d keeps piece p of n
  equal pieces of its array along `dim`: n the devices along `cluster_axis` and p the device's
  coordinate on it, or, with no axis, n all the mesh's devices and p the device's row-major index
  (TT-Metal's mesh_partition). Moves nothing.
* `update_cache(cache, input, index, batch_offset)` on one device: cache [U, H, S, D], input
  [1, H, B, D], position p = the index tensor's first element; cache[batch_offset + b, :, p, :] =
  input[0, :, b, :] for b < B (TT-Metal's update_cache, tt-mlir's golden).
* `fill_cache(cache, input, batch_offset)` on one device: cache [U, H, S, D], input [B, H, L, D];
  cache[batch_offset + b, :, :L, :] = input[b], and rows L up to the next multiple of 32 zero
  when that multiple is within S: TT-Metal writes the input's whole tiles, their padding rows
  zeros (tt-mlir's golden, which leaves the rows when the padded tile would pass S).

The cache functions return the new cache; the callers write it where the old one was. Pure numpy.
"""

from __future__ import annotations

import math

import numpy as np

from meshc.layout.errors import LayoutError

TILE_ROWS = 32
"""Rows of a tile: fill_cache writes the input's last tile whole (TT-Metal's 32x32 tiles)."""


def partition_positions(mesh_shape: tuple[int, ...], cluster_axis: int | None) -> tuple[int, np.ndarray]:
    """(n, each device's piece): the devices' coordinates on `cluster_axis`, or their row-major
    index when there is no axis."""
    n_dev = math.prod(mesh_shape)
    if cluster_axis is None:
        return n_dev, np.arange(n_dev)
    if not 0 <= cluster_axis < len(mesh_shape):
        raise LayoutError(f"cluster_axis {cluster_axis} is not an axis of the {'x'.join(map(str, mesh_shape))} mesh")
    coords = np.unravel_index(np.arange(n_dev), mesh_shape)
    return mesh_shape[cluster_axis], np.asarray(coords[cluster_axis])


def partition_shape(shape: tuple[int, ...], mesh_shape: tuple[int, ...], dim: int, cluster_axis: int | None,
                    out_shape: tuple[int, ...]) -> int:
    """The pieces `n` a mesh_partition of a `shape` tensor cuts `dim` into, checked: `dim` splits
    into them and `out_shape` is one piece's (LayoutError otherwise)."""
    n, _ = partition_positions(mesh_shape, cluster_axis)
    shape = tuple(shape)
    if shape[dim] % n:
        raise LayoutError(f"dim {dim} ({shape[dim]}) does not split into the {n} devices "
                          + ("of the mesh" if cluster_axis is None else f"along cluster_axis {cluster_axis}"))
    want = shape[:dim] + (shape[dim] // n,) + shape[dim + 1:]
    if tuple(out_shape) != want:
        raise LayoutError(f"the result is {list(out_shape)}, but {n} pieces of {list(shape)} along dim {dim} "
                          f"are {list(want)}")
    return n


def mesh_partition(vals: list, mesh_shape: tuple[int, ...], dim: int, cluster_axis: int | None,
                   out_shape: tuple[int, ...]) -> list[np.ndarray]:
    """Each device's piece along `dim` (module docstring)."""
    _, pos = partition_positions(mesh_shape, cluster_axis)
    partition_shape(np.asarray(vals[0]).shape, mesh_shape, dim, cluster_axis, out_shape)
    size = tuple(out_shape)[dim]
    return [np.take(np.asarray(v), np.arange(p * size, (p + 1) * size), axis=dim) for v, p in zip(vals, pos)]


def check_users(cache_shape: tuple[int, ...], batch_offset: int, users: int) -> None:
    """`users` rows of the cache from `batch_offset` are within its first dim (LayoutError otherwise)."""
    if batch_offset < 0 or batch_offset + users > cache_shape[0]:
        raise LayoutError(f"batch_offset {batch_offset} + {users} users runs past the cache's {cache_shape[0]} users "
                          f"(cache {list(cache_shape)})")


def check_position(p: int, positions: int) -> None:
    """update_cache's position `p` is one of the cache's `positions` (LayoutError otherwise)."""
    if not 0 <= p < positions:
        raise LayoutError(f"update_index {p} is outside the cache's {positions} positions")


def update_cache(cache: np.ndarray, inp: np.ndarray, index: np.ndarray, batch_offset: int) -> np.ndarray:
    """The cache with one position written (module docstring)."""
    cache, inp = np.asarray(cache), np.asarray(inp)
    idx = np.asarray(index).reshape(-1)
    if idx.size == 0:
        raise LayoutError("update_index is empty: it must hold the position to write")
    p = int(idx[0])
    check_position(p, cache.shape[2])
    users = inp.shape[2]
    check_users(cache.shape, batch_offset, users)
    out = cache.copy()
    out[batch_offset:batch_offset + users, :, p, :] = np.swapaxes(inp[0], 0, 1).astype(cache.dtype, copy=False)
    return out


def fill_cache(cache: np.ndarray, inp: np.ndarray, batch_offset: int) -> np.ndarray:
    """The cache with its first positions written (module docstring)."""
    cache, inp = np.asarray(cache), np.asarray(inp)
    users, rows = inp.shape[0], inp.shape[2]
    check_users(cache.shape, batch_offset, users)
    out = cache.copy()
    out[batch_offset:batch_offset + users, :, :rows, :] = inp.astype(cache.dtype, copy=False)
    padded = -(-rows // TILE_ROWS) * TILE_ROWS
    if padded <= cache.shape[2]:
        out[batch_offset:batch_offset + users, :, rows:padded, :] = 0
    return out
