"""The golden run's side of `tt.storage` (meshc/dialects/tt/storage.py): an argument stored as a
block-float format on the devices enters the numpy reference rounded to that format, as the host
packs it for the devices, so the reference computes with the values the devices hold."""

from __future__ import annotations

import numpy as np
from xdsl.dialects import func
from xdsl.utils.exceptions import VerifyException

from meshc.dialects.tt.storage import stored_format
from meshc.errors import LocatedError
from meshc.sim.encoding import quantize


def round_stored(f: func.FuncOp, values: list) -> list:
    """`values` (one per argument of `f`) with each stored argument rounded to its format."""
    out = []
    for i, v in enumerate(values):
        try:
            fmt = stored_format(f, i)
        except VerifyException as e:
            raise LocatedError(str(e), f) from None
        out.append(v if fmt is None else quantize(np.asarray(v, np.float32), fmt).astype(np.asarray(v).dtype))
    return out
