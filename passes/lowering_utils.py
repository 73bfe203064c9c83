"""Helpers shared by meshc's passes: the module's mesh and chip grid, tensor types and layouts.

Nothing here rewrites IR on its own; the passes call these to read the module's device,
fold shapes to 2-d as TTNN buffers do, and pick core grids.
"""

from __future__ import annotations

from functools import lru_cache

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, NoneAttr, TensorType
from xdsl.ir import Attribute, Operation

from meshc.diagnostics import LocatedError


def module_mesh(module: ModuleOp) -> tuple[int, ...]:
    from meshc.dialects.ttir import device_mesh_shape

    dev = module.attributes.get("tt.device")
    return (1,) if dev is None else device_mesh_shape(dev)


def module_device_model(module: ModuleOp):
    """The module's Device model, or None."""
    dev = module.attributes.get("tt.device")
    return None if dev is None else _model(dev)


@lru_cache(maxsize=64)
def _model(attr: Attribute):
    return attr.model()  # type: ignore[attr-defined]


def chip_grid(module: ModuleOp) -> tuple[int, int]:
    sysattr = module.attributes.get("tt.system_desc")
    if sysattr is not None:
        sysdesc = _model(sysattr)
        g = sysdesc.chips[0].grid
        return int(g[0]), int(g[1])
    return (8, 8)


def prod(xs) -> int:
    n = 1
    for x in xs:
        n *= int(x)
    return n


def fold_2d(shape: tuple[int, ...]) -> tuple[int, int]:
    """Outer dims folded into the height, as TTNN buffers store N-d tensors."""
    if not shape:
        return (1, 1)
    if len(shape) == 1:
        return (1, shape[0])
    return (prod(shape[:-1]), shape[-1])


def largest_divisor_at_most(n: int, limit: int) -> int:
    for k in range(min(n, limit), 0, -1):
        if n % k == 0:
            return k
    return 1


def with_encoding(t: TensorType, encoding: Attribute | None) -> TensorType:
    return TensorType(t.element_type, t.get_shape(), encoding if encoding is not None else NoneAttr())


def encoding_of(t: Attribute) -> Attribute | None:
    if isinstance(t, TensorType) and not isinstance(t.encoding, NoneAttr):
        return t.encoding
    return None


def host_type(t: Attribute) -> Attribute:
    return with_encoding(t, None) if isinstance(t, TensorType) else t


def fix_function_types(module: ModuleOp) -> None:
    """Make every func's signature agree with its block arguments and returned values."""
    for f in module.walk():
        if not isinstance(f, func.FuncOp) or not f.body.blocks:
            continue
        ins = [a.type for a in f.body.blocks[0].args]
        outs = list(f.function_type.outputs.data)
        for op in f.walk():
            if isinstance(op, func.ReturnOp) and op.parent_op() is f:
                outs = [v.type for v in op.operands]
        f.function_type = func.FunctionType.from_lists(ins, outs)


def fail(op: Operation, message: str) -> LocatedError:
    return LocatedError(message, op)
