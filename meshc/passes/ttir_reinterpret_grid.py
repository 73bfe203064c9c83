"""`ttir-reinterpret-grid`: tt-mlir's Device spec's transpose trick, a transpose with no data movement.

A 2-d `ttir.transpose` whose operand is block-sharded on a core grid R x C (placed as the
identity, logical core (i, j) on physical core (i, j)) gets a result on the grid C x R
*reinterpreted* as transposed: the attribute `core_map = affine_map<(d0, d1) -> (d1, d0)>`
says the result's logical core (i, j) is physical core (j, i). Result block (i, j) is the
transpose of operand block (j, i), which already sits on physical core (j, i): every core
transposes its own data, nothing crosses cores. Elementwise ops that consume only
reinterpreted tensors with the same grid run on the reinterpreted grid too (tt-mlir's Device spec's
`relu(aT)`), so they move nothing either. Run after `ttir-layout`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp, TensorType
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from meshc.passes.lowering_utils import encoding_of, with_encoding
from meshc.dialects import ttir
from meshc.dialects.tt import MetalLayoutAttr
from meshc.layout.metal_layout import build_metal_layout
from meshc.passes.lowering_utils import fix_function_types

TRANSPOSED = AffineMapAttr(AffineMap.from_callable(lambda d0, d1: (d1, d0)))


def core_map_of(op) -> AffineMapAttr | None:
    a = op.attributes.get("core_map") if op is not None else None
    return a if isinstance(a, AffineMapAttr) else None


@dataclass(frozen=True)
class TTIRReinterpretGridPass(ModulePass):
    name = "ttir-reinterpret-grid"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for o in op.walk():
            if isinstance(o, ttir.COMPUTE_OPS["transpose"]):
                t_in, t_out = o.input.type, o.result.type
                assert isinstance(t_in, TensorType) and isinstance(t_out, TensorType)
                enc = encoding_of(t_in)
                if len(t_in.get_shape()) != 2 or not isinstance(enc, MetalLayoutAttr):
                    continue
                if core_map_of(o.input.owner) is not None:
                    continue  # operand already reinterpreted: transposing back would need its own map
                lin = enc.model()
                if len(lin.grid) != 2:
                    continue
                r, c = lin.grid
                h, w = t_in.get_shape()
                tile = lin.element.shape if lin.tiled else None
                unit = tile or (1, 1)
                # equal blocks only: then block (i, j) of the result is exactly block (j, i) transposed
                if h % (r * unit[0]) or w % (c * unit[1]) or (tile and tile[0] != tile[1]):
                    continue
                new = build_metal_layout(
                    (w, h), (c, r), memory_space=lin.memory_space, dtype=lin.dtype.name, tile=tile, oob=lin.oob
                )
                Rewriter.replace_value_with_new_type(o.result, with_encoding(t_out, MetalLayoutAttr.from_model(new)))
                o.attributes["core_map"] = TRANSPOSED
            elif isinstance(o, (ttir.ElementwiseUnaryBase, ttir.ElementwiseBinaryBase)):
                ins = list(o.operands)
                maps = [core_map_of(v.owner) if hasattr(v.owner, "attributes") else None for v in ins]
                if not maps or any(m is None for m in maps):
                    continue
                types = {v.type for v in ins}
                if len(types) != 1 or o.result.type.get_shape() != ins[0].type.get_shape():
                    continue
                if o.result.type.element_type != ins[0].type.element_type:
                    continue
                Rewriter.replace_value_with_new_type(o.result, ins[0].type)
                o.attributes["core_map"] = maps[0]
        fix_function_types(op)
