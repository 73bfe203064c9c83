"""meshc's IR printed in tt-mlir's spelling (`meshc-opt --emit=ttmlir`), the inverse of
meshc/dialects/ttmlir_spelling.py's reading.

What changes from meshc's own print:
* `#tt.X` / `!tt.X` attributes and types are `#ttcore.X` / `!ttcore.X`, and the enums meshc keeps
  in ttir (`#ttir.shard_type`, `#ttir.shard_direction`, `#ttir.reduce_type`) are `#ttcore.` ones;
* the module's `tt.device`, `tt.system_desc`, `tt.meshes` are `ttcore.device`, ...;
* an op's own (declared) attributes are printed as properties, `<{cluster_axis = 1 : ui32}>`;
* `ttir.all_reduce {async}` is `ttir.all_reduce_async` (and so for ttnn).
Ops are printed in generic form, as tt-mlir's own tests write them. Ops tt-mlir does not have
(meshc's `ttir.reshard`, `ttir.sharding_constraint`, the MoE ops of the MoE resharding notes)
keep meshc's names: lower them first (the pipelines do) when the output is for tt-mlir.
Reading the output back with meshc gives the module it was printed from (test/lit/tools).
"""

from __future__ import annotations

import re
from io import StringIO

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.irdl import IRDLOperation
from xdsl.printer import Printer

from meshc.dialects.ttmlir_spelling import ENUM_SYNONYMS, NORMALIZED_DIALECTS

_ASYNC_FLAG = "async"
_MODULE_KEYS = re.compile(r"(?<![\w.#!$%@\"])tt\.(?=\w+ = )")
_TT_NAMES = re.compile(r"(?<![\w.])([#!])tt\.")
_ENUMS = re.compile(r"#ttir\.(" + "|".join(sorted({k.split(".", 1)[1] for k in ENUM_SYNONYMS})) + r")<")


def _as_ttmlir_op(op: Operation) -> Operation:
    """A copy of one ttir / ttnn op with its declared attributes as properties (and an async
    all_reduce under tt-mlir's own name)."""
    if not isinstance(op, IRDLOperation) or op.name.split(".", 1)[0] not in NORMALIZED_DIALECTS:
        return op
    declared = type(op).get_irdl_definition().attributes
    for key in [k for k in op.attributes if k in declared]:
        op.properties[key] = op.attributes.pop(key)
    if _ASYNC_FLAG in op.attributes:
        del op.attributes[_ASYNC_FLAG]
        op.name = op.name + "_async"  # the instance's name; the class stays meshc's  # type: ignore[misc]
    return op


def print_ttmlir(module: ModuleOp) -> str:
    """The module's text in tt-mlir's spelling (see the module docstring); `module` is unchanged."""
    copy = module.clone()
    for op in copy.walk():
        _as_ttmlir_op(op)
    stream = StringIO()
    Printer(stream=stream, print_generic_format=True).print_op(copy)
    text = stream.getvalue() + "\n"
    text = _ENUMS.sub(lambda m: f"#ttcore.{m.group(1)}<", text)
    text = _TT_NAMES.sub(lambda m: f"{m.group(1)}ttcore.", text)
    return _MODULE_KEYS.sub("ttcore.", text)
