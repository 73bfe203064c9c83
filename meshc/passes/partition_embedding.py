"""`ttir-partition`'s vocab-parallel embedding: a table whose rows (the vocabulary) are split over
mesh axes is looked up where it lies, never gathered.

The embedding rule makes the table's rows a `sum` factor (meshc/layout/sharding_factors.py): a
table split over axes A gives a result holding partial sums over A. Each device holds rows
[o, o + V/k) of the table (o its row offset, k the devices along A) and computes

    local   = ids - o                      (the indices in its rows' numbering)
    clamped = minimum(maximum(local, 0), V/k - 1)
    rows    = embedding(clamped, table piece) * (clamped == local)

the rows it holds and 0 for the others, so the sum over A is the lookup, an all_reduce of the
result (Megatron-LM's vocab-parallel embedding, a masked local lookup and an all-reduce). The
offset o comes from a constant [0, V/k, 2 V/k, ...] split over A: each device holds its own
(no link traffic: a reshard from replicated to split is a local slice).
"""

from __future__ import annotations


import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Operation, SSAValue

from meshc.dialects import ttir
from meshc.dialects.ttir.base import tensor_shape
from meshc.layout.mesh import ShardingSpec
from meshc.layout.sharding_rules import replicated
from meshc.passes.partition_protocol import Partitioner

OPS = ttir.COMPUTE_OPS


def _splat(p: Partitioner, value: int, t: TensorType, before: Operation) -> SSAValue:
    attr = DenseIntOrFPElementsAttr.from_list(t, [value])
    return p.insert(ttir.ConstantOp.create(result_types=[t], attributes={"value": attr}), before).results[0]


def vocab_parallel_lookup(p: Partitioner, op: Operation, axes: tuple[int, ...]) -> None:
    """Rewrite the local `ttir.embedding` `op`, whose table rows are split over `axes`, into the
    masked lookup of the module docstring; its result keeps its spec (partial sums over `axes`)."""
    ids, table = op.operands
    it = ids.type
    assert isinstance(it, TensorType)
    ishape = tensor_shape(ids)
    rows = tensor_shape(table)[0]
    k = int(np.prod([p.mesh.shape[a] for a in axes]))
    # the row offsets, one a device along `axes`: replicated, then split (each keeps its own)
    ot = TensorType(it.element_type, [k])
    offsets = DenseIntOrFPElementsAttr.from_list(ot, [int(i * rows) for i in range(k)])
    c = p.insert(ttir.ConstantOp.create(result_types=[ot], attributes={"value": offsets}), op).results[0]
    p.spec[c], p.globals[c] = replicated(p.mesh, 1), (k,)
    mine = p.reshard(c, ShardingSpec(p.mesh, (axes,)), op)

    def emit(kind: str, operands: list[SSAValue], t: TensorType) -> SSAValue:
        return p.insert(OPS[kind].create(operands=operands, result_types=[t]), op).results[0]

    one = TensorType(it.element_type, [1] * len(ishape))
    off = p.insert(OPS["reshape"].create(operands=[mine], result_types=[one]), op).results[0] if ishape else mine
    local = emit("subtract", [ids, off], it)
    low = emit("maximum", [local, _splat(p, 0, it, op)], it)
    clamped = emit("minimum", [low, _splat(p, rows - 1, it, op)], it)
    inside = emit("eq", [clamped, local], it)
    op.operands[0] = clamped
    out = op.results[0]
    ot_ = out.type
    assert isinstance(ot_, TensorType)
    mask_t = TensorType(ot_.element_type, [*ishape, 1])
    after = op.next_op
    assert after is not None
    mask = p.insert(OPS["typecast"].create(operands=[inside], result_types=[TensorType(ot_.element_type, ishape)]),
                    after).results[0]
    mask = p.insert(OPS["reshape"].create(operands=[mask], result_types=[mask_t]), after).results[0]
    masked = p.insert(OPS["multiply"].create(operands=[out, mask], result_types=[ot_]), after)
    out.replace_uses_with_if(masked.results[0], lambda use: use.operation is not masked)
    p.spec[masked.results[0]], p.globals[masked.results[0]] = p.spec[out], p.globals[out]
