"""Reading a parsed StableHLO module: op names, attributes xDSL kept unparsed, dense constants.

The importer parses StableHLO with xDSL allowing unregistered ops, so an op is an
`UnregisteredOp` carrying its own name, its attributes may sit in its properties or its
attribute dictionary (the generic form prints both), and dialect attributes xDSL does not know
(`#stablehlo.dot<...>`, `#sdy.sharding<...>`) keep their body as text.
"""

from __future__ import annotations

import math
import re

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerType, TensorType
from xdsl.ir import Attribute, Operation


def op_name(op: Operation) -> str:
    """The name an op was written with (an unregistered op's own name)."""
    return op.op_name.data if hasattr(op, "op_name") else op.name  # type: ignore[attr-defined]


def attr_of(op: Operation, key: str) -> Attribute | None:
    """An op's attribute or property (the generic form may hold either)."""
    return op.properties.get(key, op.attributes.get(key))


def unregistered_body(attr: Attribute | None, name: str) -> str | None:
    """The text between `<` and `>` of an attribute `#name<...>` xDSL kept unparsed, else None."""
    attr_name = getattr(attr, "attr_name", None)
    if attr_name is None or attr_name.data != name:
        return None
    return attr.value.data  # type: ignore[union-attr]


def dense_array(attr: DenseIntOrFPElementsAttr) -> np.ndarray:
    """The values of a dense elements attribute as an array of its shape (a splat filled in)."""
    vals = np.asarray(attr.get_values())
    s = tuple(attr.get_shape())
    return np.broadcast_to(vals.reshape(()), s) if vals.size == 1 and math.prod(s) != 1 else vals.reshape(s)


def dense_attr(values: np.ndarray, t: TensorType) -> DenseIntOrFPElementsAttr:
    """A dense elements attribute of type `t` holding `values` (one splat value when all are equal)."""
    flat = np.asarray(values).reshape(-1)
    if flat.size > 1 and np.all(flat == flat[0]):
        flat = flat[:1]  # a splat
    is_int = isinstance(t.element_type, IntegerType)
    data = [int(v) for v in flat] if is_int else [float(v) for v in flat]
    return DenseIntOrFPElementsAttr.from_list(t, data)


_HEX_FLOAT = re.compile(r"dense<0x([0-9A-Fa-f]+)>(\s*:\s*tensor<[^>]*?)(f32|f16|bf16)>")
_FLOAT_BITS = {"f32": (np.uint32, np.float32), "f16": (np.uint16, np.float16), "bf16": (np.uint32, np.float32)}


def _hex_float(m: re.Match) -> str:
    bits, kind = int(m.group(1), 16), m.group(3)
    ints, floats = _FLOAT_BITS[kind]
    if bits >= 1 << (16 if kind == "bf16" else np.iinfo(ints).bits):
        return m.group(0)  # more bits than the type holds: left for the parser to refuse, located
    value = np.array([bits << 16 if kind == "bf16" else bits], dtype=ints).view(floats)[0]
    if np.isnan(value):
        return m.group(0)
    if np.isinf(value):  # MLIR has no decimal infinity: the largest finite value of the type stands in
        value = np.sign(value) * np.finfo(floats).max
    return f"dense<{float(value)!r}>{m.group(2)}{kind}>"


def decimal_splats(text: str) -> str:
    """`dense<0xFF800000> : tensor<f32>` (MLIR's hex spelling of a float splat, which xDSL 0.74 reads
    as an integer) -> the decimal value; +-inf become the type's largest finite value."""
    return _HEX_FLOAT.sub(_hex_float, text)
