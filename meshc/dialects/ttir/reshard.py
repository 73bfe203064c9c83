"""ttir placement changes: `ttir.reshard`, its explicit moves `ttir.point_to_point`, and
`ttir.all_slice` (the R -> S step a reshard lowers to; moves nothing).

`reshard-to-collectives` lowers a `ttir.reshard` into the collectives plus `ttir.all_slice`,
or into `ttir.point_to_point` when no walk of them meets the lower bound. What they compute is
defined once in meshc/layout/reshard.py; the interpreters run it (meshc/interp/spmd.py: the plan
of a reshard, the moves of a point_to_point). This file holds their syntax and verifiers."""

from __future__ import annotations

from xdsl.dialects.builtin import AnyTensorTypeConstr, DenseArrayBase, IntegerAttr, StringAttr
from xdsl.ir import Attribute, Operation
import numpy as np
from xdsl.dialects.builtin import i64
from xdsl.irdl import attr_def, base, irdl_op_definition, operand_def, opt_attr_def, result_def, traits_def
from xdsl.utils.exceptions import VerifyException

from meshc.dialects import shape_rules as rules
from meshc.dialects.ttir.attributes import TransfersAttr
from meshc.dialects.ttir.base import CollectiveBase, PerDevice, TTIROpBase, int_value, mesh_shape_of, tensor_shape
from meshc.layout.errors import LayoutError
from meshc.layout.mesh import Mesh
from meshc.layout.reshard import as_view
from meshc.layout.reshard.cells import device_bounds
from meshc.layout.reshard.transfer_table import PACKED_ABOVE, bad_transfer, pack, row_width
from meshc.layout.sharding_spec import parse_spec


def _spec_on_mesh(op: Operation, attr: Attribute, what: str):
    """A placement of `op` (a spec string or a `#tt.sharding`) written over the op's mesh (the
    module's `#tt.device`); a spec string without a mesh is on that mesh."""
    mesh_shape = mesh_shape_of(op)
    mesh = Mesh(mesh_shape if mesh_shape is not None else (1,))
    try:
        if isinstance(attr, StringAttr):
            try:
                spec = parse_spec(attr.data)
            except LayoutError as e:
                if "names no mesh" not in str(e):
                    raise
                spec = parse_spec(attr.data, mesh)
        elif attr.name == "tt.sharding":
            spec = attr.spec if attr.bound else attr.on_mesh(mesh.shape)  # type: ignore[attr-defined]
        else:
            raise VerifyException(f"{what} must be a sharding-spec string or a #tt.sharding attribute, got {attr}")
        return as_view(spec, mesh)
    except LayoutError as e:
        raise VerifyException(f"{what}: {e}") from None


def placement_specs(op: Operation):
    """The (source, target) specs of an op carrying a reshard's `source` and `target` attributes
    (ttir / ttnn reshards and point_to_point, a ttmetal.enqueue_ccl of kind point_to_point)."""
    return (_spec_on_mesh(op, op.attributes["source"], "source"),
            _spec_on_mesh(op, op.attributes["target"], "target"))


class ReshardBase(TTIROpBase):
    """Change the placement of a tensor from `source` to `target` (sharding-spec strings, e.g.
    `"[S0, R]"` on the module's mesh or `"[E=8/EP=8, B, C, M]"` on another view of its devices).
    Operand and result are the per-device buffers. Without `full_shape` the splits are even and
    the tensor is the buffer times the pieces; `full_shape = array<i64: ...>` states the tensor,
    whose uneven splits are held padded (`ShardingSpec.buffer_shape`: ceil(n / k) a dim)."""

    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    source = attr_def(Attribute)
    """A sharding-spec string or a `#tt.sharding` attribute."""
    target = attr_def(Attribute)
    full_shape = opt_attr_def(DenseArrayBase)
    """The global shape, when a split is uneven (else the buffer times the pieces)."""
    traits = traits_def(PerDevice())

    def specs(self):
        return placement_specs(self)

    def global_shape(self) -> tuple[int, ...]:
        src, _ = self.specs()
        local = tensor_shape(self.input)
        if len(local) != src.rank:
            raise VerifyException(f"source spec {src} has {src.rank} dims but the operand has rank {len(local)}")
        if self.full_shape is not None:
            full = tuple(rules.ints_of(self.full_shape))
            if len(full) != src.rank or any(n < 0 for n in full) or src.buffer_shape(full) != local:
                raise VerifyException(f"full_shape {list(full)} split by the source spec {src} makes buffers of "
                                      f"{list(src.buffer_shape(full)) if len(full) == src.rank else '?'}, "
                                      f"but the operand is {rules.fmt(local)}; expected ceil(n / pieces) a dim")
            return full
        return tuple(n * src.num_pieces(d) for d, n in enumerate(local))

    def target_shape(self) -> tuple[int, ...]:
        """The tensor the target spec splits: the operand's (a point_to_point's window may cut it)."""
        return self.global_shape()

    def verify_(self) -> None:
        if mesh_shape_of(self) is None:
            return
        src, tgt = self.specs()
        source_full = self.global_shape()
        full = self.target_shape()
        if tgt.rank != len(full):
            raise VerifyException(f"target spec {tgt} has {tgt.rank} dims but the tensor has rank {len(full)}")
        for d, n in enumerate(full):
            k = tgt.num_pieces(d)
            if n % k and self.full_shape is None and full == source_full:
                raise VerifyException(f"target spec {tgt} splits dim {d} of the {rules.fmt(full)} tensor "
                                      f"into {k} pieces, which do not divide {n}; state the tensor's "
                                      f"full_shape for an uneven split (held padded)")
        for spec, what, shape in ((src, "source", source_full), (tgt, "target", full)):
            for d, (decl, n) in enumerate(zip(spec.dim_sizes, shape)):
                if decl is not None and decl != n:
                    raise VerifyException(f"{what} spec declares dim {d} of size {decl}, but the operand makes it {n}")
        self.expect_result(tgt.buffer_shape(full))


