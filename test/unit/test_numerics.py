"""Element encodings: bytes of every data type, bf16 rounding, block-float quantisation.

Expected bytes come from numpy (IEEE types) or from the rule in docs/placement.md worked by hand.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from meshc.layout.errors import LayoutError
from meshc.layout.numerics import decode, encode, nbytes, quantize


def test_plain_types_are_numpy_little_endian_bytes():
    x = np.array([1.5, -2.25, 3e-5], np.float32)
    assert np.array_equal(encode(x, "f32"), np.frombuffer(x.astype("<f4").tobytes(), np.uint8))
    h = np.array([1.5, -2.25, 65504.0], np.float32)
    assert np.array_equal(encode(h, "f16"), np.frombuffer(h.astype("<f2").tobytes(), np.uint8))
    i = np.array([-1, 7, 2**31 - 1], np.int32)
    assert np.array_equal(encode(i, "si32"), np.frombuffer(i.astype("<i4").tobytes(), np.uint8))
    u = np.array([0, 65535], np.uint16)
    assert np.array_equal(decode(encode(u, "u16"), "u16", 2), u)


def test_bf16_round_to_nearest_even():
    # 1 + 2^-8 is halfway between bf16 1.0 and 1 + 2^-7: ties to even -> 1.0
    # 1 + 3 * 2^-8 is halfway between 1 + 2^-7 and 1 + 2^-6: ties to even -> 1 + 2^-6
    # 1 + 2^-8 + 2^-20 is above halfway -> 1 + 2^-7
    x = np.array([1 + 2**-8, 1 + 3 * 2**-8, 1 + 2**-8 + 2**-20, -1.0], np.float32)
    q = quantize(x, "bf16")
    assert q.tolist() == [1.0, 1 + 2**-6, 1 + 2**-7, -1.0]
    assert encode(np.float32(1.0), "bf16").tolist() == [0x80, 0x3F]  # 0x3F80 little-endian
    assert np.isnan(quantize(np.array([np.nan], np.float32), "bf16")[0])


@pytest.mark.parametrize("dtype, values, exponent, mantissa_bytes, quantized", [
    # bfp8: shared E from 1.0 (exp field 127), scale 2^(127-133) = 1/64, one byte an element;
    # M(1.0) = 64; M(0.3) = round(19.2) = 19 -> 19/64 = 0.296875; -0.3 keeps the sign bit
    ("bfp_bf8", (1.0, 0.3, -0.3), 127, [64, 19, 0x80 | 19], [1.0, 0.296875, -0.296875]),
    # bfp4: shared E from 3.0 (field 128), scale 2^(128-127-2) = 1/2, element 0 in the low nibble,
    # element 1 in the high one: M(3.0) = 6, M(0.75) = round(1.5) = 2; -0.5 -> sign bit + M = 1
    # (low nibble 0x9), element 3 is 0 (high nibble 0)
    ("bfp_bf4", (3.0, 0.75, -0.5), 128, [6 | (2 << 4), 0x8 | 1], [3.0, 1.0, -0.5]),
])
def test_block_float_by_hand(dtype, values, exponent, mantissa_bytes, quantized):
    # one 16-element block: the given values, then zeros; bytes: the shared exponent, then mantissas
    x = np.zeros(16, np.float32)
    x[: len(values)] = values
    b = encode(x, dtype)
    element_bits = 8 if dtype == "bfp_bf8" else 4
    assert b.shape == (1 + 16 * element_bits // 8,)
    assert b[0] == exponent
    assert b[1 : 1 + len(mantissa_bytes)].tolist() == mantissa_bytes
    assert quantize(x, dtype)[: len(values)].tolist() == quantized


def test_bfp_largest_element_saturates_instead_of_overflowing():
    # 1.999 has field 127; M = round(1.999 * 64) = 128 would overflow 7 bits: clamp to 127
    x = np.full(16, 1.999, np.float32)
    assert quantize(x, "bfp_bf8")[0] == 127 / 64


def test_page_byte_sizes():
    assert nbytes(1024, "bfp_bf8") == 1088
    assert nbytes(1024, "bfp_bf4") == 576
    assert nbytes(1024, "bf16") == 2048


def test_encoding_errors():
    with pytest.raises(LayoutError, match="cannot hold inf or NaN"):
        encode(np.array([np.inf] + [0] * 15, np.float32), "bfp_bf8")
    with pytest.raises(LayoutError, match="blocks of 16"):
        encode(np.zeros(10, np.float32), "bfp_bf8")
    with pytest.raises(LayoutError, match=r"u8 holds integers in \[0, 255\]"):
        encode(np.array([300]), "u8")
    with pytest.raises(LayoutError, match="non-integral"):
        encode(np.array([1.5]), "si32")
    with pytest.raises(LayoutError, match="take 8 bytes; got 7"):
        decode(np.zeros(7, np.uint8), "f32", 2)


finite = st.floats(-2.0**100, 2.0**100, width=32, allow_nan=False, allow_subnormal=True)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float32, st.integers(1, 5).map(lambda k: (3, 16 * k)), elements=finite),
       st.sampled_from(["bfp_bf8", "bfp_bf4", "bf16", "f16", "f32"]))
def test_quantize_is_idempotent_and_round_trips(x, dtype):
    if dtype == "f16":
        x = np.clip(x, -60000, 60000)
    q = quantize(x, dtype)
    assert np.array_equal(quantize(q, dtype), q)
    enc = encode(q, dtype)
    assert np.array_equal(decode(enc, dtype, x.shape[-1]), q)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float32, (16,), elements=finite))
def test_bfp8_error_is_at_most_half_a_step(x):
    # step of a block = 2^(E - 133) where E = max exponent field; rounding error <= step / 2,
    # except the saturated top value (error < 1 step)
    # (f32 subnormals flush to 0 first, as TT-Metal's packer does: test_bfp_bytes_match_ttnn)
    x = np.where((x.view(np.uint32) >> 23) & 0xFF, x, np.float32(0))
    e = int(((x.view(np.uint32) >> 23) & 0xFF).max())
    step = 2.0 ** (e - 133)
    err = np.abs(quantize(x, "bfp_bf8").astype(np.float64) - x.astype(np.float64))
    assert np.all(err <= step)
    sat = np.abs(x.astype(np.float64)) > 127.5 * step
    assert np.all(err[~sat] <= step / 2)


# Bytes of TT-Metal's own host packer: ttnn 0.81.1 (the PyPI wheel), `ttnn.Tensor(x (32x32 f32),
# data_type=ttnn.bfloat8_b / ttnn.bfloat4_b, layout=ttnn.TILE_LAYOUT)` written out with
# `ttnn.dump_tensor`, the tile's bytes read off the end of the file (64 exponent bytes, one a
# 16-element row of a face, then the elements). Below: face 0's first row (the tile's x[0, :16]),
# its exponent byte and its element bytes. Two rules show here (a negative value whose magnitude
# rounds to 0 packs as 0x00 / 0x0, not 0x80 / 0x8; a subnormal input does not set the exponent):
# a zero magnitude has sign 0, and f32 subnormal inputs are flushed to 0 before the exponent is
# taken. Ties round to even (2.5 -> 2, 5.5 -> 6, 127.5 -> 128 clamped to 127).
TTNN_ROWS = [
    # (x[0, :16], bf8 exponent, bf8 element bytes, bf4 exponent, bf4 bytes (element 2k low nibble))
    ([1.0, -2.0**-9, -2.0**-8, 2.0**-9, -1e-5] + [0.0] * 11,
     127, [64] + [0] * 15, 127, [4] + [0] * 7),
    ([1e-40, -1e-40, 1e-39] + [0.0] * 13,  # all subnormal: flushed, exponent 0
     0, [0] * 16, 0, [0] * 8),
    ([-0.0] * 16, 0, [0] * 16, 0, [0] * 8),
    ([3.0, 1.0, -0.0078125, 0.00390625, -0.005859375, 0.0068359375, -1.5, 2.9, 0.5, -0.25, 0.1, -0.1,
      0.01, -0.01, 7.0, -7.0],
     129, [48, 16, 0, 0, 0, 0, 152, 46, 8, 132, 2, 130, 0, 0, 112, 240],
     129, [19, 0, 0, 58, 0, 0, 0, 247]),
    ([1.0, 2.5 / 64, 3.5 / 64, 0.5 / 64, -2.5 / 64, 1.5 / 64, 127.5 / 64, 126.5 / 64, 0.75, -0.5 / 64,
      4.5 / 64, 5.5 / 64, 0.0, 0.0, 0.0, 0.0],
     127, [64, 2, 4, 0, 130, 2, 127, 126, 48, 0, 4, 6, 0, 0, 0, 0],
     127, [4, 0, 0, 119, 3, 0, 0, 0]),
    ([1.0, 2.5 / 4, 1.5 / 4, 0.5 / 4, -2.5 / 4, -1.5 / 4, 7.5 / 4, 6.5 / 4] + [0.0] * 8,
     127, [64, 40, 24, 8, 168, 152, 120, 104, 0, 0, 0, 0, 0, 0, 0, 0],
     127, [36, 2, 170, 103, 0, 0, 0, 0]),
]


@pytest.mark.parametrize("row, e8, b8, e4, b4", TTNN_ROWS)
def test_bfp_bytes_match_ttnn(row, e8, b8, e4, b4):
    x = np.array(row, np.float32)
    assert encode(x, "bfp_bf8").tolist() == [e8] + b8
    assert encode(x, "bfp_bf4").tolist() == [e4] + b4


def test_bfp_a_subnormal_beside_a_normal_is_zero_as_ttnn_packs_it():
    # ttnn 0.81.1 (as above): row [1e-40, 1.0, 0, ...] packs as exponent 127, bytes [0, 64, 0, ...]
    # (bf8) and [64, 0, ...] (bf4): the subnormal is 0, and the block's exponent is 1.0's
    x = np.zeros(16, np.float32)
    x[:2] = [1e-40, 1.0]
    assert encode(x, "bfp_bf8").tolist() == [127, 0, 64] + [0] * 14
    assert encode(x, "bfp_bf4").tolist() == [127, 64] + [0] * 7
    assert not np.signbit(quantize(-x, "bfp_bf8")[0])  # -1e-40 holds +0, no -0.0
