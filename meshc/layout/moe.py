"""Mixture-of-experts reference semantics: routing, dispatch with capacity, combine (docs/moe.md).

Shapes follow the MoE resharding notes: tokens `[B, S, M]` (batch, sequence, model dim), router logits
`[B, S, E]`, and the dispatched tensor `[E, G, C, M]` where G is the number of DP shards of the
batch (the MoE resharding notes writes it `[E, B/DP, C, M/TP]`; there B = DP) and C the capacity: the slots an
expert has for the tokens of one DP shard.

The rule (what `moe_dispatch` does):

* every token makes k choices, choice 0 being its top-1 expert (`moe_route`);
* within one DP shard, the choices claim slots in priority order: every top-1 choice before any
  top-2 choice (and so on), and among choices of the same rank, by token position (batch row,
  then sequence position, of the shard's tokens in row-major order);
* an expert takes the first C choices that reach it, in slot order 0..C-1; later ones are
  dropped, and the dispatch records them (`slot == -1`);
* `moe_combine` brings every expert output back to its token and sums them weighted by the
  router weights; a dropped choice adds zero.

All of it is vectorized numpy (one-hot cumulative counts for the slots, fancy indexing for the
moves); nothing loops over tokens. `seed_dispatch_table` and `placement_tree` draw the MoE resharding notes'
table and device tree from a dispatch, for the docs and the golden test.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from meshc.layout.errors import LayoutError
from meshc.layout.mesh import ShardingSpec
from meshc.layout.mesh import Mesh
from meshc.layout.reshard import plan_reshard


def moe_route(logits: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Top-k routing over the last axis of `logits` (`[..., E]`).

    Returns `experts` (`[..., k]` int64, choice 0 the highest logit; ties go to the lower expert
    id) and `weights` (`[..., k]`, the softmax of the k chosen logits, so they sum to 1).
    """
    logits = np.asarray(logits)
    if logits.ndim < 1:
        raise LayoutError("router logits need at least one axis (the experts)")
    e = logits.shape[-1]
    if not 1 <= k <= e:
        raise LayoutError(f"top-k routing needs 1 <= k <= number of experts ({e}), got k = {k}")
    experts = np.argsort(-logits, axis=-1, kind="stable")[..., :k]
    chosen = np.take_along_axis(logits, experts, axis=-1).astype(np.float64)
    z = np.exp(chosen - chosen.max(axis=-1, keepdims=True))
    weights = (z / z.sum(axis=-1, keepdims=True)).astype(logits.dtype if logits.dtype.kind == "f" else np.float64)
    return experts.astype(np.int64), weights


@dataclass(frozen=True)
class MoeDispatch:
    """What `moe_dispatch` produced."""

    dispatched: np.ndarray
    """[E, G, C, M]: slot c of expert e for DP shard g holds a token (zeros where empty)."""
    slot: np.ndarray
    """[B, S, k]: the slot each choice took, -1 when the choice was dropped (expert full)."""
    source: np.ndarray
    """[E, G, C, 2]: (batch row, sequence position) of the token in each slot, -1 where empty."""
    experts: np.ndarray
    """[B, S, k]: the routing the dispatch followed."""

    @property
    def dropped(self) -> np.ndarray:
        """[B, S, k] bool: the choices that found their expert full."""
        return self.slot < 0

    @property
    def filled(self) -> np.ndarray:
        """[E, G, C] bool: the slots holding a token."""
        return self.source[..., 0] >= 0


def _check_routing(shape_bs: tuple[int, int], experts: np.ndarray, num_experts: int, dp: int) -> None:
    b, s = shape_bs
    if experts.ndim != 3 or experts.shape[:2] != (b, s):
        raise LayoutError(f"expert choices must be [B, S, k] = [{b}, {s}, k], got {list(experts.shape)}")
    if dp < 1 or b % dp:
        raise LayoutError(f"the batch ({b}) must split evenly over DP = {dp} shards")
    if experts.size and (experts.min() < 0 or experts.max() >= num_experts):
        raise LayoutError(f"expert ids must lie in [0, {num_experts}), got {int(experts.min())}..{int(experts.max())}")
    if experts.shape[2] > 1 and experts.size:
        srt = np.sort(experts, axis=-1)
        if (srt[..., 1:] == srt[..., :-1]).any():
            raise LayoutError("a token chose the same expert twice; top-k choices must be distinct experts")


