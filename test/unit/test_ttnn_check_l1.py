"""ttnn-check-l1{spill-to-dram=true}'s spill (meshc/passes/ttnn_check_l1.py), which moves one
tensor's bytes in the L1 use it keeps (`l1_budget.L1Use`) and derives the buffers again only when
a spill changes another one, against the spill it replaces: every buffer derived again and every
core's L1 added up from scratch after each single spill. Same tensors spilled in the same order,
so the same module, on random programs whose spills cascade (results placed like their operand,
copies that become the same buffer) and on lowered ones (TTNN and TTMetal) with a small L1."""

import re

import numpy as np
import pytest
from xdsl.dialects import func

import meshc
from meshc.dialects import ttmetal
from meshc.layout.l1_budget import l1_budget
from meshc.passes.lowering_utils import fix_function_types
from meshc.passes.ttnn_check_l1 import (DRAM, TTNNCheckL1Pass, _spill_cost, device_buffers, device_tensors,
                                        live_tensor, module_l1, place_tensor)


def _from_scratch(module) -> list[str]:
    """The spill deriving every buffer and adding up the L1 again after each move; the names
    of the tensors spilled, in order."""
    arch, capacity = module_l1(module)
    spilled = []
    for f in [x for x in module.walk() if isinstance(x, func.FuncOp) and x.body.blocks]:
        block = f.body.blocks[0]
        metal = any(isinstance(o, ttmetal.CreateBufferOp) for o in block.ops)
        while True:
            tensors = device_buffers(block) if metal else device_tensors(block)
            lives = [live_tensor(t) for t in tensors]
            at = l1_budget(lives, arch, capacity).first_overflow
            if at is None:
                break
            victim = min(at.live, key=lambda i: (_spill_cost(tensors[i], lives[i], arch) / at.bytes_of[i],
                                                 -at.bytes_of[i], tensors[i].start - tensors[i].end))
            spilled.append(str(tensors[victim].value.name_hint))
            place_tensor(tensors[victim], DRAM)
    fix_function_types(module)
    return spilled


def _same_spills(text: str) -> int:
    ours, theirs = meshc.parse(text), meshc.parse(text)
    TTNNCheckL1Pass(spill_to_dram=True).apply(None, ours)
    moved = _from_scratch(theirs)
    assert str(ours) == str(theirs)
    return len(moved)


H = {n: (f"#ttnn.memory_config<#ttnn.buffer_type<l1>, <height_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<"
         f"[#ttnn.core_range<(0, 0), ({n - 1}, 0)>]>, <{512 // n}x512>, <row_major>>>") for n in (2, 4)}
DRAM_CONFIG = "#ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>"
T = "tensor<512x512xf32>"


def _random_ttnn(rng) -> str:
    """Inputs in L1 on 2 or 4 cores, then exps, adds and copies (to L1 or DRAM) of random earlier
    values; results without a layout are placed like their first operand."""
    lines = [f"  func.func @main(%x: {T}) -> {T} {{",
             '    %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device']
    vals = []
    for n in range(3):
        lines.append(f'    %in{n} = "ttnn.to_device"(%x, %d) {{memory_config = {H[2 + 2 * (n % 2)]}}} '
                     f': ({T}, !ttnn.device) -> {T}')
        vals.append(f"%in{n}")
    for n in range(24):
        a, b = (vals[int(k)] for k in rng.integers(max(0, len(vals) - 8), len(vals), 2))
        kind = int(rng.integers(0, 4))
        if kind == 0:
            lines.append(f'    %v{n} = "ttnn.exp"({a}) : ({T}) -> {T}')
        elif kind == 1:
            lines.append(f'    %v{n} = "ttnn.add"({a}, {b}) : ({T}, {T}) -> {T}')
        else:
            config = DRAM_CONFIG if kind == 2 else H[int(rng.choice([2, 4]))]
            lines.append(f'    %v{n} = "ttnn.to_memory_config"({a}) {{memory_config = {config}}} : ({T}) -> {T}')
        vals.append(f"%v{n}")
    lines.append(f'    %out = "ttnn.add"({vals[-1]}, {vals[-5]}) : ({T}, {T}) -> {T}')
    lines.append(f'    %b = "ttnn.from_device"(%out) : ({T}) -> {T}')
    lines.append(f"    func.return %b : {T}")
    lines.append("  }")
    return "module {\n" + "\n".join(lines) + "\n}\n"


@pytest.mark.parametrize("seed", range(6))
def test_random_cascading_spills_match_the_spill_from_scratch(seed):
    # 512x512 f32 on 2 cores is 524,288 B a core: three live on a core overflow its 1,499,136 B
    assert _same_spills(_random_ttnn(np.random.default_rng(seed))) > 0


def _ttir(rng, n_ops: int) -> str:
    """A ttir chain whose ops also read a random value of the last ten (long live ranges)."""
    t = "tensor<256x512xf32>"
    lines = [f"func.func @main(%x: {t}) -> {t} {{"]
    vals = ["%x"]
    for n in range(n_ops):
        a = vals[-1]
        b = vals[int(rng.integers(max(0, len(vals) - 10), len(vals)))]
        op = ["add", "multiply", "maximum"][n % 3] if n % 2 else "exp"
        if op == "exp":
            lines.append(f'  %v{n} = "ttir.exp"({a}) : ({t}) -> {t}')
        else:
            lines.append(f'  %v{n} = "ttir.{op}"({a}, {b}) : ({t}, {t}) -> {t}')
        vals.append(f"%v{n}")
    lines.append(f"  func.return {vals[-1]} : {t}")
    lines.append("}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("target", ["ttnn", "ttmetal"])
def test_lowered_programs_spill_as_from_scratch(target):
    # lowered without the check, then checked with an L1 of 20,000 B a core (the system
    # descriptor's l1Size): a 256x512 f32 tensor on 8x8 cores is 8,192 B a core, so over twenty spill
    lowered = meshc.compile(_ttir(np.random.default_rng(7), 40),
                            f"ttir-to-{target}-pipeline{{check-l1=false optimize-memory=false}}")
    text, n = re.subn(r"l1Size = \d+", "l1Size = 20000", str(lowered))
    assert n >= 1
    assert _same_spills(text) > 20
