"""Reshard planner: the MoE resharding notes' cases and the bench's cases, with bounds derived by hand."""

import numpy as np
import pytest

from meshc.layout.errors import LayoutError
from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.reshard import execute_plan, lower_bound_bytes, plan_reshard
from meshc.layout.system import mesh_system

M22 = Mesh((2, 2))
ATT = Mesh((2, 2, 2), ("DP", "CP", "TP"))
EP = Mesh((8,), ("EP",))


def spec(mesh, *dims, partial=()):
    return ShardingSpec(mesh, tuple(tuple(d) for d in dims), tuple(partial))


def split(x, s):
    return [x[s.local_slices(x.shape, s.mesh.coord_of(d))] for d in range(s.mesh.size)]


def check_moves(shape, src, tgt, **kw):
    """Plan, execute on numpy, compare every device with numpy's slice of the global tensor."""
    plan = plan_reshard(shape, "f32", src, tgt, **kw)
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    out = execute_plan(plan, split(x, src))
    for d, got in enumerate(out):
        np.testing.assert_array_equal(got, x[tgt.local_slices(shape, tgt.mesh.coord_of(d))])
    return plan


# bounds below: (elements a device needs and lacks, summed over devices) x 4 bytes, by hand
CASES = [
    # [S0, R] -> [R, S0] on 2x2, 4x4: device (i, j) holds rows-half i, needs cols-half i; lacks a 2x2 quarter
    ("S0R_to_RS0", (4, 4), spec(M22, [0], []), spec(M22, [], [0]), 4 * 4 * 4),
    # [S01, R] -> [S10, R]: devices 1 and 2 swap their 1x4 rows; 0 and 3 keep theirs
    ("S01_to_S10", (4, 4), spec(M22, [0, 1], []), spec(M22, [1, 0], []), 2 * 4 * 4),
    # [R, S01] -> [S0, S1]: (0,0) and (1,1) lack 2 elements, (0,1) and (1,0) lack 4
    ("RS01_to_S0S1", (4, 4), spec(M22, [], [0, 1]), spec(M22, [0], [1]), 12 * 4),
    # [S0, S1] -> [R, R]: every device lacks 3 of the 4 quarters (4 elements each)
    ("S0S1_to_RR", (4, 4), spec(M22, [0], [1]), spec(M22, [], []), 4 * 12 * 4),
    # the MoE resharding notes: [E=8, B/DP, C=1, M/TP] (replicated over CP) -> [E/EP, B, C, M] over 8 devices:
    # device e needs expert e's 2x1x2 = 4 elements, holds 1 (its dp row, its tp half)
    ("seed_moe", (8, 2, 1, 2), spec(ATT, [], [0], [], [2]), spec(EP, [0], [], [], []), 8 * 3 * 4),
    # and back: device (dp, cp, tp) needs 8 experts x 1 element, holds its own expert's one
    ("seed_moe_back", (8, 2, 1, 2), spec(EP, [0], [], [], []), spec(ATT, [], [0], [], [2]), 8 * 7 * 4),
]


@pytest.mark.parametrize("name,shape,src,tgt,bound", CASES, ids=[c[0] for c in CASES])
def test_cases_meet_hand_bound(name, shape, src, tgt, bound):
    plan = check_moves(shape, src, tgt)
    assert plan.lower_bound_bytes == bound
    assert lower_bound_bytes(shape, "f32", src, tgt) == bound
    assert plan.delivered_bytes == bound


def test_step_names():
    kinds = lambda p: [s.kind for s in p.steps]
    assert kinds(check_moves((4, 4), spec(M22, [0], []), spec(M22, [], [0]))) == ["all_to_all", "all_slice"]
    p = check_moves((4, 4), spec(M22, [0, 1], []), spec(M22, [1, 0], []))
    assert kinds(p)[0] == "collective_permute" and p.steps[0].groups == ((1, 2),)
    p = check_moves((4, 4), spec(M22, [0], [1]), spec(M22, [], []))
    assert kinds(p) == ["all_gather", "all_gather"]
    # R -> S: nothing moves
    p = check_moves((4, 4), spec(M22, [], []), spec(M22, [0], [1]))
    assert kinds(p) == ["all_slice"] and p.delivered_bytes == 0


def test_never_gathers_then_slices_where_all_to_all_does():
    # [S0, R] -> [R, S0]: the gather-then-slice route moves twice the bytes; the plan moves the bound
    src, tgt = spec(M22, [0], []), spec(M22, [], [0])
    plan = check_moves((4, 4), src, tgt)
    naive = check_moves((4, 4), src, tgt, strategy="gather_then_slice")
    assert plan.delivered_bytes == 64 and naive.delivered_bytes == 128
    for s in plan.steps:  # no device receives a byte outside its target piece
        for t in s.transfers:
            tb = tgt.local_bounds((4, 4), tgt.mesh.coord_of(t.dst))
            assert all(a <= lo and hi <= b for (lo, hi), (a, b) in zip(t.box, tb))


