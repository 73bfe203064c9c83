"""tt-mlir's MoE ops on per-device numpy arrays: all_to_all_dispatch, all_to_all_dispatch_metadata,
all_to_all_combine, moe_expert_token_remap, sparse_matmul (docs/moe.md, "tt-mlir's MoE ops").

The meaning is TT-Metal's (the ttnn operations these ops run as), on a list of arrays in device
order (row-major over the mesh). The collectives work within the groups along `cluster_axis`
(meshc.layout.collectives.groups): a group of n devices; position p in it is the device's place
along the axis.

* `expert_mapping` of dispatch, combine and remap is one-hot `[1, 1, E, D]`: entry `[0, 0, e, d]`
  is 1 when flat device d holds expert e. A device's local experts are its 1s in increasing
  expert order (local expert j is the j-th of them).
* `all_to_all_dispatch`: tokens `[B, S, 1, H]` (or `[B, 1, S, H]`) and expert ids `[B, S, 1, K]`
  per device. Every device of the group gets `[1, n*B, S, H]`: row `p*B + b` holds token (b, s)
  of the device at position p when one of the token's K experts is on it, zeros otherwise
  (TT-Metal leaves such rows unspecified); the metadata `[1, n*B, S, K]` is the ids all-gathered.
* `all_to_all_dispatch_metadata`: tokens `[1, 1, M, H]`, ids and scores `[1, 1, M, K]`, mapping
  `[1, 1, D, E]` (ttir) or `[D, E]` (ttnn) whose rows all give, per expert, the flat device id
  owning it. Each device of the group gets `[1, n*M, H]` (its routed tokens, zeros elsewhere)
  and the ids and scores all-gathered, `[1, n*M, K]`.
* `all_to_all_combine`: expert outputs `[E_local, n*B, S, H]` per device (row of a token as the
  dispatch placed it), metadata `[1, n*B, S, K]`. Each device gets its own tokens, `[K', B, S, H]`
  (output_shard_dim 1: the batch is split over the group) or `[K', n*B, S/n, H]` (2: the
  sequence), K' = num_experts_per_tok: row k of a token is the output of its k-th expert, read
  from the first device of the group holding that expert; zeros when none does.
* `moe_expert_token_remap`: dense routing weights `[A, B, S, E]`, mapping, metadata `[A, B, S, K]`
  on each device. `mapping[..., j]` is the weight of the device's local expert j for tokens that
  chose it (0 otherwise); `reduced[0, 0, r, j]` is 1 when any of tokens `r*R .. r*R+R-1` (tokens
  in row-major order) has a nonzero weight for local expert j.
* `sparse_matmul`: a block matmul whose blocks are skipped where `sparsity` is 0 (a skipped block
  is zeros; TT-Metal leaves it unspecified). b is `[1, E, K, N]`; a dense-sparse a `[A, B, M, K]`
  gives `[A, B, 1, E, M, N]` (block (a, b, e) on when sparsity, read as `[A*B, E]`, is nonzero
  there), a sparse-dense a `[A, E, M, K]` gives `[A, E, M, N]` (sparsity read as `[A, E]`), and
  a sparse-sparse a `[1, E, M, K]` gives `[1, E, M, N]` (sparsity read as `[E]`).

Each collective also returns its `moves`: the elements of each operand every device sends every
other one (`[n_dev, n_dev]` arrays), which the simulator puts on the links; a dispatch sends a token once to
each other device holding one of its experts, a combine sends each choice's output row once from
the expert's device to the token's, and the all-gathered metadata goes to every other device of
the group. Pure numpy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from meshc.layout.collectives import groups
from meshc.layout.errors import LayoutError


@dataclass(frozen=True)
class MoeRun:
    """What a tt-mlir MoE op computed: one list of arrays a result (device order), and what the
    devices sent each other: per operand index, the elements of that operand device i sent
    device j (`moves[operand][i, j]`; empty for a local op). The simulator turns elements into
    bytes with the operand's data type (bf16 is held as float32 on the host)."""

    results: tuple[list[np.ndarray], ...]
    moves: dict[int, np.ndarray]


