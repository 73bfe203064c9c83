"""The per-bank DRAM budget of a program: what fits nowhere.

The L1 budget (`l1_budget.py`) says when a core's L1 overflows; tensors then go to DRAM. This
module says when DRAM itself overflows: every DRAM tensor of a program (`LiveTensor` with a
`dram` memory config) takes, in every bank of a chip, the bytes of its fullest bank (an
interleaved tensor spreads its pages round-robin over the banks, so ceil(pages / banks) aligned
pages; a DRAM-sharded one its largest shard, from the placement model). `dram_budget(...)` adds
them up step by step over the tensors' live ranges, as the simulator's lockstep allocator
reserves them (the same address in every bank a tensor spans, on every chip of the mesh), and
reports the first step at which a bank holds more than its size, with the tensors live there.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from meshc.layout.dtypes import get_dtype
from meshc.layout.l1_budget import LiveTensor
from meshc.layout.memory_config import MemoryConfig
from meshc.layout.placement import place
from meshc.layout.shapes import ceil_div, round_up
from meshc.layout.system import get_arch
from meshc.layout.tensor_layout import TensorLayout


@lru_cache(maxsize=4096)
def _bank_bytes(shape: tuple[int, ...], dtype: str, config: MemoryConfig, tile, arch: str, banks: int) -> int:
    a = get_arch(arch)
    if config.layout == "interleaved":
        layout = TensorLayout(shape, get_dtype(dtype), tile)
        return ceil_div(layout.num_pages, banks) * round_up(layout.page_bytes, a.dram_alignment)
    p = place(shape, get_dtype(dtype), config, tile=tile, arch=arch)
    return max(p.owner_bytes().values(), default=0)


def dram_bank_bytes(t: LiveTensor, arch: str, banks: int) -> int:
    """Bytes `t` takes in each DRAM bank it spans (0 for a tensor in L1)."""
    if t.config.buffer != "dram":
        return 0
    return _bank_bytes(tuple(t.shape), get_dtype(t.dtype).name, t.config, t.tile, arch, banks)


@dataclass
class DramOverflow:
    """The first step at which a DRAM bank holds more than its size."""

    step: int
    bytes: int
    """Bytes a bank holds at `step`."""
    live: list[int]
    """Indices (into the tensors given) of the DRAM tensors live at `step`."""
    bytes_of: dict[int, int]
    """Per live tensor, its bytes in a bank."""


def dram_budget(tensors: list[LiveTensor], arch: str, banks: int, bank_size: int) -> DramOverflow | None:
    """The first step at which the DRAM tensors live there need more than `bank_size` bytes in a
    bank, or None when the program fits."""
    if not tensors:
        return None
    per = np.array([dram_bank_bytes(t, arch, banks) for t in tensors], dtype=np.int64)
    steps = max(t.end for t in tensors) + 2
    delta = np.zeros(steps, dtype=np.int64)
    start = np.array([t.start for t in tensors], dtype=np.int64)
    end = np.array([t.end for t in tensors], dtype=np.int64)
    np.add.at(delta, start, per)
    np.add.at(delta, end + 1, -per)
    use = np.cumsum(delta)
    over = np.flatnonzero(use > bank_size)
    if not len(over):
        return None
    step = int(over[0])
    live = [i for i in range(len(tensors)) if per[i] and start[i] <= step <= end[i]]
    return DramOverflow(step, int(use[step]), live, {i: int(per[i]) for i in live})
