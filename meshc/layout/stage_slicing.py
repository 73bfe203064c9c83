"""Automatic stage slicing: cut a chain of layers into S pipeline stages, one a submesh.

`slice_chain(costs, stages)` splits the layers (their seconds, in chain order) into `stages`
contiguous non-empty runs minimising the slowest run: the makespan of a pipeline is bound by its
slowest stage, so this is the stage cut of Alpa's inter-operator pass for a chain (a dynamic
program over (layers placed, stages used), O(S L^2)); ties go to the cut whose stages end earliest.
`submesh_chips(system, stage_mesh, stages)` gives each stage its chips: the system's chip mesh
tiled by `stage_mesh` blocks, taken in row-major order (a galaxy's 8x4 as four 2x4 blocks, a t3k's
2x4 as two 2x2 blocks), each block's chips row-major.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from meshc.layout.errors import LayoutError
from meshc.layout.shapes import fmt_shape
from meshc.layout.system import SystemDesc


def slice_chain(costs: Sequence[float], stages: int) -> list[tuple[int, int]]:
    """[start, stop) of each stage's layers, minimising the largest sum of a stage's costs."""
    n = len(costs)
    if stages < 1 or stages > n:
        raise LayoutError(f"cannot cut {n} layers into {stages} non-empty stages")
    prefix = np.concatenate([[0.0], np.cumsum(np.asarray(costs, dtype=np.float64))])
    inf = float("inf")
    best = np.full((stages + 1, n + 1), inf)  # best[s, i]: the first i layers in s stages
    cut = np.zeros((stages + 1, n + 1), dtype=np.int64)
    best[0, 0] = 0.0
    for s in range(1, stages + 1):
        for i in range(s, n + 1):
            j = np.arange(s - 1, i)  # the last stage holds layers j .. i-1
            cand = np.maximum(best[s - 1, j], prefix[i] - prefix[j])
            k = int(np.argmin(cand))
            best[s, i], cut[s, i] = cand[k], j[k]
    out = []
    i = n
    for s in range(stages, 0, -1):
        j = int(cut[s, i])
        out.append((j, i))
        i = j
    return out[::-1]


def submesh_chips(system: SystemDesc, stage_mesh: Sequence[int], stages: int) -> list[tuple[int, ...]]:
    """The chips of each of `stages` disjoint `stage_mesh` blocks of the system's chip mesh."""
    smesh = tuple(system.mesh_shape)
    block = tuple(int(n) for n in stage_mesh)
    if len(block) != len(smesh) or any(s % b for s, b in zip(smesh, block)):
        raise LayoutError(f"the chip mesh {fmt_shape(smesh)} does not tile into {fmt_shape(block)} blocks")
    counts = [s // b for s, b in zip(smesh, block)]
    if stages > int(np.prod(counts)):
        raise LayoutError(f"the chip mesh {fmt_shape(smesh)} holds {int(np.prod(counts))} blocks of "
                          f"{fmt_shape(block)}, not {stages}")
    out = []
    for corner in itertools.islice(itertools.product(*[range(c) for c in counts]), stages):
        base = [c * b for c, b in zip(corner, block)]
        out.append(tuple(system.chip_at(tuple(o + d for o, d in zip(base, off)))
                         for off in itertools.product(*[range(b) for b in block])))
    return out
