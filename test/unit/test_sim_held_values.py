"""Tensors held as host values until their bytes are looked at (MeshBuffer.hold / settle): the
bank bytes a program sees are the placement model's pages of the values, byte for byte, on
every chip, whether the values were computed per chip, shared by chips or written from the
host, and whether anyone read them as values first. The oracle is meshc.layout's own
`Placement.scatter` of the values, which the simulator does not call."""

import numpy as np
import pytest

from meshc.layout.memory_config import MemoryConfig
from meshc.layout.mesh_mappers import ReplicateTensorToMesh, ShardTensor2dMesh
from meshc.layout import numerics
from meshc.layout.numerics import quantize
from meshc.layout.sharded_buffer import lower_mesh_mapper
from meshc.sim.encoding import roundtrips
from meshc.sim.machine import Machine

MESH = (2, 4)  # a t3k: 8 chips
SHAPE = (64, 96)  # 2 x 3 tiles of 32 x 32
SHARDED = MemoryConfig("l1", "block_sharded", (2, 3))  # one tile a core
INTERLEAVED = MemoryConfig("dram", "interleaved")
LAYOUTS = [(SHARDED, "l1-block-sharded"), (INTERLEAVED, "dram-interleaved")]
DTYPES = ["bf16", "bfp_bf8"]


def values(seed: int, shape=SHAPE) -> np.ndarray:
    return (np.random.default_rng(seed).standard_normal(shape) * 7).astype(np.float32)


def bank_bytes(m: Machine, buf, chip: int) -> list[np.ndarray]:
    """Each owner's allocation of `buf` on device `chip`, read from the raw memory array."""
    mem = m.l1 if buf.memory == "l1" else m.dram
    arr = mem.array(buf.address + buf.layout.owner_bytes)
    return [arr[u, chip, buf.address:buf.address + buf.layout.owner_bytes] for u in buf.units]


def assert_bytes_are_pages_of(m: Machine, buf, chip: int, x: np.ndarray) -> None:
    pages = buf.layout.placement.scatter(x)  # {owner: bytes}, owner order
    got = bank_bytes(m, buf, chip)
    assert len(pages) == len(got)
    for k, want in enumerate(pages.values()):
        assert np.array_equal(got[k][: want.size], want), f"chip {chip}, owner {k}"
        assert not got[k][want.size:].any(), f"chip {chip}, owner {k}: bytes past the pages"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("config,name", LAYOUTS, ids=[n for _, n in LAYOUTS])
def test_per_chip_results_read_as_values_then_as_bank_bytes(config, name, dtype):
    m = Machine("t3k", MESH)
    buf = m.allocate(SHAPE, dtype, config, name="h", tile=(32, 32))
    xs = [quantize(values(d), dtype) for d in range(8)]
    m.poke_all(buf, xs)
    # read as values first: the rounded values come back; bf16 values are their own decoding
    # (no page laid out for them), block floats are decoded from their pages
    for d in (0, 5):
        assert np.array_equal(m.peek(buf, d), xs[d])
    assert (buf.pending is not None) == (dtype == "bf16")
    for d in range(8):
        assert_bytes_are_pages_of(m, buf, d, xs[d])
    assert buf.pending is None  # looking at bytes laid them out once
    for d in (3, 7):
        assert np.array_equal(m.peek(buf, d), xs[d])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("config,name", LAYOUTS, ids=[n for _, n in LAYOUTS])
def test_held_then_laid_out_is_byte_for_byte_written_at_once(config, name, dtype):
    m = Machine("t3k", MESH)
    xs = [quantize(values(50 + d), dtype) for d in range(8)]
    now = m.allocate(SHAPE, dtype, config, name="now", tile=(32, 32))
    for d in range(8):  # a new buffer written chip by chip: encoded into its bytes at once
        m.poke(now, d, xs[d])
    assert now.pending is None
    held = m.allocate(SHAPE, dtype, config, name="held", tile=(32, 32))
    m.poke_all(held, xs)
    assert held.pending is not None
    for d in range(8):
        a, b = bank_bytes(m, now, d), bank_bytes(m, held, d)
        assert all(np.array_equal(x, y) for x, y in zip(a, b)), f"chip {d}"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("config,name", LAYOUTS, ids=[n for _, n in LAYOUTS])
