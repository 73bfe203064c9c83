"""`execute_plan`: run a reshard plan on per-device numpy arrays, checking it as it goes.

The tests and the benchmark use it to check that after a plan every device holds exactly its
target data; the golden interpreter runs `ttir.point_to_point` with it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from meshc.layout.errors import LayoutError
from meshc.layout.reshard.plan import Box, ReshardPlan, within


def _rel(box: Box, origin: Box) -> tuple[slice, ...]:
    return tuple(slice(lo - o, hi - o) for (lo, hi), (o, _) in zip(box, origin))


def _inside(box: Box, shape: tuple[int, ...]) -> np.ndarray:
    """1 where a position of `box` lies inside a tensor of `shape`, else 0 (a window's zeros)."""
    masks = [((np.arange(lo, hi) >= 0) & (np.arange(lo, hi) < n)).astype(np.int64) for (lo, hi), n in zip(box, shape)]
    out = np.ones((), dtype=np.int64)
    for m in masks:
        out = np.multiply.outer(out, m)
    return out


def execute_plan(plan: ReshardPlan, shards, padded: bool = False) -> list[np.ndarray]:
    """Run `plan` on per-device numpy arrays (source layout, device-id order); return the target shards.

    Checks the plan as it goes: every transfer reads data its sender holds at that point, and every
    element of every target shard is written exactly once (by the device's own copy or by one
    transfer). A violation raises LayoutError naming the device.

    A shard may be the device's piece or its buffer (`ShardingSpec.buffer_shape`: an uneven
    piece padded at its end); the padding is never read. `padded=True` returns the target
    buffers, each piece zero-padded at its end (what a device holds of an uneven split).
    A windowed plan (`plan.window`) gives each device its target piece of the tensor's window,
    zeros where the window reaches past the tensor.
    """
    src, tgt, shape = plan.source, plan.target, plan.shape
    n = src.mesh.size
    if isinstance(shards, Mapping):
        shards = [shards[k] for k in sorted(shards, key=lambda k: src.mesh.device_id(k) if isinstance(k, tuple) else k)]
    shards = list(shards)
    if len(shards) != n:
        raise LayoutError(f"plan is for {n} devices but {len(shards)} shards were given")
    sbox = [src.local_bounds(shape, src.mesh.coord_of(d)) for d in range(n)]
    buffer = src.buffer_shape(shape)
    for d, a in enumerate(shards):
        want = tuple(hi - lo for lo, hi in sbox[d])
        if tuple(np.shape(a)) == buffer != want:  # the piece and its padding: keep the piece
            shards[d] = np.asarray(a)[tuple(slice(0, k) for k in want)]
        elif tuple(np.shape(a)) != want:
            raise LayoutError(f"device {d} shard has shape {tuple(np.shape(a))}, but {src} puts a {want} piece there")

    cur, cbox = [np.asarray(a) for a in shards], sbox
    reduce_steps = [s for s in plan.steps if any(t.reduce for t in s.transfers)]
    if plan.intermediate is not None:
        mid = plan.intermediate
        mbox = [mid.local_bounds(shape, mid.mesh.coord_of(d)) for d in range(n)]
        acc = [cur[d][_rel(mbox[d], sbox[d])].copy() for d in range(n)]
        cnt = [np.zeros(a.shape, dtype=np.int64) for a in acc]
        for s in reduce_steps:
            for t in s.transfers:
                if t.reduce:
                    if not within(t.box, mbox[t.dst]) or not within(t.box, sbox[t.src]):
                        raise LayoutError(f"reduce transfer {t} reads or writes outside the devices' pieces")
                    acc[t.dst][_rel(t.box, mbox[t.dst])] += cur[t.src][_rel(t.box, sbox[t.src])]
                    cnt[t.dst][_rel(t.box, mbox[t.dst])] += 1
        group = math.prod(src.mesh.shape[a] for a in plan.steps[0].axes) if reduce_steps else 1
        for d in range(n):
            if (cnt[d] != group - 1).any():
                raise LayoutError(f"device {d} did not receive exactly {group - 1} partial sums of every element")
        cur, cbox = acc, mbox

    window = plan.window
    tshape = shape if window is None else tuple(hi - lo for lo, hi in window)
    shift = (0,) * len(shape) if window is None else tuple(lo for lo, _ in window)
    tbox = [tuple((lo + s, hi + s) for (lo, hi), s in zip(tgt.local_bounds(tshape, tgt.mesh.coord_of(d)), shift))
            for d in range(n)]
    if plan.strategy == "gather_then_slice":  # every device builds the whole tensor, then slices
        whole = tuple((0, k) for k in shape)
        tbox_move = [whole] * n
    else:
        tbox_move = tbox
    dtype = np.result_type(*[a.dtype for a in cur]) if cur else np.float64
    out = [np.zeros(tuple(hi - lo for lo, hi in tbox_move[d]), dtype=dtype) for d in range(n)]
    written = [np.zeros(o.shape, dtype=np.int64) for o in out]
    for d in range(n):  # each device keeps what it holds of its (target) piece
        inter = tuple((max(a0, b0), min(a1, b1)) for (a0, a1), (b0, b1) in zip(tbox_move[d], cbox[d]))
        if all(lo < hi for lo, hi in inter):
            out[d][_rel(inter, tbox_move[d])] = cur[d][_rel(inter, cbox[d])]
            written[d][_rel(inter, tbox_move[d])] += 1
    for s in plan.steps:
        pending = []
        for t in s.transfers:
            if t.reduce:
                continue
            if within(t.box, cbox[t.src]):
                data = cur[t.src][_rel(t.box, cbox[t.src])]
            elif within(t.box, tbox_move[t.src]) and written[t.src][_rel(t.box, tbox_move[t.src])].all():
                data = out[t.src][_rel(t.box, tbox_move[t.src])]
            else:
                raise LayoutError(f"step {s.kind}: device {t.src} sends {t.box}, which it does not hold yet")
            if not within(t.box, tbox_move[t.dst]):
                raise LayoutError(f"step {s.kind}: device {t.dst} receives {t.box}, outside its target piece")
            pending.append((t, data.copy()))
        for t, data in pending:
            out[t.dst][_rel(t.box, tbox_move[t.dst])] = data
            written[t.dst][_rel(t.box, tbox_move[t.dst])] += 1
    for d in range(n):
        expected = _inside(tbox_move[d], shape) if window is not None else 1
        if (written[d] != expected).any():
            bad = np.argwhere(written[d] != expected)[0]
            raise LayoutError(f"device {d}: target element at local index {tuple(int(i) for i in bad)} was written "
                              f"{int(written[d][tuple(bad)])} times, expected exactly once"
                              f"{' (never, past the tensor, in a window)' if window is not None else ''}")
    if plan.strategy == "gather_then_slice":
        out = [out[d][_rel(tbox[d], tbox_move[d])].copy() for d in range(n)]
    if padded:
        buffer = tgt.buffer_shape(tshape)
        out = [o if o.shape == buffer else np.pad(o, [(0, b - k) for k, b in zip(o.shape, buffer)]) for o in out]
    return out
