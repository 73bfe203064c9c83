"""Which device mesh a global-view program states, and the error when it states none.

A `#tt.sharding<[S0, R]>` without `mesh = ...` is over the module's mesh: its `#tt.device`, else
its `tt.meshes`. A program whose annotations split dims (or hold partial sums) over that mesh
while the module names none means nothing yet: tt-register-device used to put it on its
system's chip mesh (one n150 chip by default), where `[S0, R]` splits nothing, and the program
ran on one chip, its shardings ignored. Instead (docs/propagation.md):

* `#tt.sharding<..., mesh = 2x4>` states the mesh: `stated_mesh` returns it, and
  tt-register-device registers that mesh when it is given no `mesh-shape` and the module no
  `tt.meshes` (two annotations stating different meshes are a located error);
* an annotation over the module's mesh that splits something, with no mesh anywhere
  (`first_unbound_split`), is a located error (`no_mesh_error`) saying how to give the mesh.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from meshc.dialects.tt import ShardingAttr
from meshc.dialects.ttir.sharding_constraint import ShardingConstraintOp
from meshc.errors import LocatedError
from meshc.layout.sharding_spec import format_spec
from meshc.layout.shapes import fmt_shape


def annotations(module: ModuleOp) -> Iterator[tuple[Operation, ShardingAttr]]:
    """Every user annotation: the `tt.sharding` of function arguments and results (at the
    function) and of `ttir.sharding_constraint` ops, in program order."""
    for op in module.walk():
        if isinstance(op, func.FuncOp):
            for attrs in (op.arg_attrs, op.res_attrs):
                for d in attrs.data if attrs is not None else ():
                    a = d.data.get("tt.sharding")
                    if isinstance(a, ShardingAttr):
                        yield op, a
        elif isinstance(op, ShardingConstraintOp):
            yield op, op.sharding


def _splits(a: ShardingAttr) -> bool:
    return any(a.spec.dims) or bool(a.spec.partial)


def stated_mesh(module: ModuleOp) -> tuple[int, ...] | None:
    """The mesh shape the module's annotations name (`mesh = 2x4`), or None when none names one;
    LocatedError at the annotation naming a second, different mesh."""
    found: tuple[tuple[int, ...], Operation, ShardingAttr] | None = None
    for op, a in annotations(module):
        if not a.bound:
            continue
        shape = tuple(int(n) for n in a.spec.mesh.shape)
        if found is None:
            found = (shape, op, a)
        elif shape != found[0]:
            raise LocatedError(f"the annotations name two meshes: {format_spec(found[2].spec)} and "
                               f"{format_spec(a.spec)}; a program runs on one mesh", op)
    return None if found is None else found[0]


def first_unbound_split(module: ModuleOp) -> tuple[Operation, ShardingAttr] | None:
    """The first annotation over the module's mesh (no `mesh = ...`) that splits a dim or holds
    partial sums, or None."""
    return next(((op, a) for op, a in annotations(module) if not a.bound and _splits(a)), None)


def no_mesh_error(op: Operation, a: ShardingAttr) -> LocatedError:
    """The module names no mesh, yet `a` shards over it: how to give one."""
    spec = format_spec(a.spec, include_mesh=False)
    used = [x for d in a.spec.dims for x in d] + list(a.spec.partial)
    sizes = ([2, 4] + [2] * 8)[:max(2, max(used, default=0) + 1)]  # an example with the axes the spec uses
    example = ",".join(map(str, sizes))
    return LocatedError(
        f"this global-view program shards over the module's device mesh (#tt.sharding<{spec}>), but the module "
        f"names no mesh (no #tt.device, no tt.meshes, no `mesh = ...` in its shardings), and meshc does not "
        f"guess one; give it with the pipeline option mesh-shape (ttir-to-ttnn-pipeline{{mesh-shape={example}}}; "
        f"meshc-run FILE --pipeline 'ttir-to-ttnn-pipeline{{mesh-shape={example}}}'), a #tt.device or tt.meshes "
        f"on the module, or `mesh = {fmt_shape(tuple(sizes))}` in the #tt.sharding",
        op)
