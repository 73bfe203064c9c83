"""Property sweep of the placement model over shapes, data types, tiles, strategies and grids.

For every legal configuration: the element map is a bijection between tensor elements and the
non-padding slots, addresses never overlap within an owner and stay inside its allocation,
scatter puts each element's bytes at the address the element map gives, and gather(scatter(x))
is x exactly.
"""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from meshc.layout import MemoryConfig, place
from meshc.layout.memory_config import CoreRange, CoreRangeSet
from meshc.layout.numerics import encode, quantize
from meshc.layout.tensor_layout import TILE_SHAPES

DTYPES = ["f32", "bf16", "f16", "u8", "u16", "si32", "bfp_bf8", "bfp_bf4"]


def _cdiv(a, b):
    return -(-a // b)


@st.composite
def configs(draw):
    rank = draw(st.integers(1, 3))
    shape = tuple(draw(st.integers(1, 70 if i >= rank - 2 else 3)) for i in range(rank))
    dtype = draw(st.sampled_from(DTYPES))
    tile = draw(st.sampled_from(list(TILE_SHAPES) + ([None] if not dtype.startswith("bfp") else [])))
    layout = draw(st.sampled_from(["interleaved", "height_sharded", "width_sharded", "block_sharded", "nd_sharded"]))
    orientation = draw(st.sampled_from(["row_major", "col_major"]))
    buffer = draw(st.sampled_from(["l1", "dram"])) if layout == "interleaved" else "l1"
    th, tw = tile if tile else (1, 1)
    outer = math.prod(shape[:-2]) if rank > 2 else 1
    h = shape[-2] if rank >= 2 else 1
    w = shape[-1]
    hp = outer * _cdiv(h, th) * th
    wp = _cdiv(w, tw) * tw
    if layout == "interleaved":
        nb = draw(st.one_of(st.none(), st.integers(1, 13 if buffer == "dram" else 64)))
        return shape, dtype, tile, MemoryConfig(buffer, layout), nb
    if layout == "height_sharded":
        sh = max(draw(st.integers(1, _cdiv(hp, th))) * th, _cdiv(_cdiv(hp, 64), th) * th)
        ss, n = (sh, wp), _cdiv(hp, sh)
    elif layout == "width_sharded":
        sw = max(draw(st.integers(1, _cdiv(wp, tw))) * tw, _cdiv(_cdiv(wp, 64), tw) * tw)
        ss, n = (hp, sw), _cdiv(wp, sw)
    elif layout == "block_sharded":
        sh = draw(st.integers(1, _cdiv(hp, th))) * th
        sw = draw(st.integers(1, _cdiv(wp, tw))) * tw
        gr, gc = _cdiv(hp, sh), _cdiv(wp, sw)
        if gr > 8 or gc > 8:
            sh, sw = _cdiv(_cdiv(hp, 8), th) * th, _cdiv(_cdiv(wp, 8), tw) * tw
            gr, gc = _cdiv(hp, sh), _cdiv(wp, sw)
        if orientation == "col_major":
            gr, gc = gc, gr
        y0 = draw(st.integers(0, 8 - gr))
        x0 = draw(st.integers(0, 8 - gc))
        grid = CoreRange((y0, x0), (y0 + gr - 1 + draw(st.integers(0, 8 - gr - y0)), x0 + gc - 1))
        return shape, dtype, tile, MemoryConfig("l1", layout, grid, (sh, sw), orientation), None
    else:
        ss = tuple(draw(st.integers(1, d)) for d in shape[:-2])
        if rank >= 2:
            ss += (draw(st.integers(1, _cdiv(h, th))) * th,)
        ss += (draw(st.integers(1, _cdiv(w, tw))) * tw,)
        n = 64
    # height / width / nd: one or two rectangles with enough cores in total (nd: any number)
    need = min(n, 64)
    if draw(st.booleans()) or need > 32:
        rows = _cdiv(need, 8)
        grid = CoreRangeSet((CoreRange((0, 0), (rows - 1, 7)),))
    else:
        a = _cdiv(need, 2)
        grid = CoreRangeSet((CoreRange((0, 0), (0, min(a, 8) - 1)), CoreRange((4, 0), (7, 7))))
    if layout == "nd_sharded":
        k = draw(st.integers(1, 5))
        grid = CoreRangeSet((CoreRange((2, 3), (2, 3 + k - 1)),))
    return shape, dtype, tile, MemoryConfig("l1", layout, grid, ss, orientation), None


def _values(shape, dtype, rng):
    if dtype in ("u8", "u16", "si32"):
        hi = {"u8": 255, "u16": 65535, "si32": 2**31 - 1}[dtype]
        lo = -(2**31) if dtype == "si32" else 0
        return rng.integers(lo, hi, size=shape, endpoint=True).astype({"u8": np.uint8, "u16": np.uint16, "si32": np.int32}[dtype])
    x = (rng.standard_normal(shape) * 10).astype(np.float32)
    if dtype == "f16":
        return x.astype(np.float16)
    return quantize(x, dtype)


@settings(max_examples=120, deadline=None)
@given(configs(), st.integers(0, 2**32 - 1))
def test_placement_properties(cfg, seed):
    shape, dtype, tile, mc, nb = cfg
    p = place(shape, dtype, mc, tile=tile, num_banks=nb)
    size = math.prod(shape)
    em = p.element_map()
    owner, addr = em.owner.reshape(-1), em.address.reshape(-1)
    # bijection: every element has one slot, the non-padding slots are exactly the elements
    pe = p.page_elements
    assert int((pe >= 0).sum()) == size
    assert np.array_equal(np.sort(pe[pe >= 0]), np.arange(size))
    nib = (em.slot.reshape(-1) % 2) if dtype == "bfp_bf4" else 0
    assert np.array_equal(p.element_at(owner, addr, nib), np.arange(size))
    # no two elements share an address within an owner (bf4: two nibbles a byte)
    key = (owner.astype(np.int64) << 40) + addr * 2 + nib
    assert np.unique(key).size == size
    # every address lies inside its owner's allocation
    alloc = p.owner_slots * p.aligned_page_bytes
    assert np.all(addr < alloc[owner])
    # pages_by_owner partitions the pages
    pbo = p.pages_by_owner()
    assert sorted(q for ids in pbo.values() for q in ids) == list(range(p.num_pages))
    # scatter / gather round trip, and scatter agrees with the element map
    x = _values(shape, dtype, np.random.default_rng(seed))
    bufs = p.scatter(x)
    assert set(bufs) == set(p.owners)
    for k, o in enumerate(p.owners):
        assert bufs[o].size == alloc[k]
    y = p.gather(bufs)
    assert y.shape == x.shape and np.array_equal(y.astype(x.dtype), x)
    if dtype not in ("bfp_bf8", "bfp_bf4"):
        item = np.dtype({"f32": "f4", "bf16": "f2", "f16": "f2", "u8": "u1", "u16": "u2", "si32": "i4"}[dtype]).itemsize
        want = encode(x.reshape(-1), dtype).reshape(size, item)
        got = np.empty((size, item), np.uint8)
        for k, o in enumerate(p.owners):
            sel = np.flatnonzero(owner == k)
            got[sel] = bufs[o][addr[sel, None] + np.arange(item)]
        assert np.array_equal(got, want)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 3), st.integers(1, 70), st.integers(1, 70),
       st.sampled_from(["bfp_bf8", "bfp_bf4", "bf16"]), st.sampled_from(TILE_SHAPES), st.integers(0, 2**32 - 1))
def test_device_round_trip_equals_the_quantize_golden(outer, h, w, dtype, tile, seed):
    # what a tiled device tensor holds for arbitrary f32 input is exactly quantize(x): the
    # golden's 16-element row blocks are the tiles' face rows
    x = (np.random.default_rng(seed).standard_normal((outer, h, w)) * 100).astype(np.float32)
    p = place(x.shape, dtype, MemoryConfig("dram", "interleaved"), tile=tile)
    assert np.array_equal(p.gather(p.scatter(x)), quantize(x, dtype))
