"""What a simulated compute op tells the time model: its compute seconds on the cores that hold
its result (meshc.layout.timemodel), charged to the machine's current op.

A matmul is a 2D multicast matmul over its result's core grid (a sharded result's shard grid,
else the chip's whole compute grid, as TTNN runs an interleaved matmul), at TTNN's default math
fidelity for its weight format unless the op says its own (`math_fidelity = "LoFi"`, "HiFi2",
"HiFi3", "HiFi4"); any other op is timed by its cost class in
meshc.layout.compute_ops over the result's elements.
"""

from __future__ import annotations

import math

from meshc.layout.compute_ops import is_matmul, matmul_dims
from meshc.layout.timemodel import compute_s, math_fidelity_of, matmul_compute_s, matmul_dram_readers
from meshc.sim.machine import Machine


def math_fidelity(op) -> str | None:
    """The `math_fidelity` string attribute of an op (None: TTNN's default for the format)."""
    attr = None if op is None else op.attributes.get("math_fidelity")
    return None if attr is None else math_fidelity_of(getattr(attr, "data", attr))


def _grid(machine: Machine, layout) -> tuple[int, int]:
    if layout.interleaved:
        return tuple(machine.grid)
    return tuple(layout.grid)


def charge_compute(machine: Machine, kind: str, attrs: dict, operands, result, op=None) -> None:
    """Charge one compute op on every device (they run alike): `operands` and `result` are the
    op's device tensors (meshc.interp.runtime.SimTensor); a matmul's `math_fidelity` attribute
    (LoFi, HiFi2, HiFi3, HiFi4) overrides TTNN's default for its weight format."""
    layout = result.buffer.layout
    grid = _grid(machine, layout)
    if is_matmul(kind):
        m_dim, k_dim, n_dim = matmul_dims(operands[0].shape, operands[1].shape, attrs)
        batch = math.prod(result.shape[:-2])
        fmt = operands[1].buffer.layout.dtype.name
        fidelity = math_fidelity(op)
        b = operands[1].buffer.layout
        banks = len(b.owners) if b.buffer == "dram" and not b.interleaved else None  # a DRAM-sharded B
        machine.charge_compute(matmul_compute_s(machine.arch, m_dim, k_dim, n_dim, grid, fidelity, fmt, batch),
                               matmul_dram_readers(grid, banks))
        return
    fmt = layout.dtype.name
    machine.charge_compute(compute_s(machine.arch, kind, math.prod(result.shape), grid[0] * grid[1], fmt))
