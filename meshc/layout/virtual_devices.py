"""Several virtual devices over one system, as tt-mlir's Device spec forms them for pipeline
parallelism ("Pipeline Parallel": non-overlapping views of the system descriptor, each with its own
mesh shape, grid and map), and the ethernet distances between their chips.

`check_virtual_devices(devices, system)` says whether a list of devices is legal together: each
device legal on the system (its chips exist, its map injective and inside the chips' grids,
`Device.verify`), and no chip in two devices. `hops_between(system, a, b)` is the link distance
from every chip of `a` to every chip of `b` (breadth-first over the system's links), the fewest
links a byte from one device to the other crosses; `check_linked` refuses two devices no chain of
links joins.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

import numpy as np

from meshc.layout.device import Device
from meshc.layout.errors import LayoutError
from meshc.layout.system import SystemDesc


def _chips(chips: Sequence[int]) -> str:
    return ", ".join(str(int(c)) for c in chips)


def check_virtual_devices(devices: Sequence[Device], system: SystemDesc, name: str = "devices") -> None:
    """LayoutError naming `name[i]` when device i is not legal on `system` or shares a chip with
    an earlier device."""
    owner: dict[int, int] = {}
    for i, dev in enumerate(devices):
        try:
            dev.verify(system=system)
        except LayoutError as e:
            raise LayoutError(f"{name}[{i}] is not a legal device on the system: {e}") from None
        for c in dev.chip_ids:
            if c in owner:
                raise LayoutError(f"{name}[{i}] takes chip {c}, which {name}[{owner[c]}] takes too; virtual "
                                  "devices are disjoint views of the system (tt-mlir's Device spec)")
            owner[c] = i


def hops_from(system: SystemDesc, sources: Sequence[int]) -> np.ndarray:
    """Links from each chip of `sources` to every chip of the system: (len(sources), num_chips),
    -1 where no chain of links leads."""
    n = system.num_chips
    adj: list[list[int]] = [[] for _ in range(n)]
    for a, b in system.links:
        adj[a].append(b)
        adj[b].append(a)
    out = np.full((len(sources), n), -1, dtype=np.int64)
    for i, s in enumerate(sources):
        row = out[i]
        row[int(s)] = 0
        queue = deque([int(s)])
        while queue:
            x = queue.popleft()
            for y in adj[x]:
                if row[y] < 0:
                    row[y] = row[x] + 1
                    queue.append(y)
    return out


def hops_between(system: SystemDesc, a: Sequence[int], b: Sequence[int]) -> np.ndarray:
    """(len(a), len(b)) link distances from the chips `a` to the chips `b` (-1: not joined);
    LayoutError for a chip the system does not have (it would index past the distance table)."""
    outside = [int(c) for c in (*a, *b) if not 0 <= int(c) < system.num_chips]
    if outside:
        raise LayoutError(f"chip {outside[0]} is not in the system, which has chips 0..{system.num_chips - 1}")
    return hops_from(system, a)[:, np.asarray(b, dtype=np.int64)]


def check_linked(system: SystemDesc, a: Sequence[int], b: Sequence[int]) -> int:
    """The fewest links from a chip of `a` to a chip of `b`; LayoutError when no chain of the
    system's ethernet links joins the two sets."""
    hops = hops_between(system, a, b)
    reach = hops[hops >= 0]
    if reach.size == 0:
        raise LayoutError(f"no ethernet link joins chips {_chips(a)} to chips {_chips(b)}: no chain of the "
                          "system's links leads from one set to the other")
    return int(reach.min())
