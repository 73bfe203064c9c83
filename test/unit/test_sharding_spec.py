"""Sharding-spec text: the index and named forms, partial sums, round trips, located errors,
and from_global / to_global, including ColossalAI's DTensor doc's 4x4 matrix on a 2x2 mesh."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meshc.layout import LayoutError, Mesh, ShardingSpec, format_spec, from_global, parse_spec, to_global

# ColossalAI's DTensor doc's matrix A, exactly as drawn (its second row really is 4, 5, 6, 7).
A = np.array([[1, 2, 3, 4], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]])


def test_dtensor_s0_r_blocks():
    shards = from_global(A, parse_spec("[S0, R]", (2, 2)))
    top = [[1, 2, 3, 4], [4, 5, 6, 7]]
    bottom = [[8, 9, 10, 11], [12, 13, 14, 15]]
    assert shards[(0, 0)].tolist() == top and shards[(0, 1)].tolist() == top
    assert shards[(1, 0)].tolist() == bottom and shards[(1, 1)].tolist() == bottom


def test_dtensor_s01_r_blocks():
    shards = from_global(A, parse_spec("[S01, R]", (2, 2)))
    assert shards[(0, 0)].tolist() == [[1, 2, 3, 4]]
    assert shards[(0, 1)].tolist() == [[4, 5, 6, 7]]
    assert shards[(1, 0)].tolist() == [[8, 9, 10, 11]]
    assert shards[(1, 1)].tolist() == [[12, 13, 14, 15]]


@pytest.mark.parametrize("text", ["[S0, R]", "[S01, R]"])
def test_dtensor_to_global(text):
    spec = parse_spec(text, (2, 2))
    assert np.array_equal(to_global(from_global(A, spec), spec), A)


def test_index_forms():
    m = Mesh((2, 2))
    assert parse_spec("[S0, R]", m) == ShardingSpec(m, ((0,), ()))
    assert parse_spec("[S01, R]", m) == ShardingSpec(m, ((0, 1), ()))
    assert parse_spec("[R, S1]", m) == ShardingSpec(m, ((), (1,)))
    assert parse_spec("[S10, R]", m) == ShardingSpec(m, ((1, 0), ()))
    assert parse_spec("[S(1, 0), R]", m) == ShardingSpec(m, ((1, 0), ()))
    assert parse_spec("[R, S1] P0", m) == ShardingSpec(m, ((), (1,)), (0,))
    assert parse_spec("[R, R] P(0,1)", m) == ShardingSpec(m, ((), ()), (0, 1))
    m4 = Mesh((2, 1, 2, 2))
    assert parse_spec("[S0, S13, R] P2", m4) == ShardingSpec(m4, ((0,), (1, 3), ()), (2,))
    assert parse_spec("[S0, R] on 2x4") == ShardingSpec(Mesh((2, 4)), ((0,), ()))


def test_named_form_moe_notes():
    spec = parse_spec("[B=2/DP=2, S=2/CP=2, M=2/TP=2]")
    assert spec.mesh == Mesh((2, 2, 2), ("DP", "CP", "TP"))
    assert spec.dims == ((0,), (1,), (2,))
    assert spec.dim_names == ("B", "S", "M") and spec.dim_sizes == (2, 2, 2)
    # the dispatch spec of the MoE resharding notes against the attention mesh: E and C replicated
    mesh = Mesh((2, 2, 2), ("DP", "CP", "TP"))
    d = parse_spec("[E=8, B=2/DP, C=1, M/TP]", mesh)
    assert d.dims == ((), (0,), (), (2,)) and d.replicated_axes() == (1,)
    assert d.dim_sizes == (8, 2, 1, None)


def test_named_form_moe_notes_blocks():
    # the MoE resharding notes' tree: batch element b, sequence half s, model half m sits on device (b, s, m)
    tokens = np.arange(8).reshape(2, 2, 2)
    shards = from_global(tokens, parse_spec("[B=2/DP=2, S=2/CP=2, M=2/TP=2]"))
    for (dp, cp, tp), piece in shards.items():
        assert piece.tolist() == [[[tokens[dp, cp, tp]]]]


def test_named_several_axes_and_mesh_clause():
    spec = parse_spec("[T=8/DP=2/TP=4, H]")
    assert spec.mesh == Mesh((2, 4), ("DP", "TP")) and spec.dims == ((0, 1), ())
    spec = parse_spec("[T/TP, H] on [DP=2, TP=4]")
    assert spec.mesh == Mesh((2, 4), ("DP", "TP")) and spec.dims == ((1,), ())
    assert spec.replicated_axes() == (0,)
    spec = parse_spec("[X=4/TP=2, Y] P(DP=2)")
    assert spec.mesh == Mesh((2, 2), ("TP", "DP")) and spec.partial == (1,)


ROUND_TRIP = [
    ("[S0, R]", (2, 2)), ("[S01, R]", (2, 2)), ("[R, S1]", (2, 2)), ("[S10, R]", (2, 2)),
    ("[R, S1] P0", (2, 2)), ("[S0, S1, S2, S3]", (2, 2, 2, 2)), ("[R]", (8,)),
    ("[B=2/DP=2, S=2/CP=2, M=2/TP=2]", None), ("[E, B/DP, C=1, M/TP] on [DP=2, CP=2, TP=2]", None),
    ("[S(DP), R] P(TP) on [DP=2, TP=2]", None), ("[T=8/TP=4/DP=2, H]", None),
]


@pytest.mark.parametrize("text,mesh", ROUND_TRIP)
def test_round_trip(text, mesh):
    spec = parse_spec(text, mesh)
    printed = format_spec(spec)
    again = parse_spec(printed)
    assert again == spec and again.mesh == spec.mesh
    assert again.dim_names == spec.dim_names and again.dim_sizes == spec.dim_sizes
    assert format_spec(again) == printed


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_round_trip_random(data):
    rank = data.draw(st.integers(1, 4))
    mesh_shape = tuple(data.draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank)))
    named = data.draw(st.booleans())
    names = tuple(f"A{i}" for i in range(rank)) if named else ()
    mesh = Mesh(mesh_shape, names)
    tdims = data.draw(st.integers(1, 4))
    axes = data.draw(st.permutations(range(rank)))
    used = data.draw(st.integers(0, rank))
    owners = [data.draw(st.integers(-1, tdims - 1)) for _ in range(used)]
    dims = [[] for _ in range(tdims)]
    partial = []
    for a, o in zip(axes[:used], owners):
        (partial if o < 0 else dims[o]).append(a)
    dim_names = tuple(f"D{i}" for i in range(tdims)) if named and data.draw(st.booleans()) else ()
    spec = ShardingSpec(mesh, tuple(tuple(d) for d in dims), tuple(partial), dim_names=dim_names,
                        dim_sizes=(None,) * len(dim_names))
    again = parse_spec(format_spec(spec))
    assert again == spec and again.mesh == spec.mesh


ERRORS = [
    ("[S0 R]", (2, 2), "column 5: unexpected 'R'"),
    ("[S2, R]", (2, 2), "column 2: mesh axis 2 is out of range for the 2-d mesh 2x2"),
    ("[S0, S0]", (2, 2), "column 6: mesh axis 0 is used more than once"),
    ("[S, R]", (2, 2), "column 2: S needs the mesh axes it shards over"),
    ("[Q(0), R]", (2, 2), "column 2: expected S(<mesh axes>), got 'Q(...)'"),
    ("[S0, R]", None, "names no mesh"),
    ("[B/DP, R]", None, "column 4: mesh axis 'DP' has no size"),
    ("[B=2/DP=2, S/DP=3]", None, "column 14: mesh axis 'DP' has size 2 and 3"),
    ("[S0, R] Q", (2, 2), "column 9: expected P<axes> or P(<axes>)"),
    ("[S0, R", (2, 2), "column 7: unexpected end of text"),
    ("[S0, R] on 2x3", (2, 2), "differs from the mesh given"),
    ("[B=0/DP=2]", None, "column 4: a size must be at least 1"),
    ("[B=2/XX=2]", (2,), "no axis named 'XX'"),
    ("[B/TP=4]", Mesh((2, 2), ("DP", "TP")), "mesh axis 'TP' has 2 devices, the spec says 4"),
    ("[S0, R] $", (2, 2), "column 9: unexpected character '$'"),
    ("[B=2/DP=2, S(TP)]", None, "is the index form"),
    ("[s0, r]", (2, 2), "column 2: 's0' looks like the index form, whose words are upper case: write S0"),
    ("[E=2, S0]", (2, 2), "column 7: 'S0' is the index form, but this spec is in the named form"),
    # a bare name is a mesh axis's name (JAX's PartitionSpec); over a mesh that does not name it,
    # it is refused (it used to read as a replicated named dim: [data, R] meant [R, R])
    ("[data, R]", (2, 4), "column 2: 'data' would shard this dim over a mesh axis of that name, but the mesh "
                          "2x4 does not name its axes; accepted forms: the index form [S0, R]"),
    ("[x, None]", Mesh((2, 4), ("data", "model")), "column 2: 'x' would shard this dim over a mesh axis of that "
                                                   "name, but the mesh [data=2, model=4] has no axis named 'x'"),
    ("[E, C]", Mesh((2,), ("EP",)), "column 2: 'E' would shard this dim over a mesh axis of that name"),
    ("[data, R]", None, "column 2: 'data' would shard this dim over a mesh axis of that name, but the spec "
                        "names no mesh"),
    ("[R, (data, y)] on [data=2, model=4]", None, "column 12: the mesh has no axis named 'y'"),
    ("[DP, B=2/TP=2] on [DP=2, TP=2]", None, "column 2: 'DP' is a mesh axis, but in the named form"),
    ("[(DP), B=2/TP=2] on [DP=2, TP=2]", None, "column 3: '(axes)' is the mesh-axis-name form"),
]


@pytest.mark.parametrize("text,mesh,message", ERRORS)
def test_errors_are_located(text, mesh, message):
    with pytest.raises(LayoutError) as e:
        parse_spec(text, mesh)
    assert message in str(e.value)
    assert f"sharding spec '{text}'" in str(e.value)


def test_from_global_uneven_follows_torch_chunk():
    t = np.arange(10)
    shards = from_global(t, parse_spec("[S01]", (2, 2)))
    # torch.chunk(10 elements, 4) -> 3, 3, 3, 1
    assert [shards[c].tolist() for c in [(0, 0), (0, 1), (1, 0), (1, 1)]] == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    assert np.array_equal(to_global(shards, parse_spec("[S01]", (2, 2))), t)


def test_partial_sums_gather_by_adding():
    spec = parse_spec("[S0, R] P1", (2, 3))
    rng = np.random.default_rng(0)
    t = rng.integers(-9, 9, (4, 5))
    parts = [rng.integers(-9, 9, (4, 5)) for _ in range(3)]
    parts[2] = t - parts[0] - parts[1]
    shards = {(r, c): parts[c][2 * r:2 * r + 2] for r in range(2) for c in range(3)}
    assert np.array_equal(to_global(shards, spec), t)
    assert np.array_equal(to_global(from_global(t, spec), spec), t)


def test_to_global_list_in_device_order_and_bad_shapes():
    spec = parse_spec("[R, S1]", (1, 2))
    assert to_global([np.ones((2, 3)), np.zeros((2, 2))], spec).tolist() == [[1, 1, 1, 0, 0]] * 2
    with pytest.raises(LayoutError, match="the shard of device"):
        to_global({(0, 0): np.ones((2, 2)), (0, 1): np.ones((2, 2))}, spec, shape=(2, 5))
    with pytest.raises(LayoutError, match="missing devices"):
        to_global({(0, 0): np.ones((2, 2))}, spec)


def test_mesh_axis_names_as_jax_writes_them():
    # JAX: PartitionSpec('data', None) over Mesh(devices (2, 4), ('data', 'model')) splits dim 0
    # over 'data' (mesh axis 0); PartitionSpec(('data', 'model')) splits it over both, data major
    mesh = Mesh((2, 4), ("data", "model"))
    assert parse_spec("[data, None]", mesh) == parse_spec("[S0, R]", mesh)
    assert parse_spec("[None, model]", mesh).dims == ((), (1,))
    assert parse_spec("[(data, model), R]", mesh).dims == ((0, 1), ())
    assert parse_spec("[(model, data), R]", mesh).dims == ((1, 0), ())
    assert parse_spec("[R, data] on [data=2, model=4]").dims == ((), (0,))
    both = parse_spec("[model, data] P(x)", Mesh((2, 4, 2), ("data", "model", "x")))
    assert both.dims == ((1,), (0,)) and both.partial == (2,)
    # the named form keeps its bare replicated dims, printed back with their sizes or as R
    spec = parse_spec("[E, B/DP, C=1, M/TP] on [DP=2, CP=2, TP=2]")
    assert spec.dims == ((), (0,), (), (2,)) and spec.dim_names == ("E", "B", "C", "M")
    assert parse_spec(format_spec(spec)) == spec
    rep = ShardingSpec(Mesh((2,), ("EP",)), ((), ()), dim_names=("E", "C"), dim_sizes=(None, None))
    assert format_spec(rep) == "[R, R] on [EP=2]" and parse_spec(format_spec(rep)) == rep


def test_tt_sharding_with_axis_names_reads_them_or_refuses_located():
    from meshc.dialects.tt import ShardingAttr  # noqa: F401  (the dialect reads specs with parse_spec_unbound)
    from meshc.layout.sharding_spec import parse_spec_unbound

    assert parse_spec_unbound("[data, R] on [data=2, model=4]").dims == ((0,), ())
    with pytest.raises(LayoutError, match="column 2: 'data' would shard this dim over a mesh axis of that name, "
                                          "but the module's mesh does not name its axes"):
        parse_spec_unbound("[data, R]")


def test_named_sizes_are_checked_against_the_tensor():
    spec = parse_spec("[B=2/DP=2, M=4]")
    with pytest.raises(LayoutError, match="declares dim M of size 4, the tensor has 3"):
        from_global(np.zeros((2, 3)), spec)


def test_visualize_sharding_reads_axis_names_or_refuses():
    import meshc

    with pytest.raises(LayoutError, match="'x' would shard this dim over a mesh axis of that name, but the mesh "
                                          "2x4 does not name its axes"):
        meshc.visualize_sharding((8, 8), "[x, None]", (2, 4), text=False)
    view = meshc.visualize_sharding((8, 8), "[x, None]", Mesh((2, 4), ("x", "y")), text=False)
    assert len(view.blocks) == 2 and view.blocks[1].devices == ((1, 0), (1, 1), (1, 2), (1, 3))
