"""Large copies for the simulator's host transfers, with streaming stores when meshc was built
with its native routine (meshc/sim/_stream_copy.c, built by setup.py when a C compiler is there).

numpy copies a strided view row by row with ordinary stores: each destination cache line is read
before it is written. For a transfer much larger than the caches, made of short rows (a core's
shard row), that read is most of the cost; the native routine writes around the caches instead.
It is used only for copies of at least `STREAM_BYTES` (smaller ones are left in the caches,
where the next op reads them) whose rows are contiguous. `copy_rows(dst, src)` returns False
when it did not copy (the caller then copies with numpy); the bytes are the same either way
(test/unit/test_sim_stream_copy.py). MESHC_NATIVE_COPY=0 in the environment turns it off,
as does `use_native(False)`.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os

import numpy as np

STREAM_BYTES = 8 << 20
"""Copies at least this large go through the native routine, when there is one."""

_MAX_DIMS = 32


def _load():
    if os.environ.get("MESHC_NATIVE_COPY", "1") == "0":
        return None
    spec = importlib.util.find_spec("meshc.sim._stream_copy")
    if spec is None or not spec.origin:
        return None
    try:
        fn = ctypes.CDLL(spec.origin).meshc_stream_copy  # a foreign call releases the GIL
    except (OSError, AttributeError):
        return None
    i64p = ctypes.POINTER(ctypes.c_int64)
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, i64p, i64p, i64p, ctypes.c_int64]
    fn.restype = ctypes.c_int
    return fn


_native = _load()
AVAILABLE = _native is not None
"""Whether the native routine was built and loaded."""
_enabled = AVAILABLE


def use_native(on: bool) -> bool:
    """Turn the native routine on or off for this process (when it is there); returns the
    previous setting. Tests and bench/sim.py compare the two paths with it."""
    global _enabled
    previous = _enabled
    _enabled = bool(on) and AVAILABLE
    return previous


def copy_rows(dst: np.ndarray, src: np.ndarray, min_bytes: int = STREAM_BYTES) -> bool:
    """dst[...] = src for two views of equal shape and dtype (each element a contiguous row of
    bytes: the simulator passes one void item a shard row), when the native routine is on and
    the copy holds at least `min_bytes`; False, copying nothing, otherwise."""
    if not _enabled or dst.nbytes < min_bytes or dst.shape != src.shape or dst.dtype != src.dtype:
        return False
    if dst.ndim > _MAX_DIMS or not dst.flags.writeable or dst.dtype.hasobject or np.may_share_memory(dst, src):
        return False
    n = dst.ndim
    # walk the source in memory order: reads then stream in, and the streaming stores, which
    # need no read of their own, take the scattered side (measured faster both ways)
    order = sorted(range(n), key=lambda d: -abs(src.strides[d]))
    dst, src = dst.transpose(order), src.transpose(order)
    arr = ctypes.c_int64 * max(n, 1)
    rc = _native(dst.__array_interface__["data"][0], src.__array_interface__["data"][0], n,
                 arr(*dst.shape), arr(*dst.strides), arr(*src.strides), dst.itemsize)
    return rc == 0
