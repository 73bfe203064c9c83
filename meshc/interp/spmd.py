"""What the reshard, point-to-point, MoE and sharding-constraint ops compute, on per-device
values: their run-time meaning, kept out of the dialects (which hold syntax, types and
verifiers) and shared by the golden interpreter and the simulator.

- `reshard_plan(op)`: the fewest-bytes plan of a `ttir.reshard` (meshc.layout.reshard);
  `point_to_point_plan(op)`: the explicit moves of a `ttir` / `ttnn.point_to_point` as a plan;
  `run_reshard(op, x, mesh_shape)`: a plan executed on the devices' arrays;
- `moe_route_values`, `moe_dispatch_values`, `moe_combine_values`: meshc/layout/moe.py on each
  device's own arrays (one definition of the semantics);
- `on_devices(args, fn)`: a host function applied device by device.
A per-device value here is a list of arrays in device order (a `Distributed` is one); a host
array stands for the same array on every device.
"""

from __future__ import annotations

import numpy as np

from meshc.dialects import shape_rules as rules
from meshc.dialects.element_types import data_type_of
from meshc.dialects.ttir import int_value, tensor_shape
from meshc.layout.dtypes import get_dtype
from meshc.layout.moe import moe_combine, moe_dispatch, moe_route
from meshc.layout.reshard import ReshardPlan, Step, Transfer, execute_plan, lower_bound_bytes, plan_reshard
from meshc.layout.reshard.window import window_needed_bytes

# ----------------------------------------------------------------------------- per-device values


def on_devices(args, fn) -> tuple:
    """Apply `fn` (host arrays -> tuple of arrays) on every device when an argument is per-device
    (a list of arrays in device order); results are then per-device lists too."""
    n = max((len(a) for a in args if isinstance(a, list)), default=0)
    if n == 0:
        return tuple(fn(list(args)))
    outs = [tuple(fn([a[i] if isinstance(a, list) else a for a in args])) for i in range(n)]
    return tuple(list(r) for r in zip(*outs))


def device_values(x, mesh_shape) -> list:
    """A value as one array per device (device order): a host array is on every device."""
    return x if isinstance(x, list) else [x] * rules.prod(mesh_shape)


# ----------------------------------------------------------------------------- reshard plans


def reshard_plan(op, system=None) -> ReshardPlan:
    """The fewest-bytes plan of a `ttir.reshard` (meshc.layout.reshard.plan_reshard)."""
    src, tgt = op.specs()
    return plan_reshard(op.global_shape(), data_type_of(op.input.type.element_type).name, src, tgt, system=system)


def point_to_point_plan(op) -> ReshardPlan:
    """The moves of a `point_to_point` op (its `transfers` rows) as a `ReshardPlan`, one step a
    step number, to run with `execute_plan`."""
    src, tgt = op.specs()
    return moves_plan(src, tgt, op.global_shape(), data_type_of(op.input.type.element_type).name, op.rows(),
                      op.window_box())


def moves_plan(src, tgt, full: tuple[int, ...], dtype_name: str, rows, window=None) -> ReshardPlan:
    """Explicit moves (rows `step, src, dst, lo_0, hi_0, ...` over the tensor `full`) as a plan;
    `window`: the box of `full` the target splits (a windowed move, meshc.layout.reshard.window)."""
    dtype = get_dtype(dtype_name)
    n = src.mesh.size
    steps: dict[int, list] = {}
    for r in np.asarray(rows, dtype=np.int64).reshape(-1, 3 + 2 * len(full)).tolist():
        box = tuple(zip(r[3::2], r[4::2]))
        nbytes = rules.prod(tuple(hi - lo for lo, hi in box)) * dtype.itemsize
        steps.setdefault(r[0], []).append(Transfer(r[1], r[2], box, nbytes))
    plan_steps = tuple(Step("point_to_point", (), (tuple(range(n)),), tuple(steps[k])) for k in sorted(steps))
    bound = (lower_bound_bytes(full, dtype, src, tgt) if window is None
             else window_needed_bytes(full, src, tgt, window, dtype.itemsize))
    return ReshardPlan(full, dtype, src, tgt, None, plan_steps, bound, np.zeros((n, n), dtype=np.int64),
                       stage_mesh=src.mesh, window=window)


def run_plan(plan: ReshardPlan, x, mesh_shape) -> list:
    """Every device's target buffer: `plan` executed on the devices' arrays of `x` (uneven pieces padded)."""
    return execute_plan(plan, device_values(x, mesh_shape), padded=True)


# ----------------------------------------------------------------------------- mixture of experts


def moe_route_values(op, args) -> tuple:
    """`moe_route` on each device's logits: expert ids (int32) and weights (the logits' type)."""
    k = int_value(op.k)

    def one(xs):
        e, w = moe_route(xs[0], k)
        return e.astype("int32"), w.astype(xs[0].dtype)

    return on_devices(args, one)


def moe_dispatch_values(op, args) -> tuple:
    """`moe_dispatch` on each device's tokens and expert ids: dispatched tokens and slots (int32);
    E, G and C are read off the result type."""
    e, g, c, _ = tensor_shape(op.dispatched)

    def one(xs):
        d = moe_dispatch(xs[0], xs[1], e, c, g)
        return d.dispatched, d.slot.astype("int32")

    return on_devices(args, one)


def moe_combine_values(op, args) -> tuple:
    """`moe_combine` on each device's expert outputs, ids, weights and slots."""
    groups = tensor_shape(op.expert_out)[1]
    return on_devices(args, lambda xs: (moe_combine(*xs, groups).astype(xs[0].dtype),))