def _check_groups(mesh_shape: tuple[int, ...], cluster_axis: int, num_devices: int) -> list[list[int]]:
    if not 0 <= cluster_axis < len(mesh_shape):
        raise LayoutError(f"cluster_axis {cluster_axis} is not an axis of the {'x'.join(map(str, mesh_shape))} mesh")
    gs = groups(tuple(mesh_shape), cluster_axis)
    if num_devices != len(gs[0]):
        raise LayoutError(f"num_devices = {num_devices}, but the mesh has {len(gs[0])} devices along "
                          f"cluster_axis {cluster_axis}")
    return gs


def _one_hot(mapping: np.ndarray, n_dev: int) -> np.ndarray:
    """[E, D] bool from a one-hot `[1, 1, E, D]` mapping over the mesh's flat devices."""
    m = np.asarray(mapping)
    if m.ndim != 4 or m.shape[:2] != (1, 1):
        raise LayoutError(f"expert_mapping must be [1, 1, E, D], got {list(m.shape)}")
    if m.shape[3] != n_dev:
        raise LayoutError(f"expert_mapping has {m.shape[3]} device columns but the mesh has {n_dev} devices")
    return m[0, 0] != 0


def _expert_ids(ids: np.ndarray, num_experts: int) -> np.ndarray:
    ids = np.asarray(ids).astype(np.int64)
    if ids.size and (ids.min() < 0 or ids.max() >= num_experts):
        raise LayoutError(f"expert ids must lie in [0, {num_experts}), got {int(ids.min())}..{int(ids.max())}")
    return ids


def _tokens(x: np.ndarray, what: str) -> np.ndarray:
    """`[B, S, 1, H]` or `[B, 1, S, H]` as `[B, S, H]`."""
    x = np.asarray(x)
    if x.ndim != 4 or 1 not in x.shape[1:3]:
        raise LayoutError(f"{what} must be [B, S, 1, H] or [B, 1, S, H], got {list(x.shape)}")
    return x.reshape(x.shape[0], x.shape[1] * x.shape[2], x.shape[3])


def _want(shape: tuple[int, ...], want: tuple[int, ...], what: str) -> None:
    if tuple(shape) != tuple(want):
        raise LayoutError(f"{what} must be {list(want)} here, got {list(shape)}")


def all_to_all_dispatch(inputs: list, indices: list, mapping: list, mesh_shape: tuple[int, ...], cluster_axis: int,
                        num_devices: int, out_shapes: tuple[tuple[int, ...], tuple[int, ...]]) -> MoeRun:
    """TT-Metal's all_to_all_dispatch on every group along `cluster_axis` (module docstring)."""
    gs = _check_groups(mesh_shape, cluster_axis, num_devices)
    n_dev = len(inputs)
    toks = [_tokens(x, "input_tensor") for x in inputs]
    meta_moves = np.zeros((n_dev, n_dev), dtype=np.int64)
    ids = [_tokens(i, "expert_indices") for i in indices]
    b, s, h = toks[0].shape
    k = ids[0].shape[2]
    n = len(gs[0])
    _want(out_shapes[0], (1, n * b, s, h), "the dispatched result")
    _want(out_shapes[1], (1, n * b, s, k), "the metadata result")
    moves = np.zeros((n_dev, n_dev), dtype=np.int64)
    disp: list = [None] * n_dev
    meta: list = [None] * n_dev
    for g in gs:
        onehot = _one_hot(mapping[g[0]], n_dev)[:, g]  # [E, n]: expert e on group position q
        gid = np.stack([_expert_ids(ids[d], onehot.shape[0]) for d in g])  # [n, B, S, K]
        gtok = np.stack([toks[d] for d in g])  # [n, B, S, H]
        to = onehot[gid].any(axis=3)  # [n(src), B, S, n(dst)]: token goes to dst
        for q, dst in enumerate(g):
            out = np.where(to[..., q, None], gtok, np.zeros((), gtok.dtype)).reshape(1, n * b, s, h)
            disp[dst] = out
            meta[dst] = gid.reshape(1, n * b, s, k).astype(np.asarray(indices[dst]).dtype)
        sent = to.sum(axis=(1, 2)) * h  # [n(src), n(dst)] token elements
        np.fill_diagonal(sent, 0)
        moves[np.ix_(g, g)] += sent
        gathered = np.full((n, n), b * s * k, dtype=np.int64)  # metadata all-gather
        np.fill_diagonal(gathered, 0)
        meta_moves[np.ix_(g, g)] += gathered
    return MoeRun((disp, meta), {0: moves, 1: meta_moves})


