"""A point_to_point's transfer rows as numbers and as packed text, and their checks, vectorized.

A `point_to_point` lists its moves as rows `step, src, dst, lo_0, hi_0, ..., lo_r-1, hi_r-1`
(meshc/dialects/ttir/reshard.py). A gather to every device of a large mesh makes hundreds of
thousands of rows; written out as `array<i64: ...>` they took seconds to print, parse and check.
A table of more than `PACKED_ABOVE` numbers is therefore written packed (`pack`): the rows as
differences from the row before (the moves of a plan step through devices and boxes in regular
strides, so most differences repeat), little-endian int64, zlib-compressed, in base64. `unpack`
reads it back exactly; `bad_transfer` checks every row at once.
"""

from __future__ import annotations

import base64
import binascii
import zlib
from functools import lru_cache

import numpy as np

from meshc.layout.errors import LayoutError

PACKED_ABOVE = 4096
"""A transfer table of more numbers than this is written packed (`#ttir.transfers<...>`)."""


def row_width(rank: int) -> int:
    """Numbers in a row of a rank-`rank` tensor's moves: step, src, dst, then lo, hi per dim."""
    return 3 + 2 * rank


def pack(rows: np.ndarray) -> str:
    """The (n, width) int64 rows as text: row differences, little-endian int64, zlib, base64."""
    rows = np.asarray(rows, dtype=np.int64)
    deltas = np.diff(rows, axis=0, prepend=np.zeros((1, rows.shape[1]), dtype=np.int64))
    return base64.b64encode(zlib.compress(deltas.astype("<i8").tobytes(), 6)).decode("ascii")


@lru_cache(maxsize=8)
def unpack(text: str, n_rows: int, width: int) -> np.ndarray:
    """The rows `pack` wrote (read-only); LayoutError when `text` is not such a table of n_rows
    rows of `width` numbers."""
    try:
        raw = zlib.decompress(base64.b64decode(text.encode("ascii"), validate=True))
    except (binascii.Error, zlib.error, UnicodeEncodeError) as e:
        raise LayoutError(f"the packed transfers are not base64 of zlib-compressed int64 rows ({e})") from None
    if len(raw) != 8 * n_rows * width:
        raise LayoutError(f"the packed transfers hold {len(raw) // 8} numbers, expected {n_rows} rows of {width} "
                          f"= {n_rows * width}")
    rows = np.cumsum(np.frombuffer(raw, dtype="<i8").reshape(n_rows, width), axis=0, dtype=np.int64)
    rows.setflags(write=False)
    return rows


def bad_transfer(rows: np.ndarray, devices: int, full: tuple[int, ...], pieces: np.ndarray,
                 shift: tuple[int, ...]) -> str | None:
    """The first row that breaks a rule, said in words, or None. Rules: steps do not decrease; a
    move joins two different devices of the `devices`; its box is non-empty, inside the tensor
    `full` and inside its destination's target piece (`pieces`: (devices, rank, 2) bounds, as
    meshc.layout.reshard.cells.device_bounds gives them, shifted by `shift`, a window's start)."""
    if len(rows) == 0:
        return None
    step, src, dst = rows[:, 0], rows[:, 1], rows[:, 2]
    lo, hi = rows[:, 3::2], rows[:, 4::2]
    down = np.flatnonzero(np.diff(step) < 0)
    bad_pair = (src < 0) | (src >= devices) | (dst < 0) | (dst >= devices) | (src == dst)
    piece = pieces[np.clip(dst, 0, devices - 1)] + np.asarray(shift, dtype=np.int64)[None, :, None]
    outside_piece = np.any((lo < piece[:, :, 0]) | (lo >= hi) | (hi > piece[:, :, 1]), axis=1)
    outside_tensor = np.any((lo < 0) | (hi > np.asarray(full, dtype=np.int64)), axis=1)
    firsts = [(int(down[0]) + 1, "down")] if len(down) else []
    for flags, what in ((bad_pair, "pair"), (outside_piece & ~bad_pair, "piece"), (outside_tensor, "tensor")):
        hit = np.flatnonzero(flags)
        if len(hit):
            firsts.append((int(hit[0]), what))
    if not firsts:
        return None
    i, what = min(firsts)
    r = [int(x) for x in rows[i]]
    box = list(zip(r[3::2], r[4::2]))
    if what == "down":
        return f"transfer {i}: steps must not decrease (step {r[0]} after step {int(rows[i - 1, 0])})"
    if what == "pair":
        return f"transfer {i}: ({r[1]} -> {r[2]}) must join two different devices of the {devices}"
    if what == "piece":
        target = [(int(a), int(b)) for a, b in piece[i]]
        return f"transfer {i}: box {box} is empty or lies outside device {r[2]}'s target piece {target}"
    return f"transfer {i}: box {box} lies outside the {'x'.join(map(str, full))} tensor"
