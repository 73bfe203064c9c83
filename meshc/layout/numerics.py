"""Element encodings: the bytes a device holds for each data type, and back.

`encode(values, dtype)` turns host values into device bytes, `decode(data, dtype, count)` turns
device bytes into host values, and `quantize(values, dtype)` is `decode(encode(values))`: the
values a device tensor of that data type really holds (the compute golden uses it).

Both work on a batch: `values` of shape (..., n) encode to (..., nbytes(n)) and back, so a
whole tensor's pages are encoded in one call. Little-endian throughout.

* f32, f16, u32, u16, u8, si32: the IEEE / two's-complement bytes (f16 rounds to nearest even).
* bf16: ml_dtypes.bfloat16, the upper 16 bits of the f32 rounded to nearest even (NaN stays a
  quiet NaN). The block floats below are meshc's own packing: no library has them.
* bfp_bf8 / bfp_bf4 (block floats): values go in blocks of 16 (a row of a 16x16 face when the
  values are in tile storage order). A block stores one shared 8-bit exponent E = the largest
  f32 exponent field in the block, and per element a sign bit and an m-bit magnitude M
  (m = 7 for bf8, m = 3 for bf4): M = round_half_even(|x| / 2**(E - 127 - (m - 1))), clamped
  to 2**m - 1; the value is then sign * M * 2**(E - 127 - (m - 1)). As TT-Metal's host packer
  does (checked byte for byte against ttnn 0.81.1; test_numerics.py), f32 subnormal inputs are
  flushed to 0 before the exponent is taken, and an element whose magnitude rounds to 0 is
  written with sign 0 (0x00, not 0x80): a block float holds no -0.0. The n values encode as
  n/16 exponent bytes followed by the sign+magnitude fields: one byte each for bf8; a nibble
  each for bf4, element 2k in the low nibble of byte k and 2k+1 in the high one.
  A 32x32 tile is 64 + 1024 = 1088 bytes (bf8) and 64 + 512 = 576 bytes (bf4).
  Inf and NaN have no block-float encoding: encoding them is a LayoutError.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from meshc.layout.dtypes import BLOCK, DataType, get_dtype
from meshc.layout.errors import LayoutError

_MAG_BITS = {"bfp_bf8": 7, "bfp_bf4": 3}
_LITTLE = np.little_endian


def nbytes(count: int, dtype: "str | DataType") -> int:
    """Bytes `count` values of `dtype` encode to (block floats: count a multiple of 16)."""
    d = get_dtype(dtype)
    if d.is_block_float:
        _check_blocks(count, d)
        return count * d.bits // 8 + count // BLOCK
    return count * d.itemsize


def _check_blocks(count: int, d: DataType) -> None:
    if count % BLOCK:
        raise LayoutError(f"{d.name} values encode in blocks of {BLOCK}; got {count} values a row, "
                          f"not a multiple of {BLOCK}")


# ----------------------------------------------------------------------------- plain types

def _to_host(values, d: DataType) -> np.ndarray:
    """Values as the host dtype; integers must be integral and in range."""
    a = np.asarray(values)
    host = d.host_dtype
    if d.kind in ("int", "uint"):
        if a.dtype == host:
            return a
        if a.dtype.kind == "f" and not np.all(np.isfinite(a) & (a == np.round(a))):
            raise LayoutError(f"{d.name} holds integers; got non-integral values")
        info = np.iinfo(host)
        if a.size and (a.min() < info.min or a.max() > info.max):
            raise LayoutError(f"{d.name} holds integers in [{info.min}, {info.max}]; "
                              f"got values in [{a.min()}, {a.max()}]")
        return a.astype(host)
    return np.asarray(a, dtype=np.float16 if d.name == "f16" else np.float32)


def _bf16_bits(x: np.ndarray) -> np.ndarray:
    """bf16 bit patterns of f32 values, by ml_dtypes (round to nearest even; NaN stays a quiet NaN)."""
    with np.errstate(invalid="ignore"):
        return np.ascontiguousarray(x, dtype=np.float32).astype(ml_dtypes.bfloat16).view(np.uint16)


def _bfp_encode(x: np.ndarray, d: DataType) -> np.ndarray:
    m = _MAG_BITS[d.name]
    n = x.shape[-1]
    _check_blocks(n, d)
    x = np.ascontiguousarray(x, dtype=np.float32)
    if not np.all(np.isfinite(x)):
        raise LayoutError(f"{d.name} cannot hold inf or NaN")
    lead = x.shape[:-1]
    blocks = x.reshape(*lead, n // BLOCK, BLOCK)
    exp_field = ((blocks.view(np.uint32) >> np.uint32(23)) & np.uint32(0xFF)).astype(np.int32)
    blocks = np.where(exp_field == 0, np.float32(0), blocks)  # subnormals (and -0.0) flush to +0
    shared = exp_field.max(axis=-1)  # (..., nblocks)
    scale = np.ldexp(1.0, (127 + m - 1) - shared).astype(np.float64)  # exact powers of two
    mag = np.rint(np.abs(blocks).astype(np.float64) * scale[..., None])
    mag = np.minimum(mag, (1 << m) - 1).astype(np.uint8)
    sign = (np.signbit(blocks) & (mag != 0)).astype(np.uint8)  # a zero magnitude has sign 0
    field = (sign << np.uint8(m)) | mag  # sign bit above the magnitude
    field = field.reshape(*lead, n)
    if d.name == "bfp_bf4":
        field = field[..., 0::2] | (field[..., 1::2] << np.uint8(4))
    return np.concatenate([shared.astype(np.uint8), field], axis=-1)


def _bfp_decode(b: np.ndarray, d: DataType, count: int) -> np.ndarray:
    m = _MAG_BITS[d.name]
    _check_blocks(count, d)
    lead = b.shape[:-1]
    nblk = count // BLOCK
    shared = b[..., :nblk].astype(np.int32)
    field = b[..., nblk:]
    if d.name == "bfp_bf4":
        field = np.stack([field & np.uint8(0xF), field >> np.uint8(4)], axis=-1).reshape(*lead, count)
    mag = (field & np.uint8((1 << m) - 1)).astype(np.float64).reshape(*lead, nblk, BLOCK)
    neg = ((field >> np.uint8(m)) & np.uint8(1)).astype(bool).reshape(*lead, nblk, BLOCK)
    vals = np.ldexp(mag, (shared - 127 - (m - 1))[..., None])
    vals = np.where(neg, -vals, vals)
    return vals.astype(np.float32).reshape(*lead, count)


# ----------------------------------------------------------------------------- public API

def encode(values, dtype: "str | DataType") -> np.ndarray:
    """Device bytes (uint8, shape (..., nbytes(n))) of values of shape (..., n)."""
    d = get_dtype(dtype)
    a = np.asarray(values)
    if a.ndim == 0:
        a = a.reshape(1)
    if d.is_block_float:
        return _bfp_encode(a, d)
    if d.name == "bf16":
        bits = _bf16_bits(np.asarray(a, dtype=np.float32))
        if not _LITTLE:
            bits = bits.astype("<u2")
        return bits.view(np.uint8)
    h = np.ascontiguousarray(_to_host(a, d))
    if h.dtype.byteorder == ">" or (h.dtype.byteorder == "=" and not _LITTLE):
        h = h.astype(h.dtype.newbyteorder("<"))
    return h.view(np.uint8)  # no copy for native little-endian data


def decode(data: np.ndarray, dtype: "str | DataType", count: int, copy: bool = True) -> np.ndarray:
    """Host values (shape (..., count)) of device bytes of shape (..., nbytes(count)).

    With copy=False the result of a plain little-endian type may share memory with `data`.
    """
    d = get_dtype(dtype)
    b = np.ascontiguousarray(np.asarray(data, dtype=np.uint8))
    need = nbytes(count, d)
    if b.shape[-1] != need:
        raise LayoutError(f"{count} values of {d.name} take {need} bytes; got {b.shape[-1]}")
    if d.is_block_float:
        return _bfp_decode(b, d, count)
    if d.name == "bf16":
        return b.view("<u2").astype(np.uint16).view(ml_dtypes.bfloat16).astype(np.float32)
    store = np.dtype(np.float16 if d.name == "f16" else d.host).newbyteorder("<")
    out = b.view(store)
    return out.astype(np.float16 if d.name == "f16" else d.host_dtype, copy=copy)


def quantize(values, dtype: "str | DataType") -> np.ndarray:
    """The values a device tensor of `dtype` holds for `values`.

    Block floats are blocked as a tiled tensor's faces block them: 16 consecutive elements of
    a row, starting at column 0, each row zero-padded to a multiple of 16.
    """
    a = np.asarray(values)
    d = get_dtype(dtype)
    rows = a.reshape(-1, a.shape[-1]) if a.ndim else a.reshape(1, 1)
    n = rows.shape[-1]
    if d.is_block_float:
        pad = (-n) % BLOCK
        rows = np.pad(rows.astype(np.float32), ((0, 0), (0, pad)))
        return decode(encode(rows, d), d, n + pad)[:, :n].reshape(a.shape)
    return decode(encode(rows, d), d, n).reshape(a.shape)