def test_shared_and_host_written_tensors_have_the_same_bank_bytes_as_pages(config, name, dtype):
    m = Machine("t3k", MESH)
    # chips of one mesh row share one array (pattern 2 x 1)
    rows = [quantize(values(10 + r), dtype) for r in range(2)]
    shared = m.allocate(SHAPE, dtype, config, name="s", tile=(32, 32))
    m.poke_all(shared, [rows[d // 4] for d in range(8)])
    # the host tensor 128 x 384 split 2 x 4: chip (i, j) gets rows 64i.., cols 96j..
    full = values(20, (128, 384))
    split = m.allocate(SHAPE, dtype, config, name="w", tile=(32, 32))
    m.write_host(split, full, lower_mesh_mapper((128, 384), MESH, ShardTensor2dMesh((0, 1)), 4))
    # replicated from the host, which then changes its tensor: the chips keep what was sent
    src = values(30)
    sent = src.copy()
    rep = m.allocate(SHAPE, dtype, config, name="r", tile=(32, 32))
    m.write_host(rep, src, lower_mesh_mapper(SHAPE, MESH, ReplicateTensorToMesh(), 4))
    src[...] = 0
    for d in range(8):
        i, j = divmod(d, 4)
        assert_bytes_are_pages_of(m, shared, d, rows[i])
        assert_bytes_are_pages_of(m, split, d, full[64 * i:64 * i + 64, 96 * j:96 * j + 96])
        assert_bytes_are_pages_of(m, rep, d, sent)


@pytest.mark.parametrize("dtype", ["f32", "bf16", "bfp_bf8"])
def test_writing_one_chip_of_held_values_keeps_the_others(dtype):
    m = Machine("t3k", MESH)
    buf = m.allocate(SHAPE, dtype, SHARDED, name="t", tile=(32, 32))
    x = quantize(values(1), dtype)
    m.poke_all(buf, [x] * 8)  # one array for every chip
    y = quantize(values(2), dtype)
    m.poke(buf, 6, y)
    assert np.array_equal(m.peek(buf, 6), y)
    assert all(np.array_equal(m.peek(buf, d), x) for d in (0, 5, 7))
    for d in range(8):
        assert_bytes_are_pages_of(m, buf, d, y if d == 6 else x)


def test_f32_values_are_read_back_without_a_copy_and_cannot_be_changed_through_the_buffer():
    m = Machine("t3k", MESH)
    buf = m.allocate(SHAPE, "f32", SHARDED, name="t", tile=(32, 32))
    xs = [values(d) for d in range(8)]
    m.poke_all(buf, xs)
    got = m.peek_all(buf)
    assert all(np.shares_memory(g, x) for g, x in zip(got, xs))  # f32 tiles decode to themselves
    assert not got[0].flags.writeable
    mine = m.peek(buf, 0)  # a kernel's local copy may be written
    mine[0, 0] = 1e9
    assert m.peek_all(buf)[0][0, 0] == xs[0][0, 0]
    assert all(np.array_equal(v, x) for v, x in zip(m.read(buf), xs))
    assert_bytes_are_pages_of(m, buf, 4, xs[4])


def test_bf16_values_are_kept_exactly_when_storing_them_changes_no_bit():
    # every bf16 bit pattern as float32, one at a time: kept only if storing it changes no bit,
    # and every one but the NaNs is kept (NaNs are decoded from their bytes instead)
    bits = np.arange(1 << 16, dtype=np.uint32) << 16
    v = bits.view(np.float32)
    same = numerics.decode(numerics.encode(v, "bf16"), "bf16", v.size).view(np.uint32) == bits
    kept = np.array([roundtrips(v[i:i + 1], "bf16") for i in range(v.size)])
    assert not (kept & ~same).any()
    assert np.array_equal(kept, ~np.isnan(v))
    assert not same.all()  # (some NaNs do change: the rule is needed)
    # not bf16 values: a low bit set anywhere, or not float32
    assert roundtrips(np.float32([1.5, -0.0, np.inf]), "bf16")
    assert not roundtrips(np.float32([1.5, 1.0 + 2.0 ** -20]), "bf16")
    assert not roundtrips(np.float64([1.5]), "bf16")
    assert roundtrips(np.int32([7]), "si32") and not roundtrips(np.float32([0.5]), "bfp_bf8")


def test_a_borrowed_host_tensor_is_held_as_views_of_it():
    m = Machine("t3k", MESH)
    full = values(40, (128, 384))
    buf = m.allocate(SHAPE, "f32", SHARDED, name="w", tile=(32, 32))
    m.write_host(buf, full, lower_mesh_mapper((128, 384), MESH, ShardTensor2dMesh((0, 1)), 4), borrow=True)
    got = m.peek_all(buf)
    assert all(np.shares_memory(g, full) and not g.flags.writeable for g in got)  # no copy
    assert np.array_equal(got[6], full[64:128, 192:288])  # chip (1, 2)
    assert m.traffic.host_to_device == {c: 64 * 96 * 4 for c in m.devices}  # still counted as sent
    for d in (0, 6):
        i, j = divmod(d, 4)
        assert_bytes_are_pages_of(m, buf, d, full[64 * i:64 * i + 64, 96 * j:96 * j + 96])
