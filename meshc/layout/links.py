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

    def _route(self, src: int, dst: int) -> tuple[tuple[int, int], ...]:
        shape = self.system.mesh_shape
        cur = list(self.coords[src])
        goal = self.coords[dst]
        hops: list[tuple[int, int]] = []
        for axis, n in enumerate(shape):
            if cur[axis] == goal[axis]:
                continue
            # direction along this axis: towards the goal, or the other way round through the
            # wrap-around link when this line of chips has one and that way is shorter
            direct = 1 if goal[axis] > cur[axis] else -1
            step = direct
            if n > 2:
                ends = list(cur)
                ends[axis] = 0
                first = self.index[tuple(ends)]
                ends[axis] = n - 1
                last = self.index[tuple(ends)]
                around = n - abs(goal[axis] - cur[axis])
                if self.linked(first, last) and around < abs(goal[axis] - cur[axis]):
                    step = -direct
            while cur[axis] != goal[axis]:
                here = self.index[tuple(cur)]
                nxt = list(cur)
                nxt[axis] = (cur[axis] + step) % n
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
    beside it)."""
    link: dict = {}
    noc: dict = {}
    for a, b, n in sends:
        for hop in router.route(a, b):
            link[hop] = link.get(hop, 0) + n
        noc[a] = noc.get(a, 0) + n
        noc[b] = noc.get(b, 0) + n
    return max(link.values(), default=0), noc
