"""What the interpreters share: reading an op's kernel attributes, element types, distributed
values, finding the entry function. (The module's device and system are read by
meshc.dialects.tt: module_mesh_shape, system_or_default.)

A run-time value is a host `np.ndarray` or a `Distributed` value (one array a device, device
order row-major over the mesh), as docs/contracts.md fixes.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, ModuleOp, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from meshc.dialects.ttir.base import tensor_shape
from meshc.errors import LocatedError
from meshc.dialects.element_types import expect_data_type_name
from meshc.dialects.shape_rules import ints_of
from meshc.layout.dtypes import get_dtype
from meshc.layout.errors import LayoutError
from meshc.layout.sharded_buffer import datum_size, lower_distribution
from meshc.sim.encoding import quantize


class Distributed(list):
    """One numpy array a device of the mesh, in device order."""

    def __repr__(self) -> str:
        return f"Distributed({len(self)} x {self[0].shape if self else ()})"


def element_dtype_name(t: Attribute) -> str:
    """meshc data type name of a tensor type: the device type its layout encoding names
    (`#ttnn.ttnn_layout`, `#tt.metal_layout`), else the element type's; LayoutError for an
    element type the device does not hold."""
    if isinstance(t, TensorType):
        enc = t.encoding
        name = getattr(enc, "name", "")
        if name == "ttnn.ttnn_layout":  # its data type only: a host (system_memory) layout has no memory config
            return enc.data_type.data
        if name == "tt.metal_layout":
            return enc.model().dtype.name
        t = t.element_type
    return expect_data_type_name(t)


def run_at_op(op, thunk, machine=None):
    """`thunk()`, run for `op`: its LayoutError / ValueError / VerifyException become a LocatedError at `op`; with a
    `machine` (meshc.sim.machine.Machine), the traffic it causes is charged to the op
    (`machine.op(op.name)`)."""
    try:
        if machine is None:
            return thunk()
        with machine.op(op.name):
            return thunk()
    except LocatedError:
        raise
    except (LayoutError, ValueError, VerifyException) as e:
        raise LocatedError(str(e), op) from None


def located(fn, machine=None):
    """An interpreter impl `fn(self, interpreter, op, args)` run at its op (`run_at_op`)."""

    def wrapper(self, interpreter, op, args):
        return run_at_op(op, lambda: fn(self, interpreter, op, args), machine)

    return wrapper


def charged(fn):
    """A simulator impl `fn(self, interpreter, op, args)` run at its op, its traffic charged to the
    op on the simulator's `self.machine`."""

    def wrapper(self, interpreter, op, args):
        return run_at_op(op, lambda: fn(self, interpreter, op, args), self.machine)

    return wrapper


def transfer_config(op, full_shape: tuple[int, ...], mesh_shape: tuple[int, ...], dtype: str):
    """The ShardedBufferConfig a host <-> mesh transfer executes: the op's `config` attribute
    (`#ttnn.sharded_buffer_config`, 2D or ND) when it has one, else the one its sharding lowers
    to (meshc.layout.sharded_buffer.lower_distribution: the placement model's answer)."""
    attr = op.attributes.get("config")
    if attr is not None:
        return attr.data
    return lower_distribution(full_shape, op.sharding(mesh_shape), datum_size(dtype))


def _int(attr) -> int:
    return int(attr.value.data)


def kernel_attrs(op: Operation) -> dict:
    """The attributes a compute kernel needs, normalised (negative dims resolved)."""
    a: dict = {}
    if op.results and isinstance(op.results[0].type, TensorType):
        a["result_shape"] = tensor_shape(op.results[0])
    # only attributes the op declares (its verifier checked their kinds): an op may carry others (a
    # ttir.reshape with `dimension = [...]`), which mean nothing to its kernel
    if isinstance(getattr(op, "dimension", None), IntegerAttr):
        rank = len(tensor_shape(op.operands[0]))
        d = _int(op.attributes["dimension"])
        a["dimension"] = d + rank if d < 0 else d
    if hasattr(op, "dims") and "dim0" in op.attributes:
        a["dim0"], a["dim1"] = op.dims()
    if hasattr(op, "reduced_dims"):
        a["dim_arg"] = op.reduced_dims()
        ka = op.attributes.get("keep_dim")
        a["keep_dim"] = bool(ka is not None and ka.value.data)
    if isinstance(getattr(op, "permutation", None), DenseArrayBase):
        a["permutation"] = ints_of(op.attributes["permutation"])
    if isinstance(getattr(op, "dim", None), IntegerAttr):  # an absent dim with a default (sort's -1): its default
        rank = len(tensor_shape(op.operands[0]))
        d = _int(op.dim)
        a["dim"] = d + rank if d < 0 else d
    if hasattr(op, "bounds") and "begins" in op.attributes:
        a["begins"], a["ends"], a["step"] = op.bounds()
    for flag in ("transpose_a", "transpose_b", "descending", "reverse"):
        f = op.attributes.get(flag)
        a[flag] = bool(f is not None and f.value.data)
    return a


def find_entry(module: ModuleOp, entry: str | None):
    funcs = [op for op in module.body.ops if isinstance(op, func.FuncOp)]
    if entry is not None:
        for f in funcs:
            if f.sym_name.data == entry:
                if not f.body.blocks:
                    raise LayoutError(f"@{entry} is a declaration with no body: there is nothing to run")
                return f
        names = ", ".join("@" + f.sym_name.data for f in funcs) or "none"
        raise LayoutError(f"no function @{entry} in the module (functions: {names})")
    defined = [f for f in funcs if f.body.blocks]
    for f in defined:
        if f.sym_name.data == "main":
            return f
    public = [f for f in defined if f.sym_visibility is None or f.sym_visibility.data == "public"]
    if not public:
        raise LayoutError("the module has no function to run")
    return public[0]


def random_input(shape: tuple[int, ...], dtype: str, rng: np.random.Generator) -> np.ndarray:
    """A seeded random input: standard normal floats (rounded to the type), small ints for ints."""
    if dtype in ("si32", "u32", "u16", "u8"):
        return rng.integers(0, 8, size=shape).astype(get_dtype(dtype).host_dtype)
    return quantize(rng.standard_normal(shape, dtype=np.float32), dtype)
