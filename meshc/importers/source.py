"""Reading a parsed StableHLO module: op names, attributes xDSL kept unparsed, dense constants.

The importer parses StableHLO with xDSL allowing unregistered ops, so an op is an
`UnregisteredOp` carrying its own name, its attributes may sit in its properties or its
attribute dictionary (the generic form prints both), and dialect attributes xDSL does not know
(`#stablehlo.dot<...>`, `#sdy.sharding<...>`) keep their body as text.
"""

from __future__ import annotations

import math

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
    """The values of a dense elements attribute as an array of its shape (a splat filled in); a
    boolean (i1) is 1 or 0 (xDSL reads true as the signless bit's -1)."""
    vals = np.asarray(attr.get_values())
    if attr.get_element_type() == IntegerType(1):
        vals = (vals != 0).astype(np.uint8)
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
