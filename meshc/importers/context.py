"""What an importer op handler may ask of the import in progress: the small protocol the
handlers of `stablehlo_ops.py` and `manual.py` annotate against, so that neither imports the
`Importer` class (`stablehlo.py`), which imports them: no import circle, not even in type
annotations. `located` turns a layout-model error into a located one, for the importer and the
handlers alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple, Protocol, TypeVar

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from meshc.errors import LocatedError
from meshc.importers.shardings import SdyMesh
from meshc.layout.errors import LayoutError
from meshc.layout.mesh import ShardingSpec

T = TypeVar("T")


class Reversed(NamedTuple):
    """A computed tensor reversed along `dims` by `op` (a `stablehlo.reverse`), held as the ttir
    `value` before the reverse until a use undoes it."""

    op: Operation
    value: SSAValue
    dims: tuple[int, ...]


def located(op: Operation, fn: Callable[[], T]) -> T:
    """`fn()`; its LayoutError or ValueError becomes a LocatedError at `op`."""
    try:
        return fn()
    except (LayoutError, ValueError) as e:
        raise LocatedError(str(e), op) from None


class ImportContext(Protocol):
    """The import of one entry function, as the op handlers see it (meshc.importers.stablehlo.Importer)."""

    source: ModuleOp
    """The StableHLO module being imported."""
    meshes: dict[str, SdyMesh]
    """Its `sdy.mesh` declarations by name."""
    mesh_shape: tuple[int, ...] | None
    """The device mesh the program runs on (None: not known)."""
    values: dict[SSAValue, SSAValue]
    """Source value -> the ttir value that holds it."""
    constants: dict[SSAValue, np.ndarray]
    """Source values known at import time, emitted on first use."""
    located_at: Operation | None
    """The source op being translated: emitted ops take its location."""
    reversed: dict[SSAValue, Reversed]
    """Source values that are a computed tensor reversed, not yet written (a scan or a second
    reverse along the same dims undoes it; any other use is the reverse's located error)."""
    funcs: dict[str, func.FuncOp]
    """The module's functions by name (a `func.call` names its callee)."""

    def emit(self, cls: type[Operation], operands: Sequence[SSAValue], result_type: Attribute,
             attributes: dict[str, Attribute] | None = None) -> SSAValue:
        """Append a ttir op at the source op's location; its result."""
        ...

    def value(self, v: SSAValue) -> SSAValue:
        """The ttir value of a source value."""
        ...

    def materialize(self, values: np.ndarray, t: TensorType) -> SSAValue:
        """A `ttir.constant` holding `values`."""
        ...

    def check_type(self, t: Attribute, at: Operation, what: str) -> TensorType:
        """`t` as a static ranked tensor of an element type the device holds, else a located error."""
        ...

    def spec_of(self, attr: Attribute, rank: int, at: Operation) -> ShardingSpec | None:
        """The meshc spec of a sharding attribute (None: not one)."""
        ...

    def constraint(self, x: SSAValue, spec: ShardingSpec, open_dims: Sequence[int] = ()) -> SSAValue:
        """A `ttir.sharding_constraint` of `x` to `spec` (`open_dims`: dims propagation may split further)."""
        ...

    def open_dims_of(self, attr: Attribute | None, at: Operation) -> tuple[int, ...]:
        """The dims a Shardy sharding attribute leaves open (`{?}`); () for any other."""
        ...

    def translate(self, op: Operation) -> None:
        """Translate one source op (its handler), at its location."""
        ...

    def inline_call(self, op: func.CallOp) -> None:
        """A `func.call`: the callee's body translated in its place, its results bound to the call's."""
        ...
