"""Shape rules of the ttir / ttnn ops, as plain functions that raise VerifyException.

Each rule computes the shape an op must produce from its operand shapes and attributes, or
says precisely what is wrong (naming the dim, the rank, both shapes). The op verifiers in
meshc/dialects/ttir/ and meshc/dialects/ttnn/ call them; the passes use them to build result types.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, DenseIntOrFPElementsAttr, IntAttr, IntegerAttr
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException

from meshc.layout.mesh import dims_from_shard_dims
from meshc.dialects.element_types import data_type_name
from meshc.layout.errors import LayoutError
from meshc.layout.sharded_buffer import check_config_places, datum_size

Shape = tuple[int, ...]


def fmt(shape: Sequence[int]) -> str:
    return "(" + ", ".join(str(n) for n in shape) + ("," if len(shape) == 1 else "") + ")"


def prod(xs: Sequence[int]) -> int:
    return math.prod(xs)


def ints_of(attr: Attribute) -> tuple[int, ...]:
    """Integers of an `array<i64: ...>`, an `[1 : i32, ...]` array or a dense elements attribute."""
    if isinstance(attr, DenseArrayBase):
        return tuple(int(v) for v in attr.get_values())
    if isinstance(attr, ArrayAttr):
        out = []
        for a in attr.data:
            if isinstance(a, IntAttr):
                out.append(int(a.data))
                continue
            if not isinstance(a, IntegerAttr):
                raise VerifyException(f"expected an array of integers, got an element {a}")
            out.append(int(a.value.data))
        return tuple(out)
    if isinstance(attr, DenseIntOrFPElementsAttr):
        return tuple(int(v) for v in attr.get_values())
    raise VerifyException(f"expected an integer array attribute, got {attr}")


def normalize_dim(dim: int | None, rank: int, what: str) -> int:
    assert dim is not None
    if not -rank <= dim < rank:
        raise VerifyException(f"{what} {dim} is out of range for a tensor of rank {rank} (expected {-rank} <= {what} < {rank})")
    return dim + rank if dim < 0 else dim


def normalize_dims(dims: Sequence[int], rank: int, what: str) -> tuple[int, ...]:
    out = tuple(normalize_dim(d, rank, what) for d in dims)
    if len(set(out)) != len(out):
        raise VerifyException(f"{what} {list(dims)} names a dim twice")
    return out


def divide(n: int, k: int, what: str) -> int:
    if n % k:
        raise VerifyException(f"{what} of size {n} does not split into {k} equal pieces")
    return n // k


def broadcast_shapes(a: Shape, b: Shape) -> Shape:
    """numpy broadcasting of two shapes."""
    rank = max(len(a), len(b))
    pa = (1,) * (rank - len(a)) + tuple(a)
    pb = (1,) * (rank - len(b)) + tuple(b)
    out = []
    for i, (x, y) in enumerate(zip(pa, pb)):
        if x != y and x != 1 and y != 1:
            raise VerifyException(
                f"operand shapes {fmt(a)} and {fmt(b)} do not broadcast: dim {i} is {x} against {y}"
            )
        out.append(max(x, y) if x and y else 0)
    return tuple(out)


def reduce_shape(shape: Shape, dims: Sequence[int], keep_dim: bool) -> Shape:
    if keep_dim:
        return tuple(1 if i in dims else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in dims)


def matmul_shape(a: Shape, b: Shape, transpose_a: bool, transpose_b: bool) -> Shape:
    if len(a) < 2 or len(b) < 2:
        raise VerifyException(f"matmul operands need rank >= 2, got shapes {fmt(a)} and {fmt(b)}")
    m, ka = (a[-1], a[-2]) if transpose_a else (a[-2], a[-1])
    kb, n = (b[-1], b[-2]) if transpose_b else (b[-2], b[-1])
    if ka != kb:
        raise VerifyException(
            f"matmul inner dimensions differ: a {fmt(a)} has K = {ka}, b {fmt(b)} has K = {kb}"
        )
    batch = broadcast_shapes(a[:-2], b[:-2])
    return batch + (m, n)


def check_permutation(perm: Sequence[int], rank: int) -> tuple[int, ...]:
    if sorted(perm) != list(range(rank)):
        raise VerifyException(f"permutation {list(perm)} is not a permutation of the {rank} dims 0..{rank - 1}")
    return tuple(perm)


def check_reshape(a: Shape, b: Shape) -> None:
    if prod(a) != prod(b):
        raise VerifyException(
            f"reshape from {fmt(a)} ({prod(a)} elements) to {fmt(b)} ({prod(b)} elements) changes the element count"
        )


def check_broadcast_to(a: Shape, b: Shape, repeats: Sequence[int] | None) -> None:
    if len(a) > len(b):
        raise VerifyException(f"cannot broadcast {fmt(a)} to the lower-rank {fmt(b)}")
    pa = (1,) * (len(b) - len(a)) + tuple(a)
    for i, (x, y) in enumerate(zip(pa, b)):
        if x != y and x != 1:
            raise VerifyException(f"cannot broadcast {fmt(a)} to {fmt(b)}: dim {i} is {x}, expected 1 or {y}")
    if repeats is not None:
        if len(repeats) != len(b):
            raise VerifyException(f"broadcast_dimensions has {len(repeats)} entries, expected one per result dim ({len(b)})")
        want = tuple(x * r for x, r in zip(pa, repeats))
        if want != tuple(b):
            raise VerifyException(
                f"broadcast_dimensions {list(repeats)} applied to {fmt(a)} gives {fmt(want)}, but the result is {fmt(b)}"
            )


def concat_shape(shapes: Sequence[Shape], dim: int | None) -> Shape:
    if not shapes:
        raise VerifyException("concat needs at least one operand")
    rank = len(shapes[0])
    d = normalize_dim(dim, rank, "dim")
    for i, s in enumerate(shapes):
        if len(s) != rank or any(x != y for j, (x, y) in enumerate(zip(s, shapes[0])) if j != d):
            raise VerifyException(
                f"operand {i} {fmt(s)} does not match operand 0 {fmt(shapes[0])} outside dim {d}"
            )
    out = list(shapes[0])
    out[d] = sum(s[d] for s in shapes)
    return tuple(out)


def slice_shape(shape: Shape, begins: Sequence[int], ends: Sequence[int], step: Sequence[int]) -> Shape:
    """The shape of `shape` sliced by begins / ends / step (one entry a dim each)."""
    for name, vals in (("begins", begins), ("ends", ends), ("step", step)):
        if len(vals) != len(shape):
            raise VerifyException(f"{name} has {len(vals)} entries, expected one per dim of {fmt(shape)} ({len(shape)})")
    out = []
    for d, (n, b, e, s) in enumerate(zip(shape, begins, ends, step)):
        if s < 1:
            raise VerifyException(f"step {s} of dim {d} must be 1 or more")
        if not 0 <= b <= e <= n:
            raise VerifyException(f"dim {d} of {fmt(shape)} sliced from {b} to {e}; expected 0 <= begin <= end <= {n}")
        out.append(-(-(e - b) // s))
    return tuple(out)


def embedding_shape(indices: Shape, weight: Shape) -> Shape:
    if len(weight) != 2:
        raise VerifyException(f"embedding weight must be 2-d (rows, features), got {fmt(weight)}")
    return tuple(indices) + (weight[1],)


def mesh_axis_size(mesh: Shape, axis: int | None) -> int:
    assert axis is not None
    if not 0 <= axis < len(mesh):
        raise VerifyException(
            f"cluster_axis {axis} is out of range for the {len(mesh)}-d mesh {fmt(mesh)} (expected 0 <= cluster_axis < {len(mesh)})"
        )
    return mesh[axis]


def splits_nothing(replicate: bool, shard_shape: Sequence[int]) -> bool:
    """A `devices` mesh_shard whose shard_shape is all 1 (one piece) is the identity whatever its
    shard_dims say, as tt-mlir folds it (MeshShardOp::fold): every device holds the whole tensor."""
    return not replicate and all(n == 1 for n in shard_shape)


def check_mesh_shard(
    rank: int, replicate: bool, shard_shape: Sequence[int], shard_dims: Sequence[int], mesh: Shape | None
) -> tuple[int, ...]:
    """Check a mesh_shard's attributes; return the number of pieces of every tensor dim, as tt-mlir
    reads them: none for a replicate one, nor for a devices one of one piece (shard_shape all 1,
    which tt-mlir's MeshShardOp::fold removes); otherwise, on a known mesh, what shard_dims make of
    it (mesh axis a splits tensor dim shard_dims[a]: tt-mlir's conversion to TTNN reads shard_dims
    and the mesh, never shard_shape, whose disagreement `ttir-ttnn-result-shapes` warns of and
    corrects); while the mesh is unknown, shard_shape."""
    if replicate:
        if any(n != 1 for n in shard_shape):
            raise VerifyException(f"a replicate mesh_shard has shard_shape {list(shard_shape)}; expected all 1")
        return (1,) * rank  # shard_dims are not read, as tt-mlir's conversion to TTNN reads none
    if len(shard_shape) != rank:
        raise VerifyException(f"shard_shape has {len(shard_shape)} entries, expected one per tensor dim ({rank})")
    if any(n < 1 for n in shard_shape):
        raise VerifyException(f"shard_shape {list(shard_shape)} must be positive")
    if splits_nothing(replicate, shard_shape):
        return (1,) * rank
    for a, d in enumerate(shard_dims):
        if d != -1 and not 0 <= d < rank:
            raise VerifyException(
                f"shard_dims[{a}] = {d} is not a dim of the rank-{rank} tensor (expected -1 or 0 <= dim < {rank})"
            )
    if mesh is None:
        return tuple(shard_shape)
    if len(shard_dims) != len(mesh):
        raise VerifyException(
            f"shard_dims has {len(shard_dims)} entries, expected one per mesh axis of the mesh {fmt(mesh)}"
        )
    return mesh_pieces(rank, shard_dims, mesh)


def mesh_pieces(rank: int, shard_dims: Sequence[int], mesh: Shape | None) -> tuple[int, ...]:
    """Pieces of every tensor dim when mesh axis `a` splits tensor dim `shard_dims[a]` (-1: none),
    the product of the axes splitting it; without a mesh, one piece each (the dims still checked)."""
    if mesh is not None and len(shard_dims) != len(mesh):
        raise VerifyException(f"shard_dims has {len(shard_dims)} entries, expected one per mesh axis of {fmt(mesh)}")
    for a, d in enumerate(shard_dims):
        if d != -1 and not 0 <= d < rank:
            raise VerifyException(f"shard_dims[{a}] = {d} is not a dim of the rank-{rank} tensor")
    dims = dims_from_shard_dims(shard_dims, rank)
    return tuple(1 if mesh is None else math.prod(mesh[a] for a in axes) for axes in dims)


def check_even_split(full: Shape, pieces: Sequence[int]) -> None:
    for d, (n, k) in enumerate(zip(full, pieces)):
        if n % k:
            raise VerifyException(f"tensor dim {d} of size {n} does not split into {k} equal pieces")


def local_shape(full: Shape, pieces: Sequence[int]) -> Shape:
    return tuple(n // k for n, k in zip(full, pieces))


def pairs_of(attr: Attribute) -> list[tuple[int, int]]:
    vals = ints_of(attr)
    if isinstance(attr, DenseIntOrFPElementsAttr):
        shape = tuple(attr.get_type().get_shape())
        if len(shape) != 2 or shape[1] != 2:
            raise VerifyException(f"source_target_pairs must be an Nx2 tensor, got shape {fmt(shape)}")
    if len(vals) % 2:
        raise VerifyException("source_target_pairs must hold (source, target) pairs")
    return [(vals[i], vals[i + 1]) for i in range(0, len(vals), 2)]


def check_permute_pairs(pairs: Sequence[tuple[int, int]], ndevices: int | None) -> None:
    for s, t in pairs:
        for role, x in (("source", s), ("target", t)):
            if x < 0:
                raise VerifyException(f"{role} device {x} of pair ({s}, {t}) is negative; devices are numbered from 0")
            if ndevices is not None and x >= ndevices:
                raise VerifyException(
                    f"{role} device {x} of pair ({s}, {t}) is not on the mesh of {ndevices} devices"
                )
    for i, role in ((0, "source"), (1, "target")):
        dup = sorted(x for x, k in Counter(p[i] for p in pairs).items() if k > 1)
        if dup:
            raise VerifyException(f"device {dup[0]} is a {role} of more than one pair")


def check_unsharded_dims(full: Shape, local: Shape, shard_dims: Sequence[int], what: str) -> None:
    """Without a mesh: the dims no mesh axis splits must be whole on every device."""
    if len(full) != len(local):
        raise VerifyException(f"{what} rank {len(local)} differs from the host tensor's rank {len(full)}")
    for d, (n, m) in enumerate(zip(full, local)):
        if d not in shard_dims and n != m:
            raise VerifyException(
                f"{what} shape {fmt(local)} differs from the host tensor {fmt(full)} in dim {d}, which no mesh axis splits"
            )


def check_transfer_attributes(op) -> None:
    """A host <-> mesh transfer states its placement once: `mapper` and `form` are not its
    attributes (shard_dims are the source, the config's class is its form)."""
    for stale in ("mapper", "form"):
        if stale in op.attributes:
            raise VerifyException(f"'{stale}' is not an attribute of a host <-> mesh transfer: shard_dims state the "
                                  f"placement and config (a 2D or ND #ttnn.sharded_buffer_config) executes it")


def check_transfer_config(op) -> None:
    """VerifyException unless a host <-> mesh transfer's `config` (#ttnn.sharded_buffer_config)
    gives every device of the module's mesh the block of the host tensor that the op's one source,
    its `shard_dims` (`op.sharding()`), gives it: the simulator executes the config, so a config
    that disagrees with the op is refused here (meshc.layout.sharded_buffer.check_config_places)."""
    attr = op.attributes.get("config")
    if attr is None:
        return
    config = attr.data
    et = getattr(op.operands[0].type, "element_type", None) if op.operands else None
    datum = datum_size(data_type_name(et) or "f32") if et is not None else config.datum_size
    try:
        check_config_places(config, op.sharding(), op.host_shape(), datum)
    except LayoutError as e:
        raise VerifyException(f"#ttnn.sharded_buffer_config does not match this transfer: {e}") from None
