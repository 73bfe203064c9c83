"""The TTMetal kernels of `convert-ttir-to-ttmetal` for tt-mlir's KV-cache writes, ttir.update_cache
and ttir.fill_cache: one program on one core that reads the whole cache buffer, builds the new
cache from it and the input within the core, and writes it back into the same buffer, so every
later program reading the cache's buffer reads the write (the ops have no result; the TTMetal
buffers are mutable). The meaning is meshc/layout/ttmlir_ops.py's.

* fill_cache(cache [U, H, S, D], input [B, H, L, D]) {batch_offset o}: users o .. o + B become the
  input's rows joined (`tile_concat` along positions) to zeros up to the input's last 32-row tile
  when that ends within S (a one-element zero constant broadcast) and to the cache's own rows after
  that; joined along users to the cache's users before o and after o + B.
* update_cache(cache, input [1, H, B, D], update_index) {batch_offset o}: the input turned to
  [B, H, 1, D] (`tile_permute`) and broadcast along the S positions; where a position constant
  [S, 1] (0 .. S - 1, in the index's type) equals the index's first element (`tile_binary eq`)
  users o .. o + B take it, elsewhere they keep the cache (`tile_where`); joined as above. The
  position is read on the device, so an index outside the cache writes nothing there; a constant
  index outside it, or a batch_offset past the cache's users, is a located error at compile time
  (the run's words).

Charged as TTNN's ops are: the cache, the input and the index read, the whole cache written.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import Operation

from meshc.dialects import ttir
from meshc.dialects.ttir.base import int_value, tensor_shape
from meshc.errors import LocatedError
from meshc.layout.errors import LayoutError
from meshc.layout.ttmlir_ops import TILE_ROWS, check_position, check_users
from meshc.passes.convert_ttir_to_ttmetal_kernel import KernelBuilder

WHOLE = ("all", "all")


def cache_constants(op: Operation) -> list[np.ndarray]:
    """The constant buffers the op's kernel reads after its operands, checked first: a batch_offset
    within the cache's users, a constant update_index within its positions (located errors)."""
    cache = tuple(tensor_shape(op.cache))
    users = tensor_shape(op.input)[2 if isinstance(op, ttir.UpdateCacheBase) else 0]
    try:
        check_users(cache, int_value(op.batch_offset), users)
        if isinstance(op, ttir.UpdateCacheBase):
            idx = op.update_index.owner
            if isinstance(idx, ttir.ConstantOp):
                values = np.asarray(idx.value.get_values()).reshape(-1)
                if values.size == 0:
                    raise LayoutError("update_index is empty: it must hold the position to write")
                check_position(int(values[0]), cache[2])
    except LayoutError as e:
        raise LocatedError(f"convert-ttir-to-ttmetal: {e}", op) from None
    if isinstance(op, ttir.UpdateCacheBase):
        return [np.arange(cache[2]).reshape(cache[2], 1)]  # the positions, in the index's type
    return [np.zeros(1)]  # the zero the input's last tile is padded with


def _join_users(k: KernelBuilder, c, cache: tuple[int, ...], o: int, users: int, slab):
    """The cache block with users o .. o + users replaced by `slab` ([users, H, S, D] as a 2-d block)."""
    u, h, s, d = cache
    pieces, sizes = [], []
    if o:
        pieces.append(k.slice(c, cache, ([0, 0, 0, 0], [o, h, s, d], [1] * 4), (o * h * s, d)))
        sizes.append(o)
    pieces.append(slab)
    sizes.append(users)
    if o + users < u:
        rest = u - o - users
        pieces.append(k.slice(c, cache, ([o + users, 0, 0, 0], [u, h, s, d], [1] * 4), (rest * h * s, d)))
        sizes.append(rest)
    return slab if len(pieces) == 1 else k.concat(pieces, cache, sizes, 0, (u * h * s, d))


def cache_kernel(op: Operation, k: KernelBuilder) -> None:
    """The kernel (module docstring): buffers are the cache (read and written), the input, the
    index of an update_cache, then the constants of `cache_constants`."""
    cache = tuple(tensor_shape(op.cache))
    u, h, s, d = cache
    o = int_value(op.batch_offset)
    c = k.read(0, WHOLE)
    x = k.read(1, WHOLE)
    if isinstance(op, ttir.UpdateCacheBase):
        b = tensor_shape(op.input)[2]
        turned = k.permute(x, (1, h, b, d), (2, 1, 0, 3), (b * h, d))  # [B, H, 1, D]
        spread = k.broadcast(turned, (b, h, 1, d), (b, h, s, d), (b * h * s, d))
        n = tensor_shape(op.update_index)
        first = k.slice(k.read(2, WHOLE), tuple(n), ([0] * len(n), [1] * len(n), [1] * len(n)), (1, 1))
        positions = k.broadcast(k.read(3, WHOLE), (1, 1, s, 1), (b, h, s, 1), (b * h * s, 1))
        hit = k.binary("eq", positions, first)
        old = c if b == u else k.slice(c, cache, ([o, 0, 0, 0], [o + b, h, s, d], [1] * 4), (b * h * s, d))
        k.write(_join_users(k, c, cache, o, b, k.where(hit, spread, old)), 0, WHOLE)
        return
    b, rows = tensor_shape(op.input)[0], tensor_shape(op.input)[2]
    padded = -(-rows // TILE_ROWS) * TILE_ROWS
    zeros = padded - rows if padded <= s else 0
    pieces, sizes = [x], [rows]
    if zeros:
        pieces.append(k.broadcast(k.read(2, WHOLE), (1, 1, 1, 1), (b, h, zeros, d), (b * h * zeros, d)))
        sizes.append(zeros)
    if rows + zeros < s:
        keep = s - rows - zeros
        pieces.append(k.slice(c, cache, ([o, 0, rows + zeros, 0], [o + b, h, s, d], [1] * 4), (b * h * keep, d)))
        sizes.append(keep)
    slab = pieces[0] if len(pieces) == 1 else k.concat(pieces, (b, h, s, d), sizes, 2, (b * h * s, d))
    k.write(_join_users(k, c, cache, o, b, slab), 0, WHOLE)
