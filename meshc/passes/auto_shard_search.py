"""The search of `ttir-auto-shard`: dynamic programming along the program order.

What the pass chooses is every free argument's placement; `ttir-propagate-sharding` then
chooses every other value's sharding op by op (`choose`), from the shardings of the op's
operands and the backward wishes, which do not depend on the arguments (`wishes`). So the
sharding of the values live after op i, and the time of ops 0..i, depend on the arguments
placed so far only through the shardings of those live values: a state of the dynamic program
is the tuple of the live values' shardings, and its value the least time that reaches it
(arguments' distributes, reshards and ops, meshc.passes.auto_shard_cost). An argument is
placed (every even placement it has, `placements`) at the op that first uses it. States that
agree are merged (keeping the cheapest); at most `beam` states are kept after each op (the
cheapest; with no more states than that the search is exact). At the return, each result
takes the sharding its value has, unless annotated, and is gathered to the host.

Work: ops x states x placements of the arguments an op first uses; for a chain of matmuls on
an 8x4 mesh that is 64 x (about 10) x (about 10).
"""

from __future__ import annotations

import itertools
import math

from xdsl.dialects import func
from xdsl.ir import SSAValue

from meshc.dialects.ttir.sharding_constraint import ShardingConstraintOp
from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.passes.auto_shard_cost import Costing, arg_time, op_time, result_time
from meshc.passes.propagate_sharding import choose, constraint_spec, follow, wishes
from meshc.passes.sharding_ir import body_ops

BEAM = 512
"""States kept after each op (the cheapest)."""


def dp_search(f: func.FuncOp, mesh: Mesh, c: Costing, ins: list[ShardingSpec], outs: list[ShardingSpec],
              choices: list[list[ShardingSpec]], res_fixed: list[bool], beam: int = BEAM
              ) -> tuple[list[ShardingSpec], float]:
    """(argument specs, predicted seconds) of the cheapest placement: argument i takes one of
    `choices[i]`; annotated results (`res_fixed`) keep `outs`, the others follow their values.
    Shardings are numbered (`specs`), so a state is a tuple of small ints."""
    ops = body_ops(f)
    args = list(f.body.blocks.first.args)
    index = {a: i for i, a in enumerate(args)}
    wanted = wishes(f, mesh, outs, res_fixed)
    last_use: dict[SSAValue, int] = {}
    first_use: dict[SSAValue, int] = {}
    for k, op in enumerate(ops):
        for v in op.operands:
            last_use[v] = k
            if v in index:
                first_use.setdefault(v, k)

    specs: list[ShardingSpec] = []
    number: dict[ShardingSpec, int] = {}

    def num(s: ShardingSpec) -> int:
        if s not in number:
            number[s] = len(specs)
            specs.append(s)
        return number[s]

    choice_ids = [[num(s) for s in ch] for ch in choices]
    # ops alike (the layers of a model) share their evaluations: what the planner and the time
    # model read of an op is its name, types, attributes and its results' wishes
    sigs: dict[tuple, int] = {}
    sig = [sigs.setdefault((op.name, tuple(str(v.type) for v in op.operands), tuple(str(r.type) for r in op.results),
                            str(sorted((n, str(a)) for n, a in op.attributes.items())),
                            tuple(wanted.get(r) for r in op.results)), len(sigs)) for op in ops]
    memo: dict[tuple, tuple] = {}  # (op signature, its operands' spec numbers) -> (its results', its time)
    arg_s: dict[tuple, float] = {}

    def step(k: int, op, operand_ids: tuple) -> tuple:
        """The planner's sharding of op k's results and the op's time, for its operands' specs."""
        key = (sig[k], operand_ids)
        hit = memo.get(key)
        if hit is None:
            chosen = {v: specs[i] for v, i in zip(op.operands, operand_ids)}
            if isinstance(op, ShardingConstraintOp):
                results = (constraint_spec(op, mesh),)
            else:
                results = choose(op, chosen, wanted, mesh)
            chosen.update(zip(op.results, results))
            hit = memo[key] = (tuple(num(r) for r in results), op_time(c, op, chosen)[0])
        return hit

    live: tuple[SSAValue, ...] = ()
    # state: live values' spec numbers -> (time, the argument specs placed so far: (index, number) pairs)
    states: dict[tuple, tuple[float, tuple]] = {(): (0.0, ())}
    last = len(ops) - 1
    for k, op in enumerate(ops):
        new = [a for a in dict.fromkeys(op.operands) if a in index and first_use[a] == k]
        after = _live_after(live, new, op, k, last_use)
        # where each operand and each value live after the op is found: live (i), new (n + j), result (n + m + r)
        slot = {v: i for i, v in enumerate(live)}
        slot.update({a: len(live) + j for j, a in enumerate(new)})
        slot.update({r: len(live) + len(new) + j for j, r in enumerate(op.results)})
        operand_slots = [slot[v] for v in op.operands]
        after_slots = [slot[v] for v in after]
        new_args = [index[a] for a in new]
        grown: dict[tuple, tuple[float, tuple]] = {}
        for key, (t0, placed) in states.items():
            for combo in itertools.product(*(choice_ids[i] for i in new_args)):
                t = t0
                for i, s in zip(new_args, combo):
                    cost = arg_s.get((i, s))
                    if cost is None:
                        cost = arg_s[(i, s)] = arg_time(c, args[i], specs[s])
                    t += cost
                env = key + combo
                if k == last:  # the return
                    for v, o, fixed, sl in zip(op.operands, outs, res_fixed, operand_slots):
                        src = specs[env[sl]]
                        t += result_time(c, v, src, o if fixed else follow(mesh, src))[0]
                    nxt: tuple = ()
                else:
                    results, op_s = step(k, op, tuple(env[sl] for sl in operand_slots))
                    t += op_s
                    if math.isinf(t):
                        continue
                    env = env + results
                    nxt = tuple(env[sl] for sl in after_slots)
                best = grown.get(nxt)
                if best is None or t < best[0]:
                    grown[nxt] = (t, placed + tuple(zip(new_args, combo)) if new_args else placed)
        live = after
        states = grown if len(grown) <= beam else dict(sorted(grown.items(), key=lambda kv: kv[1][0])[:beam])
    time, placed = min(states.values(), key=lambda tp: tp[0])
    out = list(ins)
    for i, s in placed:
        out[i] = specs[s]
    return out, time


def _live_after(live: tuple, new: list, op, k: int, last_use: dict) -> tuple:
    """The values live after op k: those live before or placed at it, and its results, less the
    values it used last."""
    cand = list(live) + [a for a in new if a not in live] + list(op.results)
    return tuple(v for v in cand if last_use.get(v, -1) > k)
