"""The simulator runtime the ttnn and ttmetal interpreters drive: device tensors (`SimTensor`, a
mesh buffer holding one tensor a device), where an op puts its result (memory config and tile),
and `SimRuntime` (allocate, release, read, write, upload over a `Machine`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from meshc.errors import LocatedError
from meshc.dialects.ttnn.memory import result_placement
from meshc.interp.common import Distributed
from meshc.layout.errors import LayoutError
from meshc.layout.memory_config import HOST_UPLOAD_CONFIG
from meshc.sim.collectives import Collectives
from meshc.sim.machine import Machine
from meshc.sim.memory import DEFAULT_CONFIG, MeshBuffer


@dataclass
class SimTensor:
    buffer: MeshBuffer
    refs: int = 0

    @property
    def shape(self) -> tuple[int, ...]:
        return self.buffer.layout.shape


Where = tuple  # (MemoryConfig, tile or None)
DEFAULT_WHERE: Where = (DEFAULT_CONFIG, None)


def placement_of(op, default: Where) -> Where:
    """Where an op puts its result: (memory config, tile) from its `memory_config` attribute
    and its result's `#ttnn.ttnn_layout` encoding; what they leave open comes from `default`
    (meshc.dialects.ttnn.memory.result_placement, which the compile-time L1 check shares)."""
    return result_placement(op, default)


def where_of(t: "SimTensor") -> Where:
    return t.buffer.layout.config, t.buffer.layout.tile


class SimRuntime:
    """The simulator state an interpretation of a ttnn program drives."""

    def __init__(self, machine: Machine):
        self.m = machine
        self.coll = Collectives(machine)

    # -------------------------------------------------------------- buffers
    def new_tensor(self, op, shape, dtype, where: Where, name="") -> SimTensor:
        try:
            buf = self.m.allocate(shape, dtype, where[0], name or op.name, tile=where[1])
        except LayoutError as e:
            raise LocatedError(str(e), op) from None
        return SimTensor(buf)

    def release(self, t: SimTensor) -> None:
        t.refs -= 1
        if t.refs <= 0:
            self.m.free(t.buffer)

    def local_values(self, t: SimTensor) -> list[np.ndarray]:
        """Each device's tensor; devices that share bytes get the same array object."""
        return self.m.peek_all(t.buffer)

    def store(self, t: SimTensor, vals: list[np.ndarray]) -> None:
        """vals[i] as device i's tensor; one array object given to several devices is stored
        once for them (Machine.poke_all)."""
        self.m.poke_all(t.buffer, vals)

    def upload(self, op, vals: list[np.ndarray], dtype, where: Where) -> SimTensor:
        t = self.new_tensor(op, vals[0].shape, dtype, where)
        self.m.write(t.buffer, vals)
        return t

    def as_device(self, op, x, dtype) -> SimTensor:
        """A host operand of a device op goes to every device first (replicated, counted)."""
        if isinstance(x, SimTensor):
            return x
        n = self.m.num_devices
        vals = list(x) if isinstance(x, Distributed) else [np.asarray(x)] * n
        return self.upload(op, vals, dtype, (HOST_UPLOAD_CONFIG, None))


def per_object(fn, vals: list) -> list:
    """[fn(v) for v in vals], calling fn once per distinct object: devices that held the same
    array get the same result object (so the simulator keeps sharing their bytes)."""
    done: dict[int, object] = {}
    out = []
    for v in vals:
        r = done.get(id(v))
        if r is None:
            r = done[id(v)] = fn(v)
        out.append(r)
    return out