def moe_dispatch(tokens: np.ndarray, experts: np.ndarray, num_experts: int, capacity: int,
                 dp: int = 1) -> MoeDispatch:
    """Place tokens `[B, S, M]` into `[E, DP, C, M]` following `experts` `[B, S, k]` (module docstring)."""
    tokens, experts = np.asarray(tokens), np.asarray(experts).astype(np.int64)
    if tokens.ndim != 3:
        raise LayoutError(f"tokens must be [B, S, M], got shape {list(tokens.shape)}")
    if capacity < 0:
        raise LayoutError(f"capacity must be >= 0, got {capacity}")
    b, s, m = tokens.shape
    _check_routing((b, s), experts, num_experts, dp)
    k = experts.shape[2]
    per = b // dp
    # choices of one shard in priority order: rank j major, then token position (row, seq) minor
    order = experts.reshape(dp, per * s, k).transpose(0, 2, 1).reshape(dp, k * per * s)
    onehot = order[..., None] == np.arange(num_experts)  # [DP, k*T, E]
    seen = np.cumsum(onehot, axis=1) - 1  # how many earlier choices of the shard reached that expert
    rank = np.take_along_axis(seen, order[..., None], axis=2)[..., 0]  # [DP, k*T]
    slot_flat = np.where(rank < capacity, rank, -1)
    slot = slot_flat.reshape(dp, k, per * s).transpose(0, 2, 1).reshape(b, s, k)

    dispatched = np.zeros((num_experts, dp, capacity, m), dtype=tokens.dtype)
    source = np.full((num_experts, dp, capacity, 2), -1, dtype=np.int64)
    bi, si, ji = np.nonzero(slot >= 0)
    e, g, c = experts[bi, si, ji], bi // per, slot[bi, si, ji]
    dispatched[e, g, c] = tokens[bi, si]
    source[e, g, c] = np.stack([bi, si], axis=1)
    return MoeDispatch(dispatched, slot, source, experts)


