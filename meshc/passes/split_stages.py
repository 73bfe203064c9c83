"""`ttir-split-stages{stages=S stage-mesh=2,4 system=galaxy}`: cut a chain of layers into S pipeline
stages, each on its own submesh of the system, minimising the slowest stage (docs/pipeline.md).

The input is a global-view module whose `@main` is a chain of calls (a layer a call; each call
reads `@main`'s arguments and the results of the call just before it) and its return. Each layer
is timed on a `stage-mesh` submesh by `ttir-auto-shard`'s estimate (meshc/passes/auto_shard.py:
the simulator's time model applied to what the TTNN pipeline makes of the layer, with the
shardings `@main`'s arguments give its operands); meshc.layout.stage_slicing cuts the chain where
the slowest stage is fastest (Alpa's inter-operator dynamic program for a chain) and gives stage k
the k-th `stage-mesh` block of the system's chip mesh. The module then carries the system and one
`#tt.device` a stage (`tt.devices`), a function `@stage<k>` (`tt.stage = k`) a stage calling its
layers, and `@main` calling the stages; the layers become private (the pipelines inline them into
their stages). `@main` gets `tt.split_stages`: each stage's layers and predicted microseconds.

Each stage's arguments and results keep the sharding `@main` gives the value they carry (the chain
value: `@main`'s first argument's); no sharding is searched for inside a stage.

Located errors: a module that is not such a chain, more stages than layers, a stage mesh that
does not tile the system's chip mesh into enough blocks.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, FloatAttr, IntegerAttr, ModuleOp, StringAttr, f64, i64
from xdsl.ir import Block, Region, SSAValue
from xdsl.passes import ModulePass

from meshc.dialects.tt import (
    DEVICE_ATTR,
    DEVICES_ATTR,
    STAGE_ATTR,
    SYSTEM_DESC_ATTR,
    DeviceAttr,
    SystemDescAttr,
)
from meshc.errors import LocatedError
from meshc.layout.device import derive_device
from meshc.layout.errors import LayoutError
from meshc.layout.mesh import Mesh
from meshc.layout.stage_slicing import slice_chain, submesh_chips
from meshc.passes.auto_shard import written_estimate
from meshc.passes.register_device import load_system
from meshc.passes.sharding_ir import function_specs

SHARDING = "tt.sharding"


def _arg_dict(f: func.FuncOp, i: int) -> dict:
    return dict(f.arg_attrs.data[i].data) if f.arg_attrs is not None and i < len(f.arg_attrs.data) else {}


def _chain(main: func.FuncOp, funcs: dict[str, func.FuncOp]) -> list[func.CallOp]:
    """The calls of `@main`, checked to be a chain (see the module docstring)."""
    ops = list(main.body.blocks.first.ops)
    calls = ops[:-1]
    if not calls or not all(isinstance(c, func.CallOp) for c in calls):
        bad = next((c for c in calls if not isinstance(c, func.CallOp)), main)
        raise LocatedError("ttir-split-stages cuts a chain of layers: @main holds only calls of layer functions "
                           "and its return", bad)
    for k, c in enumerate(calls):
        name = c.callee.root_reference.data
        if name not in funcs or not funcs[name].body.blocks:
            raise LocatedError(f"calls @{name}, which is no layer function of the module", c)
        for v in c.arguments:
            owner = v.owner
            if isinstance(owner, func.CallOp) and (k == 0 or owner is not calls[k - 1]):
                raise LocatedError("reads a result of a call other than the one just before it: the layers "
                                   "are not a chain", c)
    for v in ops[-1].operands:
        if isinstance(v.owner, func.CallOp) and v.owner is not calls[-1]:
            raise LocatedError("returns a result of a call other than the last: the layers are not a chain", ops[-1])
    return calls


def _layer_seconds(call: func.CallOp, callee: func.FuncOp, main: func.FuncOp, module: ModuleOp,
                   device, cache: dict) -> float:
    """The predicted seconds of one layer alone on a stage's submesh, its operands placed as
    `@main` places the values they read (a layer's own result annotations kept)."""
    annotations = []
    for v in call.arguments:
        src = v if not isinstance(v.owner, func.CallOp) else main.body.blocks.first.args[0]
        annotations.append(_arg_dict(main, src.index).get(SHARDING))
    key = (callee.sym_name.data, tuple(str(a) for a in annotations))
    if key in cache:
        return cache[key]
    f = callee.clone()
    f.arg_attrs = ArrayAttr([DictionaryAttr({SHARDING: a} if a is not None else {}) for a in annotations])
    probe = ModuleOp([f])
    probe.attributes[SYSTEM_DESC_ATTR] = module.attributes[SYSTEM_DESC_ATTR]
    probe.attributes[DEVICE_ATTR] = DeviceAttr.from_model(device)
    mesh = Mesh(tuple(device.mesh_shape))
    ins, outs = function_specs(f, mesh)
    cache[key] = written_estimate(f, mesh, ins, outs).time_s
    return cache[key]


@dataclass(frozen=True)
class SplitStagesPass(ModulePass):
    name = "ttir-split-stages"

    stages: int = 2
    stage_mesh: tuple[int, ...] = (1, 1)
    system: str = "t3k"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        funcs = {f.sym_name.data: f for f in op.body.block.ops if isinstance(f, func.FuncOp)}
        main = funcs.get("main")
        if main is None or not main.body.blocks:
            raise LocatedError("ttir-split-stages cuts the chain of layers @main calls; the module has no @main", op)
        if DEVICES_ATTR in op.attributes or DEVICE_ATTR in op.attributes:
            raise LocatedError("ttir-split-stages places the stages itself; the module already names its "
                               "device(s)", op)
        calls = _chain(main, funcs)
        system = load_system(self.system, op)
        try:
            chips = submesh_chips(system, self.stage_mesh, self.stages)
            devices = [derive_device(tuple(self.stage_mesh), system=system, chip_ids=c) for c in chips]
            op.attributes[SYSTEM_DESC_ATTR] = SystemDescAttr.from_model(system)
            cache: dict = {}
            costs = [_layer_seconds(c, funcs[c.callee.root_reference.data], main, op, devices[0], cache)
                     for c in calls]
            cuts = slice_chain(costs, self.stages)
        except LayoutError as e:
            raise LocatedError(f"ttir-split-stages: {e}", op) from None
        op.attributes[DEVICES_ATTR] = ArrayAttr([DeviceAttr.from_model(d) for d in devices])
        stage_fns = [self._stage(k, calls[a:b], main, op) for k, (a, b) in enumerate(cuts)]
        self._rewrite_main(main, calls, cuts, stage_fns)
        for f in funcs.values():
            if f is not main:
                f.sym_visibility = StringAttr("private")
        main.attributes["tt.split_stages"] = ArrayAttr([
            DictionaryAttr({"layers": ArrayAttr([StringAttr(c.callee.root_reference.data) for c in calls[a:b]]),
                            "time_us": FloatAttr(round(sum(costs[a:b]) * 1e6, 3), f64),
                            "chips": ArrayAttr([IntegerAttr(c, i64) for c in devices[k].chip_ids])})
            for k, (a, b) in enumerate(cuts)])

    @staticmethod
    def _stage(k: int, calls: list[func.CallOp], main: func.FuncOp, module: ModuleOp) -> func.FuncOp:
        """`@stage<k>`: the calls of one stage, reading the chain value and `@main`'s arguments."""
        margs = main.body.blocks.first.args
        chain_in = [v for v in calls[0].arguments if isinstance(v.owner, func.CallOp)]
        used: list[SSAValue] = list(chain_in)
        for c in calls:
            for v in c.arguments:
                if not isinstance(v.owner, func.CallOp) and v not in used:
                    used.append(v)
        block = Block(arg_types=[v.type for v in used])
        for v, a in zip(used, block.args):  # a main argument's name; the chain value's "h"
            a.name_hint = "h" if isinstance(v.owner, func.CallOp) else v.name_hint
        mapping = dict(zip(used, block.args))
        last = None
        for c in calls:
            operands = [mapping[v] for v in c.arguments]
            new = func.CallOp(c.callee, operands, [r.type for r in c.results])
            new.location = c.location
            block.add_op(new)
            mapping.update(zip(c.results, new.results))
            last = new
        block.add_op(func.ReturnOp(*last.results))
        chain = _arg_dict(main, 0).get(SHARDING)
        arg_attrs = []
        for v in used:
            d = {SHARDING: chain} if isinstance(v.owner, func.CallOp) and chain is not None else {}
            if not isinstance(v.owner, func.CallOp):
                s = _arg_dict(main, margs.index(v)).get(SHARDING)
                d = {SHARDING: s} if s is not None else {}
            arg_attrs.append(DictionaryAttr(d))
        f = func.FuncOp(f"stage{k}", func.FunctionType.from_lists([v.type for v in used],
                                                                   [r.type for r in last.results]),
                        Region(block), arg_attrs=ArrayAttr(arg_attrs))
        if chain is not None:
            f.res_attrs = ArrayAttr([DictionaryAttr({SHARDING: chain}) for _ in last.results])
        f.location = calls[0].location
        f.attributes[STAGE_ATTR] = IntegerAttr(k, i64)
        module.body.block.insert_op_before(f, main)
        return f

    @staticmethod
    def _rewrite_main(main: func.FuncOp, calls: list[func.CallOp], cuts, stage_fns: list[func.FuncOp]) -> None:
        """`@main` calls the stages in order; `tt.sharding` leaves it (it runs on the host)."""
        block = main.body.blocks.first
        ret = block.last_op
        remap: dict[SSAValue, SSAValue] = {}  # a layer's result -> the stage call's
        for (a, b), f in zip(cuts, stage_fns):
            seg = calls[a:b]
            used = [v for v in seg[0].arguments if isinstance(v.owner, func.CallOp)]
            for c in seg:
                for v in c.arguments:
                    if not isinstance(v.owner, func.CallOp) and v not in used:
                        used.append(v)
            new = func.CallOp(f.sym_name.data, [remap.get(v, v) for v in used], list(f.function_type.outputs.data))
            new.location = seg[0].location
            block.insert_op_before(new, ret)
            remap.update(zip(seg[-1].results, new.results))
        for v_old in calls[-1].results:
            v_old.replace_all_uses_with(remap[v_old])
        for c in reversed(calls):
            c.detach()
            c.erase()
        if main.arg_attrs is not None:
            main.arg_attrs = ArrayAttr([DictionaryAttr({k: v for k, v in d.data.items() if k != SHARDING})
                                        for d in main.arg_attrs.data])
        main.res_attrs = None