def all_to_all_dispatch_metadata(inputs: list, indices: list, scores: list, mapping: list,
                                 mesh_shape: tuple[int, ...], cluster_axis: int, num_devices: int,
                                 out_shapes: tuple[tuple[int, ...], ...]) -> MoeRun:
    """TT-Metal's all_to_all_dispatch_metadata on every group along `cluster_axis`."""
    gs = _check_groups(mesh_shape, cluster_axis, num_devices)
    n_dev = len(inputs)
    n = len(gs[0])
    x0, i0 = np.asarray(inputs[0]), np.asarray(indices[0])
    if x0.ndim != 4 or x0.shape[:2] != (1, 1) or i0.ndim != 4 or i0.shape[:2] != (1, 1):
        raise LayoutError(f"input_tensor and expert_indices must be [1, 1, M, H] and [1, 1, M, K], "
                          f"got {list(x0.shape)} and {list(i0.shape)}")
    m, h, k = x0.shape[2], x0.shape[3], i0.shape[3]
    for shape, want, what in zip(out_shapes, ((1, n * m, h), (1, n * m, k), (1, n * m, k)),
                                 ("the dispatched result", "the indices result", "the scores result")):
        _want(shape, want, what)
    moves = np.zeros((n_dev, n_dev), dtype=np.int64)
    meta_moves = np.zeros((n_dev, n_dev), dtype=np.int64)
    disp: list = [None] * n_dev
    idx_out: list = [None] * n_dev
    sc_out: list = [None] * n_dev
    for g in gs:
        owner = np.asarray(mapping[g[0]]).reshape(-1, np.asarray(mapping[g[0]]).shape[-1])[0].astype(np.int64)
        if owner.size and (owner.min() < 0 or owner.max() >= n_dev):
            raise LayoutError(f"expert_mapping names device {int(owner.max())}, the mesh has {n_dev} devices")
        gid = np.concatenate([_expert_ids(np.asarray(indices[d]).reshape(m, k), owner.size) for d in g])  # [n*M, K]
        gtok = np.concatenate([np.asarray(inputs[d]).reshape(m, h) for d in g])  # [n*M, H]
        target = owner[gid]  # [n*M, K] flat device of each choice
        reach = (target[:, :, None] == np.asarray(g)[None, None, :]).any(axis=1)  # [n*M, n]: token reaches dst
        gsc = np.concatenate([np.asarray(scores[d]).reshape(m, k) for d in g]).reshape(1, n * m, k)
        for q, dst in enumerate(g):
            disp[dst] = np.where(reach[:, q, None], gtok, np.zeros((), gtok.dtype)).reshape(1, n * m, h)
            idx_out[dst] = gid.reshape(1, n * m, k).astype(np.asarray(indices[dst]).dtype)
            sc_out[dst] = gsc
        sent = reach.reshape(n, m, n).sum(axis=1).astype(np.int64) * h  # [n(src), n(dst)] token elements
        np.fill_diagonal(sent, 0)
        moves[np.ix_(g, g)] += sent
        gathered = np.full((n, n), m * k, dtype=np.int64)  # ids and scores all-gathered
        np.fill_diagonal(gathered, 0)
        meta_moves[np.ix_(g, g)] += gathered
    return MoeRun((disp, idx_out, sc_out), {0: moves, 1: meta_moves, 2: meta_moves.copy()})