def moe_combine(expert_out: np.ndarray, experts: np.ndarray, weights: np.ndarray, slot: np.ndarray,
                dp: int = 1) -> np.ndarray:
    """Bring expert outputs `[E, DP, C, M]` back to the tokens: `[B, S, M]`.

    y[b, s] = sum over choices j of weights[b, s, j] * expert_out[experts[b, s, j], shard(b), slot[b, s, j]],
    a dropped choice (slot -1) adding zero.
    """
    expert_out, experts = np.asarray(expert_out), np.asarray(experts).astype(np.int64)
    weights, slot = np.asarray(weights), np.asarray(slot).astype(np.int64)
    if expert_out.ndim != 4:
        raise LayoutError(f"expert outputs must be [E, DP, C, M], got shape {list(expert_out.shape)}")
    e, g, c, m = expert_out.shape
    if experts.ndim != 3 or weights.shape != experts.shape or slot.shape != experts.shape:
        raise LayoutError(f"experts, weights and slots must all be [B, S, k]; got {list(experts.shape)}, "
                          f"{list(weights.shape)}, {list(slot.shape)}")
    b, s, _ = experts.shape
    if g != dp:
        raise LayoutError(f"expert outputs have {g} DP rows but dp = {dp}")
    _check_routing((b, s), experts, e, dp)
    if slot.size and slot.max() >= c:
        raise LayoutError(f"slot {int(slot.max())} is beyond the capacity {c}")
    shard = (np.arange(b) // (b // dp))[:, None, None]
    kept = slot >= 0
    picked = expert_out[experts, shard, np.where(kept, slot, 0)]  # [B, S, k, M]
    w = np.where(kept, weights, 0).astype(np.result_type(weights, expert_out))
    return np.einsum("bskm,bsk->bsm", picked, w)


def moe_reference(x: np.ndarray, router: np.ndarray, expert_w: np.ndarray, k: int, capacity: int,
                  dp: int = 1) -> np.ndarray:
    """A whole MoE layer on one device: route x @ router, dispatch, y_e = tokens_e @ W_e, combine.

    x: [B, S, M], router: [M, E], expert_w: [E, M, N]; returns [B, S, N].
    """
    logits = x @ router
    experts, weights = moe_route(logits, k)
    d = moe_dispatch(x, experts, expert_w.shape[0], capacity, dp)
    out = np.einsum("egcm,emn->egcn", d.dispatched, expert_w)
    return moe_combine(out, experts, weights, d.slot, dp)


# ---- the MoE resharding notes' pictures ------------------------------------------------------------------------


def seed_dispatch_table(d: MoeDispatch, names: np.ndarray, pieces: int, row_label: str = "B/DP",
                        col_label: str = "E") -> list[str]:
    """The MoE resharding notes' markdown table: a row per DP shard, a column per expert, a cell naming the token
    in slot 0.. (`a'0\\|a'1`: token a' in `pieces` model-dim pieces), `—` for an empty slot."""
    e, g, c, _ = d.dispatched.shape
    head = "| | " + " | ".join(f"{col_label}{i}" for i in range(e)) + " |"
    lines = [head, "|---" * (e + 1) + "|"]
    for row in range(g):
        cells = []
        for ex in range(e):
            toks = [names[tuple(d.source[ex, row, slot])] for slot in range(c) if d.source[ex, row, slot, 0] >= 0]
            cells.append(", ".join("\\|".join(f"{t}'{p}" for p in range(pieces)) for t in toks) or "—")
        lines.append(f"| {row_label}={row} | " + " | ".join(cells) + " |")
    return lines


def holders(spec: ShardingSpec, shape: tuple[int, ...], index: tuple[int, ...]) -> list[int]:
    """The devices whose piece of `spec` contains the element at `index`."""
    out = []
    for dev, coord in enumerate(spec.mesh.coords()):
        if all(lo <= i < hi for i, (lo, hi) in zip(index, spec.local_bounds(shape, coord))):
            out.append(dev)
    return out


def placement_tree(spec: ShardingSpec, shape: tuple[int, ...], levels: list[tuple[int, str]],
                   leaf: "callable") -> list[str]:
    """The MoE resharding notes' device tree: one level per (tensor dim, label); a leaf line names its content
    (`leaf(index) -> str`, the full index with 0 for dims not drawn) and the devices holding it."""
    lines: list[str] = []
    labels = {}

    def walk(depth: int, index: list[int], prefix: str):
        dim, label = levels[depth]
        n = shape[dim]
        for i in range(n):
            last = i == n - 1
            index[dim] = i
            branch = "└── " if last else "├── "
            if depth == len(levels) - 1:
                text = leaf(tuple(index))
                labels[len(lines)] = text
                devs = ", ".join(map(str, holders(spec, shape, tuple(index))))
                lines.append(f"{prefix}{branch}{label}={i}: \0{text}\0[Device {devs}]")
            else:
                lines.append(f"{prefix}{branch}{label}={i}")
                walk(depth + 1, index, prefix + ("    " if last else "│   "))
        index[dim] = 0

    walk(0, [0] * len(shape), "")
    width = max((len(t) for t in labels.values()), default=0) + 2
    out = []
    for ln in lines:
        if "\0" in ln:
            head, text, tail = ln.split("\0")
            ln = head + text.ljust(width) + tail
        out.append(ln)
    return out


def seed_walkthrough() -> str:
    """The MoE resharding notes' example, recomputed: routing, drops, the dispatch table, both device trees and
    the bytes of the reshard to [EP=8]. `python -m meshc.layout.moe` prints it (docs/moe.md)."""
    names = np.array([["a", "b"], ["A", "B"]])
    route = np.array([[[0, 1], [0, 2]], [[2, 3], [4, 5]]])
    codes = np.array([[1, 2], [3, 4]], dtype=np.float32)
    tokens = np.stack([codes * 10, codes * 10 + 1], axis=-1)  # M = 2 pieces a token
    d = moe_dispatch(tokens, route, num_experts=8, capacity=1, dp=2)
    att = ShardingSpec(Mesh((2, 2, 2), ("DP", "CP", "TP")), ((), (0,), (), (2,)))
    ep = ShardingSpec(Mesh((8,), ("EP",)), ((0,), (), (), ()))

    def leaf(ix):
        e, g, c, m = ix
        return "—" if d.source[e, g, c, 0] < 0 else f"{names[tuple(d.source[e, g, c])]}'{m}"

    out = ["Routing (expert 1, expert 2); b' loses E0 to a' (capacity 1, top-1 choices in token order):"]
    for b in range(2):
        for s in range(2):
            picks = [f"E{route[b, s, j]}" + (" (dropped)" if d.dropped[b, s, j] else "") for j in range(2)]
            out.append(f"  {names[b, s]}': {', '.join(picks)}")
    out += ["", "Dispatch [E, B/DP, C=1, M/TP]:"] + seed_dispatch_table(d, names, pieces=2)
    shape = d.dispatched.shape
    out += ["", "On the attention mesh [DP=2, CP=2, TP=2]:"]
    out += placement_tree(att, shape, [(0, "E"), (1, "B/DP"), (3, "M")], leaf)
    out += ["", "On the MoE mesh [EP=8]:"]
    out += placement_tree(ep, shape, [(0, "E/EP"), (1, "B"), (3, "M")], leaf)
    plan = plan_reshard(shape, "f32", att, ep)
    out += ["", "Reshard (f32, one element a piece):", plan.summary()]
    return "\n".join(out)


if __name__ == "__main__":
    print(seed_walkthrough())
