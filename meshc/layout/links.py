"""Ethernet routing between chips: dimension-ordered routes over the system's chip mesh.

A message from chip a to chip b first travels along mesh axis 0 until its axis-0 coordinate
matches, then along axis 1, and so on (dimension-ordered routing, deadlock free on a mesh).
Along an axis it steps to the neighbouring chip in the direction of the target, or through the
wrap-around link when the system has one and that way is shorter. Every hop must be a link of
the system; a route that needs a missing link is an error naming it.

The simulator's machine sends over these routes (meshc/sim/machine.py); the TTMetal memory plan
prices a collective_permute's or point_to_point's sends over the same routes (`send_loads`).
Pure Python: no IR.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from meshc.layout.errors import LayoutError
from meshc.layout.system import SystemDesc


class Router:
    def __init__(self, system: SystemDesc):
        self.system = system
        self.links = set(system.links)
        self.coords = [c.coord for c in system.chips]
        self.index = {c: i for i, c in enumerate(self.coords)}
        self._cache: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}

    def linked(self, a: int, b: int) -> bool:
        return (min(a, b), max(a, b)) in self.links

    def route(self, src: int, dst: int) -> tuple[tuple[int, int], ...]:
        """The hops (from chip, to chip) of the route from src to dst; () when src == dst."""
        key = (src, dst)
        if key not in self._cache:
            self._cache[key] = self._route(src, dst)
        return self._cache[key]

    def segments(self, src: int, dst: int) -> list[tuple[int, tuple[int, ...], int, int, int]]:
        """The route from src to dst as straight runs, one an axis it moves along: (axis, the
        coordinates it starts from, its first position on the axis, step +1 or -1, hops). Along an
        axis a message steps towards the target, or the other way round through the wrap-around
        link when this line of chips has one and that way is shorter."""
        shape = self.system.mesh_shape
        cur = list(self.coords[src])
        goal = self.coords[dst]
        runs = []
        for axis, n in enumerate(shape):
            if cur[axis] == goal[axis]:
                continue
            step, hops = (1 if goal[axis] > cur[axis] else -1), abs(goal[axis] - cur[axis])
            if n > 2:
                ends = list(cur)
                ends[axis] = 0
                first = self.index[tuple(ends)]
                ends[axis] = n - 1
                last = self.index[tuple(ends)]
                if self.linked(first, last) and n - hops < hops:
                    step, hops = -step, n - hops
            runs.append((axis, tuple(cur), cur[axis], step, hops))
            cur[axis] = goal[axis]
        return runs

    def _route(self, src: int, dst: int) -> tuple[tuple[int, int], ...]:
        shape = self.system.mesh_shape
        hops: list[tuple[int, int]] = []
        for axis, at, pos, step, count in self.segments(src, dst):
            cur = list(at)
            for _ in range(count):
                here = self.index[tuple(cur)]
                nxt = list(cur)
                nxt[axis] = (cur[axis] + step) % shape[axis]
                there = self.index[tuple(nxt)]
                if not self.linked(here, there):
                    raise LayoutError(
                        f"no ethernet link between chip {here} at {tuple(cur)} and chip {there} at {tuple(nxt)}: "
                        f"cannot route from chip {src} to chip {dst}"
                    )
                hops.append((here, there))
                cur = nxt
        return tuple(hops)


@lru_cache(maxsize=16)
def router_for(system: SystemDesc) -> Router:
    return Router(system)


def send_loads(router: Router, sends) -> tuple[int, dict[int, int]]:
    """(the busiest link direction's bytes, per chip its NoC bytes) of point-to-point sends
    (source chip, target chip, bytes): a send crosses every hop of its route and the NoCs of both
    its end chips, as the simulator counts one (meshc/sim/machine.py `send`, and the NoC counts
    beside it). The bytes a link carries are summed run by run (`Router.segments`: a run of k hops
    along a line of chips adds its bytes to k consecutive link directions, as a difference array),
    not hop by hop, so a long line of chips costs one array a line, not one step a hop; a run over
    a missing link is `Router.route`'s error."""
    shape = router.system.mesh_shape
    lines: dict[tuple, list[tuple[int, int, int]]] = {}
    noc: dict = {}
    for a, b, n in sends:
        noc[a] = noc.get(a, 0) + n
        noc[b] = noc.get(b, 0) + n
        for axis, at, pos, step, hops in router.segments(a, b):
            key = (axis, at[:axis] + (-1,) + at[axis + 1:], step)
            lo = pos if step == 1 else pos - hops + 1  # the runs' first hop positions, as an interval
            lines.setdefault(key, []).append((lo % shape[axis], hops, n))
    busiest = 0
    for (axis, line, step), runs in lines.items():
        size = shape[axis]
        diff = np.zeros(2 * size + 1, dtype=np.int64)  # an interval past the end wraps: fold it back
        lo = np.array([r[0] for r in runs])
        np.add.at(diff, lo, [r[2] for r in runs])
        np.add.at(diff, lo + np.array([r[1] for r in runs]), [-r[2] for r in runs])
        load = np.cumsum(diff)[:2 * size]
        load = load[:size] + load[size:]
        for p in np.flatnonzero(load):  # every link direction a run crosses is a link of the system
            here = router.index[line[:axis] + (int(p),) + line[axis + 1:]]
            there = router.index[line[:axis] + ((int(p) + step) % size,) + line[axis + 1:]]
            if not router.linked(here, there):
                for a, b, _ in sends:
                    router.route(a, b)  # raises the error naming the missing link of the first route over it
        busiest = max(busiest, int(load.max(initial=0)))
    return busiest, noc
