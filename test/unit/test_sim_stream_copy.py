"""meshc/sim/stream_copy.py: the native streaming-store copy moves exactly the bytes numpy's
assignment moves, on every kind of view the simulator hands it, and the simulator's large host
transfers leave the same device bytes with it as without it."""

import shutil

import numpy as np
import pytest

from meshc.layout.memory_config import MemoryConfig
from meshc.layout.mesh_mappers import ShardTensor2dMesh
from meshc.layout.sharded_buffer import lower_mesh_mapper
from meshc.sim import stream_copy
from meshc.sim.machine import Machine

native = pytest.mark.skipif(not stream_copy.AVAILABLE, reason="meshc was built without its native copy")


def test_built_wherever_a_c_compiler_is():
    """setup.py builds the routine when it can; a compiler that is there but failed is a defect,
    not a silent fallback (bench/sim.py's figures depend on it)."""
    if shutil.which("cc") or shutil.which("gcc"):
        assert stream_copy.AVAILABLE


def rows_view(a: np.ndarray) -> np.ndarray:
    """Each last-axis row as one void item (what meshc/sim/memory.py hands the copy)."""
    return a.view(np.dtype((np.void, a.shape[-1] * a.itemsize)))[..., 0]


def cases(rng):
    """(destination, source) view pairs of equal shape: aligned 1 KiB rows (streamed), short
    rows, rows with a tail past the last 16 bytes, a destination off 16-byte alignment, reversed
    and transposed axes, a zero-length axis."""
    big = rng.integers(0, 256, (4, 6, 8, 1024), dtype=np.uint8)
    yield np.zeros((6, 4, 8, 1024), np.uint8).transpose(1, 0, 2, 3), big
    yield np.zeros((8, 6, 4, 1024), np.uint8).transpose(2, 1, 0, 3), big[:, ::-1]
    short = rng.integers(0, 256, (40, 48), dtype=np.uint8)
    yield np.zeros((40, 48), np.uint8), short[::-1]
    tail = rng.integers(0, 256, (12, 100), dtype=np.uint8)
    yield np.zeros((12, 100), np.uint8), tail
    yield np.zeros((12, 112), np.uint8)[:, :100], tail  # streamed rows (16-byte strides) with a tail
    off = np.zeros(17 * 1040 + 8, np.uint8)[8:].reshape(17, 1040)
    yield off, rng.integers(0, 256, (17, 1040), dtype=np.uint8)
    yield np.zeros((3, 0, 64), np.uint8), np.zeros((3, 0, 64), np.uint8)


@native
def test_copies_exactly_what_numpy_assignment_copies():
    rng = np.random.default_rng(7)
    for dst, src in cases(rng):
        want = dst.copy()
        want[...] = src
        assert stream_copy.copy_rows(rows_view(dst), rows_view(src), min_bytes=0)
        assert np.array_equal(dst, want)


@native
def test_refuses_what_it_must_not_copy():
    a = np.zeros((64, 1024), np.uint8)
    assert not stream_copy.copy_rows(rows_view(a[1:]), rows_view(a[:-1]), min_bytes=0)  # overlap
    small = np.zeros((4, 64), np.uint8)
    assert not stream_copy.copy_rows(rows_view(small), rows_view(small.copy()))  # below STREAM_BYTES
    assert not stream_copy.copy_rows(rows_view(small), rows_view(np.zeros((4, 32), np.uint8)), min_bytes=0)
    assert not a.any() and not small.any()


def test_use_native_off_is_honoured():
    before = stream_copy.use_native(False)
    try:
        a = np.zeros((4, 1024), np.uint8)
        assert not stream_copy.copy_rows(rows_view(a), rows_view(np.ones_like(a)), min_bytes=0)
        assert not a.any()
    finally:
        stream_copy.use_native(before)


def round_trip(layout: MemoryConfig, rows: int, cols: int):
    """A host tensor over a galaxy's 8x4 mesh through a ShardedBufferConfig and back: the
    device bytes (every unit of the memory kind) and the gathered tensor."""
    mesh = (8, 4)
    m = Machine("galaxy", mesh)
    local = (rows // mesh[0], cols // mesh[1])
    buf = m.allocate(local, "f32", layout, name="t")
    config = lower_mesh_mapper((rows, cols), mesh, ShardTensor2dMesh((0, 1)), 4)
    src = np.random.default_rng(3).standard_normal((rows, cols)).astype(np.float32)
    m.write_host(buf, src, config)
    out = m.read_host(buf, config, src.shape)
    assert np.array_equal(out, src)
    return buf.store.array(0).copy(), out


@native
@pytest.mark.parametrize("layout", [MemoryConfig("l1", "block_sharded", (8, 8)), MemoryConfig("dram", "interleaved")],
                         ids=["l1-block", "dram-interleaved"])
def test_large_transfers_leave_the_same_device_bytes_with_and_without_it(layout):
    rows, cols = 2048, 2048  # 16 MiB: above STREAM_BYTES
    assert rows * cols * 4 >= 2 * stream_copy.STREAM_BYTES
    with_native = round_trip(layout, rows, cols)
    before = stream_copy.use_native(False)
    try:
        without = round_trip(layout, rows, cols)
    finally:
        stream_copy.use_native(before)
    assert np.array_equal(with_native[0], without[0])
    assert np.array_equal(with_native[1], without[1])
