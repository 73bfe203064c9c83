"""The `meshc-run --report` table of where each device tensor sits and why: for every tensor of
the entry function of a ttnn program (every mesh buffer of a ttmetal one), its layout, the bytes it takes (a core's L1 or a DRAM
bank), the modelled time of the ops touching it in each place it could be (the others where they
are), and why it is where it is (the least time, the faster places that do not fit and where
L1 would overflow, or what keeps it): `meshc.layout.memory_plan.explain` over the program
`ttnn-optimize-memory` (`ttmetal-optimize-memory`) plans (docs/passes.md)."""

from __future__ import annotations

from rich.console import Console
from xdsl.dialects import func

from meshc.layout.errors import LayoutError
from meshc.layout.memory_options import KINDS
from meshc.layout.memory_plan import Decision, explain
from meshc.dialects import ttmetal
from meshc.passes import ttmetal_optimize_memory as metal
from meshc.passes.ttnn_check_l1 import device_buffers, device_tensors, module_l1
from meshc.passes.ttnn_optimize_memory import program_of, reshard_lines


def placement_rows(module, entry: func.FuncOp) -> list[tuple[str, Decision]]:
    """(tensor name, decision) of each device tensor (mesh buffer) of `entry`, in program order;
    [] for a function with none."""
    block = entry.body.blocks.first if entry.body.blocks else None
    if block is None:
        return []
    arch, capacity = module_l1(module)
    if any(isinstance(o, ttmetal.CreateBufferOp) for o in block.ops):
        tensors = device_buffers(block)
        plan_tensors, ops = metal.program_of(tensors, block, arch, metal.chip_cores(module))
    else:
        tensors = device_tensors(block)
        plan_tensors, ops = program_of(tensors, block)
    if not tensors:
        return []
    try:
        decisions = explain(plan_tensors, ops, None, arch, capacity)
    except LayoutError:  # a tensor placed where it cannot be: the run itself says so
        return []
    return [(t.name, d) for t, d in zip(plan_tensors, decisions)]


def placement_lines(rows: list[tuple[str, Decision]]) -> list[str]:
    """The report's lines: a tensor's place, its bytes, its time and why; then its other places
    with their times, then the kinds it cannot take and why."""
    out = ["Where each device tensor sits and why (modelled time of the ops touching it, the others "
           "where they are; docs/passes.md, ttnn- / ttmetal-optimize-memory):"]
    for name, d in rows:
        o = d.option
        nbytes = f"{o.bank_bytes:,} B a DRAM bank" if o.dram else f"{o.per_core:,} B a core on {len(o.cores)} core" + ("s" if len(o.cores) != 1 else "")
        out.append(f"  {name}: {o.kind}, {nbytes}, {d.times[o.kind] * 1e6:,.3f} us: {d.why}")
        others = [f"{k} {d.times[k] * 1e6:,.3f} us" + (" (does not fit with the others)" if k in d.refused else "")
                  for k in dict.fromkeys([*KINDS, *d.times]) if k in d.times and k != o.kind]
        if others:
            out.append("      other places: " + ", ".join(others))
        for k in KINDS:
            if k in d.refused and k not in d.times:
                out.append(f"      {k}: {d.refused[k]}")
    return out


def print_placement(module, entry: func.FuncOp, console: Console) -> None:
    rows = placement_rows(module, entry)
    for line in [*(placement_lines(rows) if rows else []), *reshard_lines(module, entry)]:
        console.print(line, markup=False, highlight=False, soft_wrap=True)
