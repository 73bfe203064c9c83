"""`ttir-to-ttmetal-pipeline`'s refusal of `tt.storage` (meshc/dialects/tt/storage.py): TTMetal's
mesh buffers hold their tensors' element type, so an argument stored as a block-float format
would be computed on as its element type while the golden run rounds it. A located error at the
function names the argument and the pipeline that carries the format (ttir-to-ttnn-pipeline)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import VerifyException

from meshc.dialects.tt.storage import stored_arguments
from meshc.errors import LocatedError


@dataclass(frozen=True)
class RefuseStoragePass(ModulePass):
    name = "ttmetal-refuse-storage"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for f in op.walk():
            if not isinstance(f, func.FuncOp) or not f.body.blocks:
                continue
            try:
                stored = stored_arguments(f)
            except VerifyException as e:
                raise LocatedError(str(e), f) from None
            if stored:
                i, fmt = stored[0]
                raise LocatedError(f"argument #{i} is stored as {fmt} (tt.storage), which ttir-to-ttmetal-pipeline "
                                   "does not carry (its mesh buffers hold the element type): lower with "
                                   "ttir-to-ttnn-pipeline, or drop tt.storage", f)
