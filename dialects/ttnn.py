"""The ttnn dialect: memory configs, mesh distribution attributes and TTNN-level ops.

The file has three sections, each owned by one part of meshc; each appends its classes to
`_ATTRIBUTES` / `_OPS`, and the `Dialect` object at the end is built from those lists.
"""

from __future__ import annotations

from xdsl.ir import Dialect

_ATTRIBUTES: list = []
_OPS: list = []

# ---- memory attributes (issue 3) ----


# ---- mesh distribution attributes (issue 4) ----


# ---- ops (issue 5) ----


TTNN = Dialect("ttnn", _OPS, _ATTRIBUTES)
