"""The ttmetal simulator's tile ops that select and join elements within a core
(`ttmetal.tile_slice`, `ttmetal.tile_concat`, `ttmetal.tile_embedding`, meshc/dialects/ttmetal_select.py): numpy on the
core's blocks. The bytes they read and write cross the NOC in the read_tiles / write_tiles around
them, where the simulator counts them."""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import InterpreterFunctions, impl

from meshc.dialects.shape_rules import ints_of
from meshc.dialects.ttir.base import tensor_shape
from meshc.dialects.ttmetal_select import TileConcatOp, TileEmbeddingOp, TileSliceOp
from meshc.interp.common import located
from meshc.sim.compute import run_kernel


class TTMetalSelectImpls(InterpreterFunctions):
    @impl(TileSliceOp)
    @located
    def run_tile_slice(self, interpreter, op, args):
        x = args[0].reshape(ints_of(op.shape))
        sel = tuple(slice(b, e, s) for b, e, s in zip(ints_of(op.begins), ints_of(op.ends), ints_of(op.step)))
        return (np.ascontiguousarray(x[sel]).reshape(tensor_shape(op.result)),)

    @impl(TileConcatOp)
    @located
    def run_tile_concat(self, interpreter, op, args):
        parts = [a.reshape(s) for a, s in zip(args, op.piece_shapes())]
        y = np.concatenate(parts, axis=int(op.dim.value.data))
        return (y.reshape(tensor_shape(op.result)),)

    @impl(TileEmbeddingOp)
    @located
    def run_tile_embedding(self, interpreter, op, args):
        idx, table = args
        return (run_kernel("embedding", [idx.reshape(-1), table], {}).reshape(tensor_shape(op.result)),)