def all_to_all_combine(inputs: list, metadata: list, mapping: list, mesh_shape: tuple[int, ...], cluster_axis: int,
                       num_devices: int, num_experts_per_tok: int, output_shard_dim: int,
                       out_shape: tuple[int, ...]) -> MoeRun:
    """TT-Metal's all_to_all_combine on every group along `cluster_axis` (module docstring)."""
    gs = _check_groups(mesh_shape, cluster_axis, num_devices)
    if output_shard_dim not in (1, 2):
        raise LayoutError(f"output_shard_dim must be 1 or 2, got {output_shard_dim}")
    n_dev = len(inputs)
    n = len(gs[0])
    md0 = np.asarray(metadata[0])
    if md0.ndim != 4 or md0.shape[0] != 1:
        raise LayoutError(f"expert_metadata must be [1, B*D, S, K], got {list(md0.shape)}")
    _, bt, st, k = md0.shape
    kk = num_experts_per_tok
    if kk > k:
        raise LayoutError(f"num_experts_per_tok = {kk}, but the metadata has {k} experts a token")
    x0 = np.asarray(inputs[0])
    if x0.ndim != 4 or x0.shape[1:3] != (bt, st):
        raise LayoutError(f"input_tensor must be [E_local, {bt}, {st}, H] (the metadata's tokens), got {list(x0.shape)}")
    h = x0.shape[3]
    if (bt if output_shard_dim == 1 else st) % n:
        raise LayoutError(f"dim {output_shard_dim} of the metadata ({bt if output_shard_dim == 1 else st}) does not "
                          f"split over the {n} devices along cluster_axis {cluster_axis}")
    lb, ls = (bt // n, st) if output_shard_dim == 1 else (bt, st // n)
    _want(out_shape, (kk, lb, ls, h), "the result")
    moves = np.zeros((n_dev, n_dev), dtype=np.int64)
    out: list = [None] * n_dev
    for g in gs:
        onehot = _one_hot(mapping[g[0]], n_dev)  # [E, D]
        local = np.cumsum(onehot, axis=0) - 1  # [E, D]: local index of expert e on device d
        in_group = onehot[:, g]  # [E, n]
        has = in_group.any(axis=1)
        first = np.argmax(in_group, axis=1)  # [E] group position of the first holder
        for d in g:
            if np.asarray(inputs[d]).shape[0] < int(onehot[:, d].sum()):
                raise LayoutError(f"device {d} holds {int(onehot[:, d].sum())} experts but its input_tensor "
                                  f"has {np.asarray(inputs[d]).shape[0]}")
        stacked = np.stack([np.asarray(inputs[d]) for d in g])  # [n, E_local, BT, ST, H]
        for q, dst in enumerate(g):
            rows = slice(q * lb, (q + 1) * lb) if output_shard_dim == 1 else slice(0, bt)
            cols = slice(0, st) if output_shard_dim == 1 else slice(q * ls, (q + 1) * ls)
            e = _expert_ids(np.asarray(metadata[dst])[0, rows, cols, :kk], onehot.shape[0])  # [lb, ls, K']
            pos = first[e]  # [lb, ls, K'] holder's group position
            le = local[e, np.asarray(g)[pos]]
            bi, si = np.meshgrid(np.arange(lb) + rows.start, np.arange(ls) + cols.start, indexing="ij")
            picked = stacked[pos, le, bi[..., None], si[..., None]]  # [lb, ls, K', H]
            picked = np.where(has[e][..., None], picked, np.zeros((), stacked.dtype))
            out[dst] = np.moveaxis(picked, 2, 0)
            counts = np.bincount(pos[has[e]], minlength=n) * h
            counts[q] = 0
            moves[np.asarray(g), dst] += counts
    return MoeRun((out,), {0: moves})


def moe_expert_token_remap(topk: list, mapping: list, metadata: list, reduction_size: int,
                           out_shapes: tuple[tuple[int, ...], tuple[int, ...]]) -> MoeRun:
    """TT-Metal's moe_expert_token_remap on each device's own arrays (module docstring)."""
    if reduction_size <= 0:
        raise LayoutError(f"reduction_size must be positive, got {reduction_size}")
    n_dev = len(topk)
    maps: list = []
    reds: list = []
    for d in range(n_dev):
        w, md = np.asarray(topk[d]), np.asarray(metadata[d])
        if w.ndim != 4 or md.ndim != 4 or w.shape[:3] != md.shape[:3]:
            raise LayoutError(f"topk_tensor [.., E] and expert_metadata [.., K] must share their token dims, "
                              f"got {list(w.shape)} and {list(md.shape)}")
        onehot = _one_hot(mapping[d], n_dev)
        if onehot.shape[0] != w.shape[3]:
            raise LayoutError(f"topk_tensor has {w.shape[3]} experts, expert_mapping {onehot.shape[0]}")
        experts = np.nonzero(onehot[:, d])[0]  # the device's local experts, in order
        tokens = int(np.prod(w.shape[:3]))
        el = experts.size
        _want(out_shapes[0], (1, w.shape[0] * w.shape[1], w.shape[2], el), "the mapping result")
        reduced_rows = -(-tokens // reduction_size)
        _want(out_shapes[1], (1, 1, reduced_rows, el), "the reduced result")
        ids = _expert_ids(md, onehot.shape[0]).reshape(tokens, -1)
        chose = (ids[:, :, None] == experts[None, None, :]).any(axis=1)  # [T, E_local]
        vals = np.where(chose, w.reshape(tokens, -1)[:, experts], np.zeros((), w.dtype))
        maps.append(vals.reshape(out_shapes[0]))
        pad = np.zeros((reduced_rows * reduction_size, el), dtype=bool)
        pad[:tokens] = vals != 0
        reds.append(pad.reshape(reduced_rows, reduction_size, el).any(axis=1).reshape(1, 1, reduced_rows, el))
    return MoeRun((maps, reds), {})


def sparse_matmul(a: np.ndarray, b: np.ndarray, sparsity: np.ndarray, a_sparse: bool, b_sparse: bool) -> np.ndarray:
    """TT-Metal's sparse_matmul on one device's arrays (module docstring); skipped blocks are zeros."""
    a, b, sp = np.asarray(a), np.asarray(b), np.asarray(sparsity)
    if a.ndim != 4:
        raise LayoutError(f"meshc runs sparse_matmul with a 4-d input A, got {list(a.shape)}")
    e = b.shape[1]
    if not a_sparse:  # [A, B, M, K] x [1, E, K, N] -> [A, B, 1, E, M, N]
        on = sp.reshape(a.shape[0] * a.shape[1], e) if sp.size == a.shape[0] * a.shape[1] * e else None
        if on is None:
            raise LayoutError(f"sparsity {list(sp.shape)} does not hold one flag per (A, B) = {list(a.shape[:2])} "
                              f"row and expert ({e})")
        out = np.einsum("abmk,ekn->abemn", a, b[0])
        out = out * (on.reshape(a.shape[0], a.shape[1], e, 1, 1) != 0)
        return out[:, :, None].astype(np.result_type(a, b))
    if a.shape[1] != e:
        raise LayoutError(f"input A has {a.shape[1]} expert blocks, input B {e}")
    rows = a.shape[0] if not b_sparse else 1
    if sp.size != rows * e:
        raise LayoutError(f"sparsity {list(sp.shape)} does not hold one flag per row ({rows}) and expert ({e})")
    out = np.einsum("aemk,ekn->aemn", a, b[0]) * (sp.reshape(rows, e, 1, 1) != 0)
    return out.astype(np.result_type(a, b))