@irdl_op_definition
class ReshardOp(ReshardBase):
    name = "ttir.reshard"


def transfers_attr(rows) -> Attribute:
    """The `transfers` attribute of a point_to_point moving `rows` ((n, 3 + 2r) integers):
    `array<i64: ...>`, or `#ttir.transfers<...>` (packed) for more than PACKED_ABOVE numbers."""
    rows = np.asarray(rows, dtype=np.int64)
    if rows.size > PACKED_ABOVE:
        return TransfersAttr((int(rows.shape[0]), int(rows.shape[1]), pack(rows)))
    return DenseArrayBase.from_list(i64, [int(x) for x in rows.reshape(-1)])


def transfer_rows(attr: Attribute, rank: int) -> np.ndarray:
    """The (n, 3 + 2 rank) rows of a `transfers` attribute in either form; VerifyException when
    they are not whole rows."""
    width = row_width(rank)
    if isinstance(attr, TransfersAttr):
        rows = attr.rows()
        if rows.shape[1] != width:
            raise VerifyException(f"transfers has rows of {rows.shape[1]} numbers, expected {width} ([step, src, dst] "
                                  f"then lo, hi per dim of the rank-{rank} tensor)")
        return rows
    vals = np.asarray(rules.ints_of(attr), dtype=np.int64)
    if len(vals) % width:
        raise VerifyException(f"transfers holds {len(vals)} numbers, not a whole number of rows of {width} "
                              f"([step, src, dst] then lo, hi per dim of the rank-{rank} tensor)")
    return vals.reshape(-1, width)


class PointToPointBase(ReshardBase):
    """A reshard written as its explicit moves (what `reshard-to-collectives` emits when no walk
    of uniform collectives meets the lower bound). `source` / `target` are as on `ttir.reshard`;
    `transfers` is an `array<i64: ...>` of rows of 3 + 2r numbers (r: the rank), one row a
    move: `step, src, dst, lo_0, hi_0, ..., lo_r-1, hi_r-1` sends the global index box
    `[lo, hi)` of the tensor from device `src` into device
    `dst`. Every device first keeps what it holds of its target piece; the moves of one step all
    read before any writes, and a later step may forward what an earlier one delivered.

    `window = array<i64: lo_0, hi_0, ...>` (optional) makes it a windowed move
    (meshc/layout/reshard/window.py): the target spec splits the box `window` of the tensor
    (a slice, or an operand's place in a concatenation: it may reach past the tensor, where the
    result holds zeros), and a device's target piece is its box of the window shifted by the
    window's start, in the tensor's coordinates as the transfers are."""

    transfers = attr_def(base(DenseArrayBase) | base(TransfersAttr))
    window = opt_attr_def(DenseArrayBase)

    def window_box(self):
        """The window as a box (None without one); VerifyException when it is not a box."""
        if self.window is None:
            return None
        vals = rules.ints_of(self.window)
        rank = len(tensor_shape(self.input))
        if len(vals) != 2 * rank or any(hi < lo for lo, hi in zip(vals[::2], vals[1::2])):
            raise VerifyException(f"window {list(vals)} must be lo, hi per dim of the rank-{rank} tensor with lo <= hi")
        return tuple(zip(vals[::2], vals[1::2]))

    def target_shape(self) -> tuple[int, ...]:
        box = self.window_box()
        return self.global_shape() if box is None else tuple(hi - lo for lo, hi in box)

    def rows(self) -> np.ndarray:
        """The moves, one row each (transfer_rows: either form of `transfers`)."""
        return transfer_rows(self.transfers, len(tensor_shape(self.input)))

    def verify_(self) -> None:
        if mesh_shape_of(self) is None:
            return
        super().verify_()
        src, tgt = self.specs()
        full = self.global_shape()
        box = self.window_box()
        shift = (0,) * len(full) if box is None else tuple(lo for lo, _ in box)
        try:
            pieces = device_bounds(tgt, self.target_shape())
        except LayoutError as e:
            raise VerifyException(str(e)) from None
        problem = bad_transfer(self.rows(), src.mesh.size, full, pieces, shift)
        if problem is not None:
            raise VerifyException(problem)


@irdl_op_definition
class PointToPointOp(PointToPointBase):
    name = "ttir.point_to_point"


class AllSliceBase(CollectiveBase):
    """Each device keeps piece i of `slice_dim`, i being its coordinate on `cluster_axis`
    (the R -> S step of a reshard; moves nothing)."""

    slice_dim = attr_def(IntegerAttr)

    def expected_shape(self, shape: tuple[int, ...], n: int) -> tuple[int, ...]:
        d = rules.normalize_dim(int_value(self.slice_dim), len(shape), "slice_dim")
        return shape[:d] + (rules.divide(shape[d], n, f"slice_dim {d}"),) + shape[d + 1 :]


@irdl_op_definition
class AllSliceOp(AllSliceBase):
    name = "ttir.all_slice"
