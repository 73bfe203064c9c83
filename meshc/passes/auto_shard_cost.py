"""The time `ttir-auto-shard` predicts for a global-view program under chosen shardings: the
simulator's time model (meshc.layout.timemodel) applied to the ops the TTNN pipeline lowers the
program to, op by op, as the simulator times them (meshc/sim/machine.py, `Machine.op_time`).

- every argument: one `ttnn.distribute_tensor`: its local bytes (in the format it is stored in,
  `tt.storage`) to every device over the system's host links, and through each chip's NoC;
- every reshard the partition inserts (an operand whose planned spec differs from what its
  consumer requires, a `sharding_constraint`, a result): the reshard-to-collectives lowering's
  collective walk (`collective_walk`), each collective timed as the CCL alpha-beta on its mesh
  axis (a line: the named systems close no axis), `all_slice` and `collective_permute` as device
  programs (launch, NoC, the permute's link bytes); a reshard no walk reaches within the lower
  bound becomes point-to-point moves, timed by their delivered bytes spread over the devices;
- every compute op: its compute on the local shapes (a matmul's blocks over its result's core
  grid, other ops by cost class), its operands over the NoC (a matmul's A once per grid column,
  B once per grid row), and a program launch;
- every result: one `ttnn.aggregate_tensor` of its local bytes from every device;
- a constant is a host value: the op that first takes it uploads it to every device (into DRAM,
  read back when it is resharded there).

Ops run one after another, as in the simulator. What this leaves out of the simulator's count:
DRAM traffic (the TTNN pipeline keeps these tensors in L1), memory-config changes the TTNN
layout pass may insert, and point-to-point routing (its busiest link).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from xdsl.ir import Operation, SSAValue

from meshc.dialects.tt.storage import value_storage
from meshc.dialects.ttir import tensor_shape
from meshc.dialects.ttir.sharding_constraint import ShardingConstraintOp
from meshc.layout.compute_ops import COMPUTE_OPS, is_matmul, matmul_dims
from meshc.layout.dtypes import get_dtype
from meshc.errors import LocatedError
from meshc.layout.errors import LayoutError
from meshc.layout.hardware import ArchFacts
from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.reshard import collective_walk, lower_bound_bytes, plan_reshard
from meshc.layout.reshard.window import window_needed_bytes
from meshc.layout.system import SystemDesc
from meshc.passes.partition_select import keep_selected_axes, selection_gathers, split_selection
from meshc.passes.partition_window import op_windows, windowed
from meshc.passes.sharding_ir import dtype_name, op_rule, reshard_bytes
from meshc.layout.timemodel import (
    TILE,
    OpTime,
    collective_s,
    compute_s,
    dram_s,
    host_s,
    link_s,
    math_fidelity_of,
    matmul_compute_s,
    noc_s,
)

CCL = ("all_gather", "reduce_scatter", "all_reduce", "all_to_all")


@dataclass(frozen=True)
class Costing:
    """The machine a program is timed on: its architecture, mesh and links."""

    arch: ArchFacts
    mesh: Mesh
    links: int
    hosts: int
    _reshards: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, arch: ArchFacts, mesh: Mesh, system: SystemDesc) -> "Costing":
        n = mesh.size
        return cls(arch, mesh, max(1, system.links_per_pair), min(system.host_links or n, n))

    @property
    def cores(self) -> int:
        return self.arch.grid[0] * self.arch.grid[1]

    # ------------------------------------------------------------------ pieces

    def local_shape(self, value: SSAValue, spec: ShardingSpec) -> tuple[int, ...]:
        return tuple(n // spec.num_pieces(d) for d, n in enumerate(tensor_shape(value)))

    @staticmethod
    def itemsize(dtype: str) -> float:
        d = get_dtype(dtype)
        return d.bytes_for(32, 32) / 1024 if d.is_block_float else d.bits / 8

    def local_bytes(self, value: SSAValue, spec: ShardingSpec, dtype: str) -> float:
        return self.tiled_bytes(self.local_shape(value, spec), dtype)

    def tiled_bytes(self, shape: tuple[int, ...], dtype: str) -> float:
        """Bytes of a tensor in 32x32 tiles (the TTNN pipeline's layout): its last two dims padded."""
        s = list(shape) or [1]
        if len(s) == 1:
            s = [1] + s
        s[-1], s[-2] = -(-s[-1] // TILE) * TILE, -(-s[-2] // TILE) * TILE
        return math.prod(s) * self.itemsize(dtype)

    def host_transfer(self, local_bytes: float) -> float:
        """A distribute or aggregate of `local_bytes` a device."""
        t = OpTime(noc=noc_s(self.arch, local_bytes, self.cores),
                   host=host_s(self.arch, local_bytes * self.mesh.size, self.hosts))
        return t.seconds

    def upload(self, local_bytes: float, resharded: bool) -> float:
        """A constant operand going to the devices: its local bytes to every device into DRAM,
        and, when it is resharded there (an all_slice), read back out of DRAM."""
        dram = local_bytes * (2 if resharded else 1)
        return OpTime(dram=dram_s(self.arch, dram), host=host_s(self.arch, local_bytes * self.mesh.size,
                                                                  self.hosts)).seconds

    def _program(self, noc_bytes: float, eth: tuple[float, float] = (0.0, 0.0), compute: float = 0.0) -> float:
        latency, ethernet = eth
        return OpTime(compute=compute, noc=noc_s(self.arch, noc_bytes, self.cores), ethernet=ethernet,
                      latency=latency + self.arch.op_launch_s).device_s

    def point_to_point(self, delivered: float) -> float:
        """The device time of a `ttir.point_to_point` delivering `delivered` bytes in all."""
        per_device = delivered / self.mesh.size
        return self._program(2 * per_device, link_s(self.arch, per_device, self.links))

    def reshard(self, shape: tuple[int, ...], dtype: str, src: ShardingSpec, tgt: ShardingSpec) -> float:
        """The device time of the lowering of one reshard (module docstring)."""
        if src == tgt:
            return 0.0
        key = (shape, dtype, src, tgt)
        hit = self._reshards.get(key)
        if hit is None:
            hit = self._reshards[key] = self._reshard(shape, dtype, src, tgt)
        return hit

    def _reshard(self, shape: tuple[int, ...], dtype: str, src: ShardingSpec, tgt: ShardingSpec) -> float:
        even = src.is_even(shape) and tgt.is_even(shape)
        if not even and src.partial != tgt.partial:  # ttir-partition reduces on the even source first
            mid = ShardingSpec(src.mesh, src.dims, tgt.partial)
            return self._reshard(shape, dtype, src, mid) + self._reshard(shape, dtype, mid, tgt)
        try:
            bound = lower_bound_bytes(shape, dtype, src, tgt)
            # an uneven split moves point to point (reshard-to-collectives), so no walk
            walk = collective_walk(shape, dtype, src, tgt) if even else None
        except LayoutError:
            return math.inf
        if walk is None or (bound and sum(s.bytes for s in walk) > bound and not src.partial):
            return self.point_to_point(bound)
        total = 0.0
        before = src
        for step in walk:
            in_bytes = self.tiled_bytes(before.local_shape(shape, before.mesh.coords()[0]), dtype)
            out_bytes = self.tiled_bytes(step.after.local_shape(shape, step.after.mesh.coords()[0]), dtype)
            if step.kind in CCL:
                n = self.mesh.size if step.axis is None else self.mesh.shape[step.axis]
                latency, eth = collective_s(self.arch, step.kind, "line", n, in_bytes, self.links)
                total += OpTime(noc=noc_s(self.arch, in_bytes + out_bytes + 2 * step.bytes / self.mesh.size,
                                          self.cores), ethernet=eth, latency=latency).device_s
            elif step.kind == "collective_permute":
                total += self._program(in_bytes + out_bytes + 2 * in_bytes, link_s(self.arch, in_bytes, self.links))
            else:  # all_slice: each device keeps a slice of its own data
                total += self._program(in_bytes + out_bytes)
            before = step.after
        return total

    def compute(self, op: Operation, kind: str, operands: list[tuple[tuple[int, ...], str]],
                result: tuple[tuple[int, ...], str], attrs: dict) -> float:
        """A compute op on local shapes: ((shape, dtype) of each operand, of the result)."""
        shape, dtype = result
        mt = math.ceil((shape[-2] if len(shape) > 1 else 1) / TILE)
        nt = math.ceil((shape[-1] if shape else 1) / TILE)
        gy, gx = self.arch.grid
        grid = (min(max(mt, 1), gy), min(max(nt, 1), gx))
        if is_matmul(kind):
            (a, adt), (b, bdt) = operands[0], operands[1]
            m_dim, k_dim, n_dim = matmul_dims(a, b, attrs)
            seconds = matmul_compute_s(self.arch, m_dim, k_dim, n_dim, grid, attrs.get("math_fidelity"), bdt,
                                       math.prod(shape[:-2]))
            noc = self.tiled_bytes(a, adt) * grid[1] + self.tiled_bytes(b, bdt) * grid[0]
            return self._program(noc, compute=seconds)
        if kind not in COMPUTE_OPS:
            return self._program(0.0)
        seconds = compute_s(self.arch, kind, math.prod(shape), grid[0] * grid[1], dtype)
        noc = sum(self.tiled_bytes(s, d) for s, d in operands if tuple(s) != tuple(shape))
        return self._program(noc, compute=seconds)


# ---------------------------------------------------------------------- per op of a global-view program


def kernel_flags(op: Operation) -> dict:
    """The matmul transposes and math fidelity an op carries (as the simulator reads them)."""
    flags: dict = {k: bool(op.attributes[k].value.data) for k in ("transpose_a", "transpose_b")
                   if k in op.attributes and hasattr(op.attributes[k], "value")}
    fid = op.attributes.get("math_fidelity")
    if fid is not None:
        try:
            flags["math_fidelity"] = math_fidelity_of(getattr(fid, "data", fid))
        except LayoutError as e:
            raise LocatedError(str(e), op) from None
    return flags


def move_time(c: Costing, v: SSAValue, src: ShardingSpec, tgt: ShardingSpec) -> tuple[float, float]:
    """(seconds, delivered bytes) of resharding `v` from `src` to `tgt`."""
    if src == tgt:
        return 0.0, 0.0
    return c.reshard(tensor_shape(v), dtype_name(v), src, tgt), reshard_bytes(v, src, tgt)


def arg_time(c: Costing, v: SSAValue, spec: ShardingSpec) -> float:
    """An argument's distribute, in the format it is stored in (`tt.storage`)."""
    return c.host_transfer(c.local_bytes(v, spec, value_storage(v) or dtype_name(v)))


def result_time(c: Costing, v: SSAValue, src: ShardingSpec, tgt: ShardingSpec) -> tuple[float, float]:
    """A result's reshard to its spec and its aggregate."""
    t, moved = move_time(c, v, src, tgt)
    return t + c.host_transfer(c.local_bytes(v, tgt, dtype_name(v))), moved


def op_time(c: Costing, op: Operation, chosen: dict) -> tuple[float, float]:
    """(seconds, delivered bytes) of one op of the body (not the return) given every value's spec:
    its operands' reshards to what its rule requires, then the op itself."""
    if isinstance(op, ShardingConstraintOp):
        return move_time(c, op.operands[0], chosen[op.operands[0]], chosen[op.results[0]])
    if not op.operands:  # a constant: a host value until an op takes it to the devices
        return 0.0, 0.0
    required = op_rule(op).require(tuple(chosen[r] for r in op.results))
    assert required is not None
    required = keep_selected_axes(op, required, chosen[op.operands[0]])
    time = moved = 0.0
    if windowed(op, required, tensor_shape):  # a slice / concat along a split dim: its moves
        for (v, window), spec in zip(op_windows(op, tensor_shape), required):
            bound = window_needed_bytes(tensor_shape(v), spec, chosen[op.results[0]], window,
                                        c.itemsize(dtype_name(v)))
            time, moved = time + c.point_to_point(bound), moved + bound
    elif split_selection(op, required):  # a cumsum / argmax / top_k along a split dim: its gathers
        for shape, dtype, src, tgt in selection_gathers(op, required[0], tensor_shape):
            time += c.reshard(shape, dtype, src, tgt)
            moved += plan_reshard(shape, dtype, src, tgt).delivered_bytes
    for v, spec in zip(op.operands, required):
        if isinstance(v.owner, Operation) and not v.owner.operands:
            time += c.upload(c.local_bytes(v, chosen[v], dtype_name(v)), chosen[v] != spec)
            continue
        t, b = move_time(c, v, chosen[v], spec)
        time, moved = time + t, moved + b
    kind = op.name.split(".", 1)[1]
    # an argument read where it is keeps its stored format; a reshard's collectives make it its type again
    operands = [(c.local_shape(v, s), (value_storage(v) if chosen[v] == s else None) or dtype_name(v))
                for v, s in zip(op.operands, required)]
    r = op.results[0]
    time += c.compute(op, kind, operands, (c.local_shape(r, chosen[r]), dtype_name(r)), kernel_flags(op))
    return time, moved
