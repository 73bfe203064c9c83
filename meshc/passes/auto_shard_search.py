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
from meshc.layout.sharding_rules import canonical, replicated
from meshc.passes.auto_shard_cost import Costing, arg_time, op_time, result_time
from meshc.passes.propagate_sharding import choose, constraint_spec, wishes
from meshc.passes.sharding_ir import body_ops

BEAM = 512
"""States kept after each op (the cheapest)."""


def follow(mesh: Mesh, spec: ShardingSpec) -> ShardingSpec:
    """The sharding a result takes from its value: the value's (partial sums reduced), or
    replicated when its axes are not in ascending order (a host transfer states no other)."""
    s = canonical(ShardingSpec(mesh, spec.dims))
    return s if all(list(d) == sorted(d) for d in s.dims) else replicated(mesh, len(s.dims))


def dp_search(f: func.FuncOp, mesh: Mesh, c: Costing, ins: list[ShardingSpec], outs: list[ShardingSpec],
              choices: list[list[ShardingSpec]], res_fixed: list[bool], beam: int = BEAM
              ) -> tuple[list[ShardingSpec], float]:
    """(argument specs, predicted seconds) of the cheapest placement: argument i takes one of
    `choices[i]`; annotated results (`res_fixed`) keep `outs`, the others follow their values."""
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

    memo: dict[tuple, tuple] = {}  # (op signature, its operands' specs) -> (its results' specs, its time)
    arg_s: dict[tuple, float] = {}
    # ops alike (the layers of a model) share their evaluations: what the planner and the time
    # model read of an op is its name, types, attributes and its results' wishes
    sig = [(op.name, tuple(str(v.type) for v in op.operands), tuple(str(r.type) for r in op.results),
            str(sorted((n, str(a)) for n, a in op.attributes.items())), tuple(wanted.get(r) for r in op.results))
           for op in ops]

    def step(k: int, op, chosen: dict) -> tuple:
        """The planner's sharding of op k's results and the op's time, for its operands' specs."""
        key = (sig[k], tuple(chosen[v] for v in op.operands))
        hit = memo.get(key)
        if hit is None:
            if isinstance(op, ShardingConstraintOp):
                results = (constraint_spec(op, mesh),)
            else:
                results = choose(op, chosen, wanted, mesh)
            hit = memo[key] = (results, op_time(c, op, {**chosen, **dict(zip(op.results, results))})[0])
        return hit

    live: tuple[SSAValue, ...] = ()
    # state: live values' specs -> (time, the argument specs placed so far as a tuple of (index, spec))
    states: dict[tuple, tuple[float, tuple]] = {(): (0.0, ())}
    for k, op in enumerate(ops):
        new = [a for a in dict.fromkeys(op.operands) if a in index and first_use[a] == k]
        after = _live_after(live, new, op, k, last_use)
        grown: dict[tuple, tuple[float, tuple]] = {}
        for key, (t0, placed) in states.items():
            base = dict(zip(live, key))
            for combo in itertools.product(*(choices[index[a]] for a in new)):
                chosen = dict(base)
                t = t0
                for a, s in zip(new, combo):
                    chosen[a] = s
                    if (a, s) not in arg_s:
                        arg_s[(a, s)] = arg_time(c, a, s)
                    t += arg_s[(a, s)]
                if k == len(ops) - 1:  # the return
                    for v, spec, fixed in zip(op.operands, outs, res_fixed):
                        t += result_time(c, v, chosen[v], spec if fixed else follow(mesh, chosen[v]))[0]
                    nxt: tuple = ()
                else:
                    results, op_s = step(k, op, chosen)
                    chosen.update(zip(op.results, results))
                    t += op_s
                    if math.isinf(t):
                        continue
                    nxt = tuple(chosen[v] for v in after)
                p = placed + tuple((index[a], s) for a, s in zip(new, combo))
                if nxt not in grown or t < grown[nxt][0]:
                    grown[nxt] = (t, p)
        live = after
        states = dict(sorted(grown.items(), key=lambda kv: kv[1][0])[:beam])
    time, placed = min(states.values(), key=lambda tp: tp[0])
    specs = list(ins)
    for i, s in placed:
        specs[i] = s
    return specs, time


def _live_after(live: tuple, new: list, op, k: int, last_use: dict) -> tuple:
    """The values live after op k: those live before or placed at it, and its results, less the
    values it used last."""
    cand = list(live) + [a for a in new if a not in live] + list(op.results)
    return tuple(v for v in cand if last_use.get(v, -1) > k)
