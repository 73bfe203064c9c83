"""The simulator's checked allocators: first fit, alignment, freeing, lockstep, shortfalls."""

import pytest

from meshc.layout.errors import CapacityError
from meshc.sim.allocator import Allocator, OutOfMemory, allocate_lockstep


def test_first_fit_aligns_and_reuses_freed_space():
    a = Allocator("L1", 1024, 32)
    assert a.allocate(10) == 0  # 10 B round up to one 32 B unit
    assert a.allocate(33) == 32  # 33 B take 64
    assert a.allocate(1) == 96
    a.free(32)
    assert a.allocate(64) == 32  # the freed 64 B hole is the first fit
    assert a.in_use == 32 + 64 + 32
    assert a.peak == 128


def test_free_merges_neighbours():
    a = Allocator("bank", 256, 16)
    xs = [a.allocate(64) for _ in range(4)]
    assert xs == [0, 64, 128, 192]
    for x in (64, 0, 128):
        a.free(x)
    assert a.largest_free() == 192  # three neighbours merged into one block
    assert a.allocate(192) == 0


def test_out_of_memory_names_memory_and_missing_bytes():
    a = Allocator("the L1 of core (1, 2) of chip 3", 1000, 10)
    a.allocate(600)
    with pytest.raises(OutOfMemory) as e:
        a.allocate(500)
    msg = str(e.value)
    assert "core (1, 2) of chip 3" in msg
    assert "100 B missing" in msg  # 500 needed, 400 free
    assert isinstance(e.value, CapacityError)


def test_double_free_is_an_error():
    a = Allocator("m", 64, 16)
    a.allocate(16)
    a.free(0)
    with pytest.raises(ValueError, match="no allocation at address 0"):
        a.free(0)


def test_lockstep_finds_the_lowest_address_free_everywhere():
    a, b = Allocator("A", 1024, 32), Allocator("B", 1024, 32)
    a.allocate(100)  # A: [0, 128) used
    b.allocate(300)  # B: [0, 320) used
    addr = allocate_lockstep([a, b], 64)
    assert addr == 320
    assert a.allocations[320] == 64 and b.allocations[320] == 64
    # the hole [128, 320) of A is still free
    assert a.first_fit(64) == 128


def test_lockstep_shortfall_names_the_fullest_memory():
    mems = [Allocator(f"bank {i}", 512, 32) for i in range(3)]
    mems[2].allocate(480)
    with pytest.raises(OutOfMemory, match=r"bank 2.*32 B are free.*32 B missing"):
        allocate_lockstep(mems, 64)
