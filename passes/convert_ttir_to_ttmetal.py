"""`convert-ttir-to-ttmetal`: lower ttir to mesh buffers and programs over core grids.

Every device tensor gets a `ttmetal.create_buffer` whose memory config comes from its
`#tt.metal_layout` (as for TTNN); host tensors enter through `enqueue_write_buffer`
(`ttir.mesh_shard full_to_shard` distributes with its shard_dims, a function argument is
replicated) and leave through `enqueue_read_buffer`. Each compute op becomes an
`enqueue_program` over its result's core grid (2-d, from the layout; a reinterpreted grid
runs on the cores its `core_map` names) whose kernel reads blocks, computes on them and
writes its block. Lowered: elementwise unary/binary (broadcasting a row or a column),
typecast, 2-d matmul (with transposes; a batched `a` times a 2-d `b` folds the batch into the
rows), 2-d transpose, reductions over the last (or, in 2-d, the first) dim with keep_dim,
softmax over the last dim, to_layout, constant (`enqueue_write_constant`), empty and the
collectives (`enqueue_ccl`). Anything else is a located error naming the op and why: never
a silently wrong lowering.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import VerifyException

from meshc.diagnostics import LocatedError
from meshc.layout.collectives import COLLECTIVES
from meshc.layout.shapes import fold_2d
from meshc.dialects.ttnn import MemoryConfigAttr
from meshc.layout.memory_config import MemoryConfig
from meshc.passes.lowering_utils import distribution_attrs, encoding_of, memory_config_for, module_mesh, prod

_UNARY = {"ttir.exp", "ttir.log", "ttir.relu", "ttir.sigmoid", "ttir.tanh", "ttir.gelu", "ttir.neg", "ttir.sqrt", "ttir.erf",
          "ttir.typecast"}
_BINARY = {"ttir.add", "ttir.subtract", "ttir.multiply", "ttir.div", "ttir.maximum", "ttir.minimum", "ttir.pow",
           "ttir.eq", "ttir.ne", "ttir.gt", "ttir.ge", "ttir.lt", "ttir.le"}
_REDUCE = {"ttir.sum", "ttir.mean", "ttir.max"}


def lowers_to_ccl(name: str) -> bool:
    """Every collective kind of meshc.layout.collectives lowers to `ttmetal.enqueue_ccl`."""
    return name.startswith("ttir.") and name[len("ttir."):] in COLLECTIVES


def _sel(*s: str) -> ArrayAttr:
    return ArrayAttr([StringAttr(x) for x in s])


class _Kernel:
    """Builds one enqueue_program: its buffers, grid and the kernel block."""

    def __init__(self, buffers: list[SSAValue], grid: tuple[int, int], core_map: Attribute | None, loc):
        from meshc.dialects import ttmetal

        self.tm = ttmetal
        self.buffers = buffers
        self.grid = grid
        self.core_map = core_map
        self.block = Block(arg_types=[b.type for b in buffers])
        self.loc = loc

    def _add(self, op: Operation) -> Operation:
        op.location = self.loc
        self.block.add_op(op)
        return op

    def _block_type(self, buf: SSAValue, sel: tuple[str, str]) -> TensorType:
        shape = self.tm.block_shape(buf.type.get_shape(), sel, self.grid)
        return TensorType(buf.type.element_type, shape)

    def read(self, i: int, sel: tuple[str, str]) -> SSAValue:
        arg = self.block.args[i]
        op = self.tm.ReadTilesOp.create(operands=[arg], result_types=[self._block_type(self.buffers[i], sel)],
                                        attributes={"select": _sel(*sel)})
        return self._add(op).results[0]

    def write(self, v: SSAValue, i: int, sel: tuple[str, str]) -> None:
        self._add(self.tm.WriteTilesOp.create(operands=[v, self.block.args[i]], attributes={"select": _sel(*sel)}))

    def unary(self, kind: str, v: SSAValue, elem: Attribute | None = None) -> SSAValue:
        t = v.type if elem is None else TensorType(elem, v.type.get_shape())
        return self._add(self.tm.TileUnaryOp.create(operands=[v], result_types=[t], attributes={"op": StringAttr(kind)})).results[0]

    def binary(self, kind: str, a: SSAValue, b: SSAValue) -> SSAValue:
        from meshc.dialects.shape_rules import broadcast_shapes

        shape = broadcast_shapes(tuple(a.type.get_shape()), tuple(b.type.get_shape()))
        t = TensorType(a.type.element_type, shape)
        return self._add(self.tm.TileBinaryOp.create(operands=[a, b], result_types=[t], attributes={"op": StringAttr(kind)})).results[0]

    def where(self, c: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        from meshc.dialects.shape_rules import broadcast_shapes

        shape = broadcast_shapes(broadcast_shapes(tuple(c.type.get_shape()), tuple(a.type.get_shape())),
                                 tuple(b.type.get_shape()))
        t = TensorType(a.type.element_type, shape)
        return self._add(self.tm.TileWhereOp.create(operands=[c, a, b], result_types=[t])).results[0]

    def matmul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        t = TensorType(a.type.element_type, (a.type.get_shape()[0], b.type.get_shape()[1]))
        return self._add(self.tm.TileMatmulOp.create(operands=[a, b], result_types=[t])).results[0]

    def transpose(self, v: SSAValue) -> SSAValue:
        s = v.type.get_shape()
        t = TensorType(v.type.element_type, (s[1], s[0]))
        return self._add(self.tm.TileTransposeOp.create(operands=[v], result_types=[t])).results[0]

    def reduce(self, kind: str, v: SSAValue, dim: int) -> SSAValue:
        s = list(v.type.get_shape())
        s[dim] = 1
        t = TensorType(v.type.element_type, s)
        return self._add(self.tm.TileReduceOp.create(
            operands=[v], result_types=[t],
            attributes={"op": StringAttr(kind), "dim": IntegerAttr(dim, i64)})).results[0]

    def build(self) -> Operation:
        self._add(self.tm.KernelEndOp.create())
        attrs: dict[str, Attribute] = {"grid": DenseArrayBase.from_list(i64, list(self.grid))}
        if self.core_map is not None:
            attrs["core_map"] = self.core_map
        op = self.tm.EnqueueProgramOp.create(operands=self.buffers, attributes=attrs, regions=[Region(self.block)])
        op.location = self.loc
        return op


def _grid_of(t: TensorType, op: Operation) -> tuple[int, int]:
    enc = encoding_of(t)
    if enc is None or enc.name != "tt.metal_layout":
        raise LocatedError(f"convert-ttir-to-ttmetal: the result {t} has no #tt.metal_layout; run ttir-layout first", op)
    g = tuple(enc.model().grid)
    if len(g) == 1:
        return (1, g[0])
    if len(g) != 2:
        raise LocatedError(
            f"convert-ttir-to-ttmetal: programs run on 2-d core grids of a chip; the layout grid "
            f"{'x'.join(map(str, g))} of {t} has rank {len(g)}", op)
    return g[0], g[1]


@dataclass(frozen=True)
class ConvertTTIRToTTMetalPass(ModulePass):
    name = "convert-ttir-to-ttmetal"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for f in [x for x in op.walk() if isinstance(x, func.FuncOp)]:
            if f.body.blocks:
                _FuncLowering(op, f).run()
        from meshc.passes.lowering_utils import fix_function_types

        fix_function_types(op)


class _FuncLowering:
    def __init__(self, module: ModuleOp, f: func.FuncOp):
        from meshc.dialects import ttir, ttmetal

        self.ttir, self.tm = ttir, ttmetal
        self.module = module
        self.f = f
        self.block: Block = f.body.blocks[0]
        self.mesh = module_mesh(module)
        self.buffers: dict[SSAValue, SSAValue] = {}
        self.created: list[SSAValue] = []

    # ------------------------------------------------------------------ buffers

    def insert(self, new: Operation, before: Operation, loc) -> Operation:
        new.location = loc
        Rewriter.insert_op(new, InsertPoint.before(before))
        return new

    def create_buffer(self, t: TensorType, before: Operation, origin: Operation, host: bool = False) -> SSAValue:
        shape = tuple(t.get_shape())
        attrs: dict[str, Attribute] = {}
        if host or encoding_of(t) is None:
            cfg, tile = MemoryConfig("dram", "interleaved"), ((32, 32) if len(shape) >= 2 else None)
        else:
            cm = origin.attributes.get("core_map")
            cfg, tile, _ = memory_config_for(t, origin, cm if isinstance(cm, AffineMapAttr) else None, "TTMetal")
        attrs["memory_config"] = MemoryConfigAttr.from_model(cfg)
        if tile is not None:
            attrs["tile"] = DenseArrayBase.from_list(i64, list(tile))
        new = self.tm.CreateBufferOp.create(result_types=[self.tm.BufferType(shape, t.element_type)], attributes=attrs)
        self.insert(new, before, origin.location)
        self.created.append(new.results[0])
        return new.results[0]

    def buffer_of(self, v: SSAValue, user: Operation) -> SSAValue:
        hit = self.buffers.get(v)
        if hit is not None:
            return hit
        if not isinstance(v.owner, Block):
            raise LocatedError("convert-ttir-to-ttmetal: operand is not a device tensor", user)
        # a host argument: replicate it onto every device
        first = self.block.first_op
        buf = self.create_buffer(v.type, first, user, host=True)
        self.write(v, buf, [-1] * len(self.mesh), first, user)
        self.buffers[v] = buf
        return buf

    def write(self, v: SSAValue, buf: SSAValue, shard_dims, before: Operation, origin: Operation) -> None:
        attrs = self.distribution(v.type, shard_dims, origin)
        self.insert(self.tm.EnqueueWriteBufferOp.create(operands=[v, buf], attributes=attrs), before, origin.location)

    def distribution(self, full: TensorType, shard_dims, origin: Operation) -> dict[str, Attribute]:
        attrs: dict[str, Attribute] = {"shard_dims": DenseArrayBase.from_list(i64, list(shard_dims))}
        if prod(self.mesh) > 1:
            d = distribution_attrs(tuple(full.get_shape()), full.element_type, self.mesh, list(shard_dims), origin)
            attrs["form"] = d["form"]
            if "config" in d:
                attrs["config"] = d["config"]
        return attrs

    # ------------------------------------------------------------------ driver

    def run(self) -> None:
        for o in list(self.block.ops):
            if isinstance(o, func.ReturnOp):
                self.lower_return(o)
            elif o.dialect_name() == "ttir":
                try:
                    self.lower(o)
                except VerifyException as e:
                    raise LocatedError(f"convert-ttir-to-ttmetal cannot lower this op: {e}", o) from None
        for o in reversed(self.pending):
            o.detach()
            o.erase()

    def lower_return(self, ret: func.ReturnOp) -> None:
        for i, v in enumerate(ret.operands):
            buf = self.buffers.get(v)
            if buf is None:
                continue
            rt = TensorType(v.type.element_type, v.type.get_shape())
            if prod(self.mesh) > 1:  # the result stays distributed: every device's tensor is read back
                new = self.tm.EnqueueReadShardsOp.create(operands=[buf], result_types=[rt])
            else:
                new = self.tm.EnqueueReadBufferOp.create(operands=[buf], result_types=[rt],
                                                         attributes={"shard_dims": DenseArrayBase.from_list(i64, [-1] * len(self.mesh))})
            self.insert(new, ret, ret.location)
            ret.operands[i] = new.results[0]
        for buf in self.created:
            self.insert(self.tm.DeallocateBufferOp.create(operands=[buf]), ret, ret.location)
        self.insert(self.tm.FinishOp.create(), ret, ret.location)

    def lower(self, o: Operation) -> None:
        ttir = self.ttir
        name = o.name
        if isinstance(o, ttir.MeshShardOp):
            dims = o.mesh_shard_dims(len(self.mesh))
            if o.is_full_to_shard:
                buf = self.create_buffer(o.result.type, o, o)
                self.write(o.input, buf, dims, o, o)
                self.buffers[o.result] = buf
                self._forget(o)
            else:
                src = self.buffer_of(o.input, o)
                attrs = self.distribution(o.result.type, dims, o)
                new = self.tm.EnqueueReadBufferOp.create(operands=[src], result_types=[o.result.type], attributes=attrs)
                self.insert(new, o, o.location)
                o.result.replace_all_uses_with(new.results[0])
                o.detach()
                o.erase()
            return
        if name == "ttir.constant":
            buf = self.create_buffer(o.results[0].type, o, o)
            self.insert(self.tm.EnqueueWriteConstantOp.create(operands=[buf], attributes={"value": o.value}), o, o.location)
            self.buffers[o.results[0]] = buf
            self._forget(o)
            return
        if name == "ttir.empty":
            self.buffers[o.results[0]] = self.create_buffer(o.results[0].type, o, o)
            self._forget(o)
            return
        if lowers_to_ccl(name):
            o.verify_()  # its shapes against the mesh the pipeline registered (unknown when it was parsed)
            src = self.buffer_of(o.operands[0], o)
            out = self.create_buffer(o.results[0].type, o, o)
            attrs = dict(o.attributes)
            attrs["kind"] = StringAttr(name[5:])
            self.insert(self.tm.EnqueueCclOp.create(operands=[src, out], attributes=attrs), o, o.location)
            self.buffers[o.results[0]] = out
            self._forget(o)
            return
        if name in _UNARY or name in _BINARY or name in _REDUCE or name in (
            "ttir.matmul", "ttir.transpose", "ttir.softmax", "ttir.to_layout", "ttir.where"
        ):
            self.program(o)
            return
        raise LocatedError(
            f"convert-ttir-to-ttmetal cannot lower '{name}': TTMetal kernels here cover elementwise ops "
            "(comparisons and where included), "
            "matmul, 2-d transpose, last-dim reductions and softmax, to_layout, constants and collectives", o)

    def _forget(self, o: Operation) -> None:
        """Drop a lowered ttir op; its uses are all lowered ops that read the buffer map."""
        for r in o.results:
            if r.uses and any(u.operation.dialect_name() not in ("ttir",) and not isinstance(u.operation, func.ReturnOp)
                              for u in r.uses):
                raise LocatedError("convert-ttir-to-ttmetal: a device tensor is used by a non-ttir op", o)
        self.pending.append(o)

    @property
    def pending(self) -> list[Operation]:
        if not hasattr(self, "_pending"):
            self._pending: list[Operation] = []
        return self._pending

    def program(self, o: Operation) -> None:
        out_t = o.results[0].type
        name = o.name
        grid = _grid_of(out_t, o)
        ins = [self.buffer_of(v, o) for v in o.operands]
        out = self.create_buffer(out_t, o, o)
        H, W = fold_2d(tuple(out_t.get_shape()))
        if name in _REDUCE or name == "ttir.softmax":
            grid = self._row_grid(o, grid)
        if H % grid[0] or W % grid[1]:
            raise LocatedError(
                f"convert-ttir-to-ttmetal: the result {H}x{W} (folded to 2-d) does not split evenly over the "
                f"core grid {grid[0]}x{grid[1]}", o)
        k = _Kernel([*ins, out], grid, o.attributes.get("core_map"), o.location)
        n = len(ins)
        yx = ("y", "x")
        if name in _UNARY:
            kind = name[5:]
            v = k.read(0, yx)
            k.write(k.unary(kind, v, out_t.element_type if kind == "typecast" else None), n, yx)
        elif name == "ttir.where":
            c, a, b = (k.read(i, self._bsel(o.operands[i], out_t, o)) for i in range(3))
            k.write(k.where(c, a, b), n, yx)
        elif name == "ttir.to_layout":
            k.write(k.unary("copy", k.read(0, yx)), n, yx)
        elif name in _BINARY:
            a = k.read(0, self._bsel(o.operands[0], out_t, o))
            b = k.read(1, self._bsel(o.operands[1], out_t, o))
            k.write(k.binary(name[5:], a, b), n, yx)
        elif name == "ttir.matmul":
            ta = self.ttir.bool_value(o.attributes.get("transpose_a"))
            tb = self.ttir.bool_value(o.attributes.get("transpose_b"))
            # (..., M, K) x (K, N): the batch dims of a fold into M, as the 2-d buffers store them;
            # a b whose batch dims are all 1 is 2-d (a transposed a must be 2-d the same way)
            a_batch = tuple(o.operands[0].type.get_shape())[:-2]
            b_batch = tuple(o.operands[1].type.get_shape())[:-2]
            folds = prod(b_batch) == 1 and (not ta or prod(a_batch) == 1)
            if not folds:
                raise LocatedError(
                    "convert-ttir-to-ttmetal lowers 2-d matmul, or a batched a (not transposed) times a 2-d b, "
                    f"only; b has batch dims {list(b_batch)}: fold them first", o)
            a = k.transpose(k.read(0, ("all", "y"))) if ta else k.read(0, ("y", "all"))
            b = k.transpose(k.read(1, ("x", "all"))) if tb else k.read(1, ("all", "x"))
            k.write(k.matmul(a, b), n, yx)
        elif name == "ttir.transpose":
            if len(out_t.get_shape()) != 2:
                raise LocatedError("convert-ttir-to-ttmetal lowers 2-d transpose only", o)
            k.write(k.transpose(k.read(0, ("x", "y"))), n, yx)
        elif name in _REDUCE:
            dims = o.reduced_dims()
            rank = len(o.input.type.get_shape())
            if not self.ttir.bool_value(o.attributes.get("keep_dim")):
                raise LocatedError(f"convert-ttir-to-ttmetal lowers '{name}' with keep_dim = true only", o)
            kind = name[5:]
            if dims == (rank - 1,):
                k.write(k.reduce(kind, k.read(0, ("y", "all")), 1), n, ("y", "all"))
            elif rank == 2 and dims == (0,):
                k.write(k.reduce(kind, k.read(0, ("all", "x")), 0), n, ("all", "x"))
            else:
                raise LocatedError(
                    f"convert-ttir-to-ttmetal lowers '{name}' over the last dim (or dim 0 of a 2-d tensor) only, "
                    f"not over dims {list(dims)}", o)
        elif name == "ttir.softmax":
            rank = len(out_t.get_shape())
            d = self.ttir.rules.normalize_dim(self.ttir.int_value(o.dimension), rank, "dimension")
            if d != rank - 1:
                raise LocatedError(f"convert-ttir-to-ttmetal lowers softmax over the last dim only, not dim {d}", o)
            x = k.read(0, ("y", "all"))
            e = k.unary("exp", k.binary("subtract", x, k.reduce("max", x, 1)))
            k.write(k.binary("div", e, k.reduce("sum", e, 1)), n, ("y", "all"))
        self.insert(k.build(), o, o.location)
        self.buffers[o.results[0]] = out
        self._forget(o)

    def _row_grid(self, o: Operation, grid: tuple[int, int]) -> tuple[int, int]:
        rank = len(o.operands[0].type.get_shape())
        if o.name in _REDUCE and rank == 2 and o.reduced_dims() == (0,):
            return (1, grid[1])
        return (grid[0], 1)

    def _bsel(self, v: SSAValue, out_t: TensorType, o: Operation) -> tuple[str, str]:
        s, os = tuple(v.type.get_shape()), tuple(out_t.get_shape())
        if s == os:
            return ("y", "x")
        h, w = fold_2d(s)
        H, W = fold_2d(os)
        padded = (1,) * (len(os) - len(s)) + s
        rows_ok = h == H and padded[:-1] == os[:-1] or h == 1
        if not rows_ok or w not in (1, W):
            raise LocatedError(
                f"convert-ttir-to-ttmetal broadcasts a row, a column or a scalar only; cannot broadcast "
                f"{list(s)} to {list(os)}", o)
        return ("y" if h == H and H != 1 else "all", "x" if w == W and W != 1 else "all")
