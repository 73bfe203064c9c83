"""meshc.layout.reshard.transfer_table: packed point_to_point rows read back exactly, and the
vectorized row checks say what the per-row checks said, for the first row that breaks one."""

import numpy as np
import pytest

from meshc.layout.errors import LayoutError
from meshc.layout.mesh import Mesh
from meshc.layout.reshard.cells import device_bounds
from meshc.layout.reshard.transfer_table import bad_transfer, pack, row_width, unpack
from meshc.layout.sharding_spec import parse_spec


def test_round_trip_is_exact():
    rng = np.random.default_rng(0)
    rows = rng.integers(-(2**62), 2**62, size=(1000, 9), dtype=np.int64)
    back = unpack(pack(rows), 1000, 9)
    assert back.dtype == np.int64 and np.array_equal(back, rows)
    assert not back.flags.writeable
    empty = np.zeros((0, 7), dtype=np.int64)
    assert unpack(pack(empty), 0, 7).shape == (0, 7)


def test_a_gather_packs_small():
    # every device of 512 sends its one element of a 512-long vector to every other device:
    # 512 * 511 rows [0, src, dst, src, src + 1] (rank 1: 3 + 2 = 5 numbers)
    src, dst = np.meshgrid(np.arange(512), np.arange(512), indexing="ij")
    keep = src != dst
    s, d = src[keep], dst[keep]
    rows = np.stack([np.zeros_like(s), s, d, s, s + 1], axis=1)
    assert rows.shape == (512 * 511, row_width(1))
    text = pack(rows)
    written = len(", ".join(map(str, rows.reshape(-1).tolist())))
    assert len(text) * 50 < written  # the differences repeat: zlib keeps a fraction of them
    assert np.array_equal(unpack(text, len(rows), 5), rows)


def test_malformed_text_is_refused():
    with pytest.raises(LayoutError, match="not base64 of zlib-compressed int64 rows"):
        unpack("not base64!", 1, 7)
    with pytest.raises(LayoutError, match="not base64 of zlib-compressed int64 rows"):
        unpack("aGVsbG8=", 1, 7)  # base64 of "hello", not zlib
    one = pack(np.arange(7).reshape(1, 7))
    with pytest.raises(LayoutError, match=r"hold 7 numbers, expected 2 rows of 7 = 14"):
        unpack(one, 2, 7)


def _check(rows, tgt="[S1, S0]", full=(2, 2), shift=(0, 0)):
    mesh = Mesh((2, 2))
    pieces = device_bounds(parse_spec(tgt, mesh), full)
    return bad_transfer(np.array(rows, dtype=np.int64).reshape(-1, 7), mesh.size, full, pieces, shift)


def test_row_checks_say_the_first_broken_rule():
    # [S0, S1] -> [S1, S0] of a 2x2 tensor on a 2x2 mesh: device 1 (coord (0, 1)) keeps row 1,
    # column 0 of the target ([S1, S0]: dim 0 split by axis 1, dim 1 by axis 0)
    good = [0, 2, 1, 1, 2, 0, 1]
    assert _check([good]) is None
    assert _check([good, [0, 1, 2, 0, 1, 1, 2]]) is None
    assert _check([[1, 2, 1, 1, 2, 0, 1], good]) == "transfer 1: steps must not decrease (step 0 after step 1)"
    assert _check([good, [0, 4, 1, 1, 2, 0, 1]]) == "transfer 1: (4 -> 1) must join two different devices of the 4"
    assert _check([[0, 1, 1, 1, 2, 0, 1]]) == "transfer 0: (1 -> 1) must join two different devices of the 4"
    assert _check([[0, 2, 1, 0, 1, 1, 2]]) == (
        "transfer 0: box [(0, 1), (1, 2)] is empty or lies outside device 1's target piece [(1, 2), (0, 1)]")
    assert _check([[0, 2, 1, 1, 1, 0, 1]]) == (
        "transfer 0: box [(1, 1), (0, 1)] is empty or lies outside device 1's target piece [(1, 2), (0, 1)]")
    # a row breaking two rules names the first the per-row check tested (the pair)
    assert _check([good, [0, 4, 4, 5, 6, 0, 1]]) == "transfer 1: (4 -> 4) must join two different devices of the 4"
    # a window shifts the target pieces: a box of the tensor outside it
    assert _check([[0, 2, 1, 3, 4, 2, 3]], full=(2, 2), shift=(2, 2)) == (
        "transfer 0: box [(3, 4), (2, 3)] lies outside the 2x2 tensor")