def test_link_hops_on_a_line():
    # 1x4 line: [S0] -> [S0] shifted is impossible, so use [R] <- [S0]: device 0 needs 3 quarters
    # from devices 1, 2, 3 at 1, 2, 3 hops directly; forwarded along the line it is 1 hop each step.
    m = Mesh((4,))
    plan = check_moves((8,), spec(m, [0]), spec(m, []), system=mesh_system((4,)))
    # every device gets 6 elements it lacks = 24 B, 4 devices
    assert plan.delivered_bytes == 4 * 6 * 4
    # hops: a cell from device s to d crosses |s - d| links: sum over ordered pairs |s-d| * 2 elements * 4 B
    assert plan.link_hop_bytes == sum(abs(s - d) for s in range(4) for d in range(4)) * 2 * 4


def test_partial_sums_reduce_exactly():
    rng = np.random.default_rng(1)
    x = rng.integers(-50, 50, size=(4, 6)).astype(np.float64)
    src = spec(M22, [0], [], partial=[1])
    part = rng.integers(-50, 50, size=x.shape).astype(np.float64)
    parts = [part, x - part]  # sums to x over mesh axis 1
    shards = [parts[M22.coord_of(d)[1]][src.local_slices(x.shape, M22.coord_of(d))] for d in range(4)]
    for tgt, kind in [(spec(M22, [0], []), "all_reduce"), (spec(M22, [0], [1]), "reduce_scatter"),
                      (spec(M22, [], []), None)]:
        plan = plan_reshard(x.shape, "f32", src, tgt)
        assert kind is None or plan.steps[0].kind == kind
        out = execute_plan(plan, shards)
        for d in range(4):
            np.testing.assert_array_equal(out[d], x[tgt.local_slices(x.shape, M22.coord_of(d))])
    # all_reduce of a 2x6 row block over 2 devices: each receives the other's half (6 el) then its other half
    plan = plan_reshard(x.shape, "f32", src, spec(M22, [0], []))
    assert plan.delivered_bytes == 4 * (6 + 6) * 4
    # to [R, R]: reduce 12 partial elements into each device (48), then each lacks the other 2x6 block (48);
    # reduce-scatter + gathers cost the same: 4 x 6 reduced, then 4 x 18 gathered
    plan = plan_reshard(x.shape, "f32", src, spec(M22, [], []))
    assert plan.delivered_bytes == 96 * 4


def test_errors_name_the_problem():
    with pytest.raises(LayoutError, match="has 4 devices but target mesh"):
        plan_reshard((4,), "f32", spec(M22, [0]), spec(EP, [0]))
    with pytest.raises(LayoutError, match="rank"):
        plan_reshard((4, 4, 4), "f32", spec(M22, [0], []), spec(M22, [], [0]))
    with pytest.raises(LayoutError, match="block floats"):
        plan_reshard((32, 32), "bfp_bf8", spec(M22, [0], []), spec(M22, [], [0]))
    with pytest.raises(LayoutError, match="not partial over"):
        plan_reshard((4, 4), "f32", spec(M22, [0], []), spec(M22, [0], [], partial=[1]))
    plan = plan_reshard((4, 4), "f32", spec(M22, [0], []), spec(M22, [], [0]))
    with pytest.raises(LayoutError, match="device 1 shard has shape"):
        execute_plan(plan, [np.zeros((2, 4))] + [np.zeros((3, 4))] * 3)


def test_spec_strings_are_accepted():
    # the MoE resharding notes' transition written in the named form; bound as in CASES["seed_moe"]
    plan = check_moves((8, 2, 1, 2), spec(ATT, [], [0], [], [2]), spec(EP, [0], [], [], []))
    text = plan_reshard((8, 2, 1, 2), "f32", "[E=8, B=2/DP=2, C=1, M=2/TP=2] on [DP=2, CP=2, TP=2]",
                        "[E=8/EP=8, B=2, C=1, M=2]")
    assert text.delivered_bytes == text.lower_bound_bytes == plan.lower_bound_bytes == 8 * 3 * 4
    pair = plan_reshard((4, 4), "f32", ("[S0, R]", (2, 2)), ("[R, S0]", (2, 2)))
    assert pair.delivered_bytes == 64
    with pytest.raises(LayoutError, match=r"declares dim 0 \(E\) of size 8"):
        plan_reshard((4, 2, 1, 2), "f32", "[E=8, B=2/DP=2, C=1, M=2/TP=2] on [DP=2, CP=2, TP=2]",
                     "[E/EP=8, B, C, M]")


