"""Checked memory allocators: one a core's L1 and one a DRAM bank, and lockstep allocation.

An `Allocator` hands out aligned byte ranges of one memory (first fit over a sorted free
list) and keeps the bytes in use, their peak, the owner of every range (so a stale handle to a
freed and reused range is detected) and the worst external fragmentation seen (1 - largest free
block / free bytes, 0 when the free space is one block). A mesh buffer is allocated in *lockstep*:
the same address in every L1 or bank it spans, on every chip, as TT-Metal's mesh allocator
does; `allocate_lockstep` finds the lowest address free in all of them. Running out raises
`OutOfMemory` naming the memory that is short and the bytes missing.
"""

from __future__ import annotations

import bisect

from meshc.layout.errors import CapacityError
from meshc.layout.shapes import round_up


class OutOfMemory(CapacityError):
    """An allocation that does not fit; the message names the memory and the shortfall."""


def align_up(n: int, alignment: int) -> int:
    return round_up(n, alignment)


class Allocator:
    """First-fit allocator over [0, size) of one memory, addresses aligned to `alignment`."""

    def __init__(self, name: str, size: int, alignment: int):
        self.name = name
        self.size = int(size)
        self.alignment = int(alignment)
        self._starts: list[int] = [0]
        self._ends: list[int] = [self.size]
        self.allocations: dict[int, int] = {}
        self.owners: dict[int, object] = {}
        """The tag of whoever holds each allocation (a buffer id)."""
        self.in_use = 0
        self.peak = 0
        self.peak_fragmentation = 0.0

    def fragmentation(self) -> float:
        """1 - largest free block / free bytes (0 when all free bytes are one block)."""
        free = self.size - self.in_use
        return 0.0 if free <= 0 else 1.0 - self.largest_free() / free

    def largest_free(self) -> int:
        return max((e - s for s, e in zip(self._starts, self._ends)), default=0)

    def first_fit(self, nbytes: int, start: int = 0) -> int | None:
        """Lowest aligned address >= start where nbytes fit, or None."""
        i = max(bisect.bisect_right(self._starts, start) - 1, 0)
        for s, e in zip(self._starts[i:], self._ends[i:]):
            a = align_up(max(s, start), self.alignment)
            if a + nbytes <= e:
                return a
        return None

    def reserve(self, addr: int, nbytes: int, owner: object = None) -> None:
        """Mark [addr, addr + nbytes) used; it must lie inside one free block."""
        i = bisect.bisect_right(self._starts, addr) - 1
        if i < 0 or addr + nbytes > self._ends[i]:
            raise OutOfMemory(f"{self.name}: bytes [{addr}, {addr + nbytes}) are not free")
        s, e = self._starts[i], self._ends[i]
        del self._starts[i], self._ends[i]
        if addr + nbytes < e:
            self._starts.insert(i, addr + nbytes)
            self._ends.insert(i, e)
        if s < addr:
            self._starts.insert(i, s)
            self._ends.insert(i, addr)
        self.allocations[addr] = nbytes
        self.owners[addr] = owner
        self.in_use += nbytes
        self.peak = max(self.peak, self.in_use)
        self.peak_fragmentation = max(self.peak_fragmentation, self.fragmentation())

    def allocate(self, nbytes: int) -> int:
        nbytes = align_up(max(int(nbytes), 1), self.alignment)
        addr = self.first_fit(nbytes)
        if addr is None:
            raise self.shortfall(nbytes)
        self.reserve(addr, nbytes)
        return addr

    def shortfall(self, nbytes: int) -> OutOfMemory:
        free = self.size - self.in_use
        largest = self.largest_free()
        missing = nbytes - largest
        return OutOfMemory(
            f"out of memory in {self.name}: a buffer needs {nbytes:,} B there, but only {largest:,} B are free "
            f"in one block ({free:,} B free of {self.size:,} B): {missing:,} B missing"
        )

    def free(self, addr: int) -> None:
        if addr not in self.allocations:
            raise ValueError(f"{self.name}: no allocation at address {addr} to free")
        nbytes = self.allocations.pop(addr)
        self.owners.pop(addr, None)
        self.in_use -= nbytes
        i = bisect.bisect_right(self._starts, addr)
        self._starts.insert(i, addr)
        self._ends.insert(i, addr + nbytes)
        # merge with the neighbours
        if i + 1 < len(self._starts) and self._ends[i] == self._starts[i + 1]:
            self._ends[i] = self._ends[i + 1]
            del self._starts[i + 1], self._ends[i + 1]
        if i > 0 and self._ends[i - 1] == self._starts[i]:
            self._ends[i - 1] = self._ends[i]
            del self._starts[i], self._ends[i]
        self.peak_fragmentation = max(self.peak_fragmentation, self.fragmentation())


def allocate_lockstep(allocators: list[Allocator], nbytes: int, owner: object = None) -> int:
    """Allocate the same address in every allocator (a mesh buffer); all share one alignment.

    Allocators with identical free lists (the usual case) are checked once.
    """
    if not allocators:
        raise ValueError("a lockstep allocation needs at least one memory")
    alignment = max(a.alignment for a in allocators)
    nbytes = align_up(max(int(nbytes), 1), alignment)
    groups: dict[tuple, Allocator] = {}
    for a in allocators:
        groups.setdefault((tuple(a._starts), tuple(a._ends)), a)
    distinct = list(groups.values())
    addr = 0
    while True:
        moved = False
        for a in distinct:
            fit = a.first_fit(nbytes, addr)
            if fit is None:
                worst = min(allocators, key=lambda x: (x.largest_free(), x.name))
                raise worst.shortfall(nbytes)
            fit = align_up(fit, alignment)
            if fit != addr:
                addr, moved = fit, True
        if not moved:
            break
    for a in allocators:
        a.reserve(addr, nbytes, owner)
    return addr