def test_partial_sums_kept_move_within_their_partial_index():
    # [S0, R] P(1) -> [R, S0] P(1): each column of the mesh holds its own addend; the addends are
    # resharded separately (an all_to_all down mesh axis 0), never mixed, never reduced
    rng = np.random.default_rng(5)
    parts = [rng.integers(-9, 9, size=(4, 4)).astype(np.float64) for _ in range(2)]
    src, tgt = spec(M22, [0], [], partial=[1]), spec(M22, [], [0], partial=[1])
    shards = [parts[M22.coord_of(d)[1]][src.local_slices((4, 4), M22.coord_of(d))] for d in range(4)]
    plan = plan_reshard((4, 4), "f32", src, tgt)
    out = execute_plan(plan, shards)
    for d in range(4):
        np.testing.assert_array_equal(out[d], parts[M22.coord_of(d)[1]][tgt.local_slices((4, 4), M22.coord_of(d))])
    assert all(M22.coord_of(t.src)[1] == M22.coord_of(t.dst)[1] for t in plan.transfers)
    assert plan.delivered_bytes == plan.lower_bound_bytes == 4 * 4 * 4


def _all_specs(mesh, rank):
    import itertools

    out = []
    for assign in itertools.product(range(-1, rank), repeat=mesh.rank):  # axis -> dim (-1: replicated)
        dims = [[a for a in range(mesh.rank) if assign[a] == d] for d in range(rank)]
        for orders in itertools.product(*[list(itertools.permutations(d)) for d in dims]):
            out.append(ShardingSpec(mesh, tuple(orders)))
    return out


def _single_axis_changes(s):
    """Every spec that differs from s in where one mesh axis goes (dim, position, or replicated)."""
    out = []
    for a in range(s.mesh.rank):
        base = [tuple(x for x in d if x != a) for d in s.dims]
        cands = [ShardingSpec(s.mesh, tuple(base))]
        for d in range(len(base)):
            for pos in range(len(base[d]) + 1):
                nd = list(base)
                nd[d] = base[d][:pos] + (a,) + base[d][pos:]
                cands.append(ShardingSpec(s.mesh, tuple(nd)))
        out += [(a, t) for t in cands if t.dims != s.dims]
    return out


def test_every_single_axis_change_meets_the_bound():
    from meshc.layout.reshard import collective_walk

    mesh = Mesh((2, 3))
    count = minor = 0
    for shape in [(12, 6), (5, 7)]:  # even, and uneven torch.chunk pieces
        x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
        for s in _all_specs(mesh, 2):
            for axis, t in _single_axis_changes(s):
                plan = plan_reshard(shape, "f32", s, t)
                assert plan.delivered_bytes == plan.lower_bound_bytes, (str(s), str(t))
                out = execute_plan(plan, split(x, s))
                for d in range(mesh.size):
                    np.testing.assert_array_equal(out[d], x[t.local_slices(shape, mesh.coord_of(d))])
                count += 1
                # the SPMD walk meets it too when the axis leaves and joins dims at their minor end
                at_minor_end = all(d[-1] == axis for spec in (s, t) for d in spec.dims if axis in d)
                if shape == (12, 6) and at_minor_end:
                    walk = collective_walk(shape, "f32", s, t)
                    assert sum(w.bytes for w in walk) == plan.lower_bound_bytes, (str(s), str(t))
                    minor += 1
    assert count == 120 and minor == 36  # size of the enumeration (11 specs on a 2-axis mesh, rank 2)


@pytest.mark.parametrize("mesh_shape", [(1, 4), (4, 1), (2, 1, 2)])
def test_walk_between_the_same_placement_is_empty_when_axes_have_size_one(mesh_shape):
    """Axes of size 1 split nothing, so specs that differ only in where such an axis goes place
    every byte on the same device: the walk between them is empty (no collective, 0 bytes),
    whatever the spelling (`[R, S01]` and `[S0, S1]` on a 1x4 mesh)."""
    from meshc.layout.reshard import collective_walk

    mesh = Mesh(mesh_shape)
    shape = (8, 12)
    specs = _all_specs(mesh, 2)
    same = 0
    for s in specs:
        for t in specs:
            if all(s.local_slices(shape, c) == t.local_slices(shape, c) for c in mesh.coords()):
                assert collective_walk(shape, "f32", s, t) == [], (str(s), str(t))
                same += 1
    # hand count on 1x4: axis 0 goes to R, dim 0 or dim 1 (before or after axis 1 there), so
    # each placement of axis 1 has several spellings; at least the pairs (s, s) are counted
    assert same > len(specs)


def test_partial_sums_reduce_into_a_dim_named_with_a_size_one_axis():
    """`[R, R] P1 -> [R, S01]` on a 1x4 mesh is one reduce_scatter over axis 1 (axis 0 has one
    device, so the target is [R, S1]): 3/4 of each device's 8x12 f32 partial goes out,
    4 devices x 3 x 96 B = 1152 B delivered."""
    from meshc.layout.reshard import collective_walk

    mesh = Mesh((1, 4))
    src = ShardingSpec(mesh, ((), ()), (1,))
    tgt = ShardingSpec(mesh, ((), (0, 1)))
    walk = collective_walk((8, 12), "f32", src, tgt)
    assert [(w.kind, w.axis, w.dim) for w in walk] == [("reduce_scatter", 1, 1)]
    assert sum(w.bytes for w in walk) == 4 * 3 * (8 * 12 * 4 // 4)
