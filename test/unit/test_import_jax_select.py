"""The data-movement and selection ops JAX programs use (slice, concatenate, dynamic_slice and
dynamic_update_slice at constant starts, iota, gather as emb[ids]), written as JAX users write
them, lowered by JAX with the inputs sharded over a 2x4 mesh, imported with meshc.from_jax,
lowered to TTNN and to TTMetal, run on the simulator and compared with JAX's own output.

dynamic_slice and dynamic_update_slice also at a run-time position (a KV cache's decode step).
The link bytes of the sharded cases are derived by hand in each test. Skipped when jax is not
installed (`pip install meshc[jax]`; the `test` extra installs it).
"""

import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
from jax.sharding import PartitionSpec as P  # noqa: E402

import meshc  # noqa: E402
from helpers_jax import mesh_2x4 as _mesh, run_against_jax as _run, ttir_names as _names  # noqa: E402

TARGETS = ["ttnn", "ttmetal"]
RNG = np.random.default_rng(23)


def _lowered(module, target: str) -> list[str]:
    return [op.name for op in meshc.compile(module.clone(), f"ttir-to-{target}-pipeline").walk()]


@pytest.mark.parametrize("target", TARGETS)
def test_slices_of_a_sharded_tensor_match_jax(target):
    """x [x, y] 8x16 f32, 4x4 (64 B) a device. x[:, 4:12] slices the dim y splits, at step 1:
    the result 8x8 stays split [x, y] (2 columns a device), each device taking its columns
    where they lie. Along y the devices hold columns [0, 4), [4, 8), [8, 12), [12, 16) and need
    [4, 6), [6, 8), [8, 10), [10, 12): y=1 and y=2 hold theirs, y=0 receives 2 columns from y=1
    and y=3 2 from y=2 (4 rows x 2 x 4 B = 32 B each, one hop), 64 B a mesh row, 128 B for 2.
    x[2:6:2] is strided: gathered along x (1 piece, 64 B a device, 512 B). The results, 8x8 on
    [x, y] (4x2, 32 B a device) and 2x16 on [-, y] (2x4, 32 B), leave replicated as JAX asks:
    the first gathered along y (3 x 32 B into each device, 768 B) then x (1 x 128 B, 1,024 B),
    the second along y (768 B). 3,200 B in all (the plan that gathers the sliced dim first
    moved 3,840 B)."""
    x = RNG.standard_normal((8, 16)).astype(np.float32)
    module, got, want = _run(lambda x: (x[:, 4:12], x[2:6:2]), [x], [P("x", "y")], P(), target)
    assert _names(module).count("ttir.slice") == 2
    for g, w in zip(got.outputs, want, strict=True):
        np.testing.assert_array_equal(g, w)
    assert got.traffic.link_bytes == 128 + 512 + 768 + 1024 + 768


@pytest.mark.parametrize("target", TARGETS)
def test_concatenate_along_a_sharded_dim_matches_jax(target):
    """a, b [x, y] 8x16 f32 joined along dim 1 (split over y) into 8x32 [x, y], no operand
    gathered: each device moves in its 8 result columns from where they lie. Along y, device j
    holds a[4j, 4j+4) and b[4j, 4j+4) (4 rows x 4 columns, 64 B each) and needs result columns
    [8j, 8j+8): y=0 needs a[0, 8) and lacks a[4, 8) (from y=1, one hop); y=1 needs a[8, 16)
    (from y=2, one hop, and y=3, two hops); y=2 needs b[0, 8) (from y=0, two hops, and y=1, one);
    y=3 needs b[8, 16) and lacks b[8, 12) (from y=2, one hop). 8 piece-hops of 64 B a mesh row,
    1,024 link bytes for the 2 rows (gathering both operands along y moved 3,072 B)."""
    a, b = (RNG.standard_normal((8, 16)).astype(np.float32) for _ in range(2))
    module, got, want = _run(lambda a, b: jnp.concatenate([a, b * 2.0], axis=1), [a, b],
                             [P("x", "y"), P("x", "y")], P("x", "y"), target)
    assert "ttir.concat" in _names(module)
    np.testing.assert_array_equal(got.outputs[0], want[0])
    assert got.traffic.link_bytes == 2 * 8 * 64


@pytest.mark.parametrize("target", TARGETS)
def test_kv_cache_update_and_read_at_constant_positions_match_jax(target):
    """A KV cache (2, 16, 8) split [x, -, y]: the new entry (2, 1, 8) written at position 5 of
    the sequence, then the first 8 positions read back (a dynamic_update_slice and a
    dynamic_slice at constant starts, sequence dim unsplit: every device works on its own
    piece and nothing crosses a link)."""
    cache = RNG.standard_normal((2, 16, 8)).astype(np.float32)
    new = RNG.standard_normal((2, 1, 8)).astype(np.float32)

    def step(cache, new):
        cache = jax.lax.dynamic_update_slice(cache, new, (0, 5, 0))
        return jax.lax.dynamic_slice(cache, (0, 0, 0), (2, 8, 8))

    module, got, want = _run(step, [cache, new], [P("x", None, "y"), P("x", None, "y")], P("x", None, "y"), target)
    assert {"ttir.slice", "ttir.concat"} <= set(_names(module))
    np.testing.assert_array_equal(got.outputs[0], want[0])
    assert got.traffic.link_bytes == 0


def _decode(cache, new, pos):
    """A KV cache's decode step: the new entry written at the run-time position `pos`, then read back."""
    cache = jax.lax.dynamic_update_slice(cache, new, (0, pos, 0))
    return cache, jax.lax.dynamic_slice(cache, (0, pos, 0), (2, 1, 8))


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("pos", [5, 15, 40, -3])
def test_kv_cache_at_a_run_time_position_matches_jax(target, pos):
    """The cache (2, 16, 8) split [x, -, y], the position an argument: written through a one-hot
    mask of the positions and read back as a sum over them, each device on its own piece (0 link
    bytes). A position past the end is clamped (StableHLO clamps starts); a negative one JAX
    wraps first."""
    cache = RNG.standard_normal((2, 16, 8)).astype(np.float32)
    new = RNG.standard_normal((2, 1, 8)).astype(np.float32)
    split = P("x", None, "y")
    module, got, want = _run(_decode, [cache, new, np.int32(pos)], [split, split, P()], (split, split), target)
    assert {"ttir.where", "ttir.sum", "ttir.eq"} <= set(_names(module))
    for g, w in zip(got.outputs, want, strict=True):
        np.testing.assert_array_equal(g, w)
    assert got.traffic.link_bytes == 0


@pytest.mark.parametrize("target", TARGETS)
def test_kv_cache_split_along_its_positions_matches_jax(target):
    """The cache (2, 16, 8) split over y along its 16 positions (4 a device): each device writes
    the new entry only where the position falls in its own 4 (the mask is cut where it lies, 0
    bytes); the read sums over the positions, so each device holds a partial sum of the (2, 1, 8)
    entry over y, wanted replicated. The planner splits it over x first (each device 1x1x8, 32 B;
    free), all_reduces over y (a reduce-scatter and an all-gather each moving 3/4 of 32 B out of
    every device: 48 B a device, 384 B for 8) and gathers over x (one 32 B piece into each
    device: 256 B). 640 B in all."""
    cache = RNG.standard_normal((2, 16, 8)).astype(np.float32)
    new = RNG.standard_normal((2, 1, 8)).astype(np.float32)
    module, got, want = _run(_decode, [cache, new, np.int32(6)], [P(None, "y", None), P(), P()],
                             (P(None, "y", None), P()), target)
    for g, w in zip(got.outputs, want, strict=True):
        np.testing.assert_array_equal(g, w)
    assert got.traffic.link_bytes == 384 + 256


@pytest.mark.parametrize("target", TARGETS)
def test_iota_positions_match_jax(target):
    """x + arange(16) along the dim y splits: iota is a constant at import, cut where it lies."""
    x = RNG.standard_normal((8, 16)).astype(np.float32)
    module, got, want = _run(lambda x: x + jnp.arange(16, dtype=jnp.float32), [x], [P("x", "y")], P("x", "y"), target)
    np.testing.assert_array_equal(got.outputs[0], want[0])
    assert got.traffic.link_bytes == 0


@pytest.mark.parametrize("target", TARGETS)
def test_vocab_parallel_embedding_matches_jax(target):
    """emb[ids] with the 64x32 f32 table split by rows over y and the 4x8 indices over x: a masked
    local lookup and an all_reduce over y of each device's 2x8x32 f32 partial result (2,048 B):
    a reduce-scatter and an all-gather each moving 3/4 of it out of every device, 3,072 B a
    device, 24,576 B for 8; the table is never gathered (that would be 3 x 16 x 32 x 4 =
    6,144 B into each device, 49,152 B)."""
    emb = RNG.standard_normal((64, 32)).astype(np.float32)
    ids = RNG.integers(0, 64, (4, 8)).astype(np.int32)
    module, got, want = _run(lambda emb, ids: emb[ids], [emb, ids], [P("y", None), P("x", None)],
                             P("x", None, None), target)
    assert "ttir.embedding" in _names(module)
    np.testing.assert_array_equal(got.outputs[0], want[0])
    assert got.traffic.link_bytes == 24_576
    lowered = _lowered(module, target)
    assert not any("all_gather" in n for n in lowered)


@pytest.mark.parametrize("target", TARGETS)
def test_negative_and_out_of_range_indices_match_jax(target):
    """JAX reads emb[-1] as the last row and clamps an index past the end (gather clamps)."""
    emb = RNG.standard_normal((16, 8)).astype(np.float32)
    ids = np.array([[0, -1, 3, 15], [20, -16, 7, 2]], np.int32)
    _, got, want = _run(lambda emb, ids: emb[ids], [emb, ids], [P(), P()], P(), target)
    np.testing.assert_array_equal(got.outputs[0], want[0])


@pytest.mark.parametrize("target", TARGETS)
def test_axis_index_in_a_shard_map_matches_jax(target):
    """jax.lax.axis_index of both axes in a shard_map body (StableHLO's partition_id, then JAX's
    divide and remainder by the axis sizes): each device's id cut from a constant where it lies,
    0 link bytes."""
    mesh = _mesh()

    def body(x):
        return x + jax.lax.axis_index("y").astype(x.dtype) * 10 + jax.lax.axis_index("x").astype(x.dtype) * 100

    f = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P("x", "y"), out_specs=P("x", "y")))
    x = RNG.standard_normal((8, 16)).astype(np.float32)
    module = meshc.from_jax(f, x, mesh=mesh)
    assert "ttir.all_slice" in _names(module)
    got = meshc.run(module, {"x": x}, target=target)
    np.testing.assert_array_equal(got.outputs[0], np.asarray(f(x)))
    assert got.traffic.link_bytes == 0


def test_axis_index_in_a_shard_map_manual_over_some_axes_is_a_located_error():
    """A shard_map manual over x only: meshc holds its body replicated over y, where the device's
    id would differ; refused at the user's line, saying what to write."""
    mesh = _mesh()
    x = np.ones((8, 16), np.float32)
    with pytest.raises(meshc.errors.DiagnosticError, match=r"test_import_jax_select.py:\d+:\d+: error: 'stablehlo."
                       r"partition_id' op is in a shard_map manual over 1 of the mesh's 2 axes; .* in a shard_map "
                       "manual over every axis"):
        fn = jax.jit(lambda x: x + jax.lax.convert_element_type(jax.lax.axis_index("x"), np.float32))
        meshc.from_jax(jax.shard_map(fn, mesh=mesh, in_specs=P("x", None), out_specs=P("x", None),
                                     axis_names={"x"}), x, mesh=mesh)


@pytest.mark.parametrize("target", TARGETS)
def test_argmax_and_argmin_over_sharded_dims_match_jax(target):
    """jnp.argmax along dim 1 (split over y) and jnp.argmin along dim 0 (split over x) of x [x, y]
    8x16 f32 (4x4 a device), with ties (values rounded to a tenth): imported as ttir.argmax /
    ttir.argmin, the first position of the extreme, as JAX. Only candidates cross the links:
    each device's extreme and its global index, 4 B each, one per row (argmax) or column
    (argmin) of its 4x4 piece, 32 B. Along y each device receives the other 3 devices' 32 B:
    8 x 3 x 32 = 768 B; along x the other 1 device's: 8 x 1 x 32 = 256 B. 1,024 B in all
    (the decomposed form gathered the 64 B pieces themselves, twice: 4,096 B)."""
    x = np.round(RNG.standard_normal((8, 16)), 1).astype(np.float32)
    x[2, 3] = x[2, 9] = 9.0  # a tie for the maximum of row 2: the first, 3
    fn = lambda x: (jnp.argmax(x, axis=1), jnp.argmin(x, axis=0))  # noqa: E731
    module, got, want = _run(fn, [x], [P("x", "y")], (P("x"), P("y")), target)
    assert [n for n in _names(module) if n.startswith("ttir.arg")] == ["ttir.argmax", "ttir.argmin"]
    for g, w in zip(got.outputs, want, strict=True):
        np.testing.assert_array_equal(g, w)
    assert int(got.outputs[0][2]) == 3
    assert got.traffic.link_bytes == 8 * 3 * 32 + 8 * 1 * 32 == 1024


@pytest.mark.parametrize("target", TARGETS)
def test_argmax_over_a_split_dim_of_4x1024_moves_candidates_only(target):
    """jnp.argmax along dim 1 of x 4x1024 f32 split over the 4 devices of y (4x256 a device),
    replicated over x, the result replicated. Each device's 4 rows' maxima and their global
    indices (4 x (4 + 4) = 32 B) are all the links carry: each of the 8 devices receives its 3
    y-neighbours' 32 B, 8 x 3 x 32 = 768 B. Gathering the dim first would bring each device the
    other 3 pieces of 4 KiB: 8 x 3 x 4,096 = 98,304 B. Ties across devices (row 0's maximum at
    100 and 700, row 3's at 600 and 300): the first, as JAX."""
    x = RNG.standard_normal((4, 1024)).astype(np.float32)
    x[0, 100] = x[0, 700] = 20.0
    x[3, 600] = x[3, 300] = 20.0
    module, got, want = _run(lambda x: jnp.argmax(x, axis=1), [x], [P(None, "y")], P(), target)
    assert "ttir.argmax" in _names(module) and "ttir.matmul" not in _names(module)
    np.testing.assert_array_equal(got.outputs[0], want[0])
    assert list(got.outputs[0][[0, 3]]) == [100, 300]
    assert got.traffic.link_bytes == 8 * 3 * 4 * (4 + 4) == 768
    assert got.traffic.link_bytes < 8 * 3 * 4 * 256 * 4


@pytest.mark.parametrize("target", TARGETS)
def test_cumsum_over_sharded_dims_matches_jax(target):
    """jnp.cumsum along dim 1 (split over y) and dim 0 (split over x) of x [x, y] 8x16 f32 (4x4
    a device), results wanted [x, y]: imported as ttir.cumsum, each device scans its piece and
    only its piece's totals cross the links (one 4 B total a row, or a column: 16 B), the
    exclusive prefix of the totals added. Along y each device receives 3 x 16 B: 8 x 3 x 16 =
    384 B; along x 1 x 16 B: 8 x 16 = 128 B. 512 B in all (the matmul by a 0/1 triangular
    matrix gathered the 64 B pieces: 2,048 B). Each sum adds the same f32 values as JAX's scan,
    in another order."""
    x = RNG.standard_normal((8, 16)).astype(np.float32)
    fn = lambda x: (jnp.cumsum(x, axis=1), jnp.cumsum(x, axis=0))  # noqa: E731
    module, got, want = _run(fn, [x], [P("x", "y")], (P("x", "y"), P("x", "y")), target)
    assert "ttir.matmul" not in _names(module) and _names(module).count("ttir.cumsum") == 2
    for g, w in zip(got.outputs, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)
    assert got.traffic.link_bytes == 8 * 3 * 16 + 8 * 1 * 16 == 512


@pytest.mark.parametrize("target", TARGETS)
def test_integer_cumsum_over_a_split_dim_is_exact(target):
    """jnp.cumsum of i32 along dim 1 split over y: exact, as JAX (every partial sum an integer)."""
    x = RNG.integers(-50, 50, (8, 16)).astype(np.int32)
    module, got, want = _run(lambda x: jnp.cumsum(x, axis=1), [x], [P("x", "y")], P("x", "y"), target)
    assert "ttir.cumsum" in _names(module)
    np.testing.assert_array_equal(got.outputs[0], want[0])


@pytest.mark.parametrize("target", TARGETS)
def test_reverse_cumsum_over_a_split_dim_gathers_only_the_totals(target):
    """jax.lax.cumsum(x, axis=1, reverse=True) is a reduce_window padded after: ttir.cumsum with
    reverse, split as the forward one with the later pieces' totals (a suffix): each of the 8
    devices receives its 3 y-neighbours' 4 totals (16 B), 8 x 3 x 16 = 384 B (the band matmul
    it was imported as before gathered x: 3 x 64 B into each of 8 devices, 1,536 B)."""
    x = RNG.standard_normal((8, 16)).astype(np.float32)
    fn = lambda x: jax.lax.cumsum(x, axis=1, reverse=True)  # noqa: E731
    module, got, want = _run(fn, [x], [P("x", "y")], P("x", "y"), target)
    assert "ttir.matmul" not in _names(module) and "ttir.cumsum" in _names(module)
    np.testing.assert_allclose(got.outputs[0], want[0], rtol=1e-5, atol=1e-5)
    assert got.traffic.link_bytes == 8 * 3 * 16


@pytest.mark.parametrize("target", TARGETS)
def test_top_k_matches_jax(target):
    """jax.lax.top_k(x, 3) (MoE routing) of x 8x16 f32 with ties: ttir.top_k and ttir.top_k_indices,
    the values and positions as JAX orders them (larger first, among equals the lower position).
    Rows split over x, the last dim whole: each device ranks its own rows, 0 link bytes. With the
    last dim split over y too (4x4 a device) each device's 3 candidates a row cross the links,
    values and global indices (4 x 3 x (4 + 4) = 96 B), its 3 y-neighbours' into each of 8
    devices: 8 x 3 x 96 = 2,304 B (gathering the 64 B pieces would be 1,536 B here, with 4
    columns a device barely more than k; the 4x1024 case of test_sharded_select shows the
    saving), and the ranks are the same."""
    x = np.round(RNG.standard_normal((8, 16)), 1).astype(np.float32)
    x[0, 2] = x[0, 7] = 9.0  # a tie for the top of row 0: position 2 first
    x[1, 13] = x[1, 1] = 9.0  # on two devices along y: position 1 first
    fn = lambda x: tuple(jax.lax.top_k(x, 3))  # noqa: E731
    module, got, want = _run(fn, [x], [P("x", None)], (P("x"), P("x")), target)
    assert [n for n in _names(module) if n.startswith("ttir.top")] == ["ttir.top_k", "ttir.top_k_indices"]
    for g, w in zip(got.outputs, want, strict=True):
        np.testing.assert_array_equal(g, w)
    assert list(got.outputs[1][0][:2]) == [2, 7]
    assert got.traffic.link_bytes == 0
    _, got, want = _run(fn, [x], [P("x", "y")], (P("x"), P("x")), target)
    for g, w in zip(got.outputs, want, strict=True):
        np.testing.assert_array_equal(g, w)
    assert list(got.outputs[1][1][:2]) == [1, 13]
    assert got.traffic.link_bytes == 8 * 3 * 4 * 3 * (4 + 4) == 2304


@pytest.mark.parametrize("target", TARGETS)
def test_argmax_and_argmin_put_the_first_nan_first_as_jax(target):
    """JAX's comparator lets a NaN win, so jnp.argmax / jnp.argmin return the first NaN's position
    where a row has one (numpy's argmax does too). x 4x1024 f32 along dim 1 split over y (256 a
    device): row 1 has NaNs on two devices (700, 900), row 2 a +inf before its NaN (10, 300),
    rows 0 and 3 none. The same 768 B as without NaNs (8 x 3 x 4 x (4 + 4) per op): the NaN
    test is local."""
    x = RNG.standard_normal((4, 1024)).astype(np.float32)
    x[1, 700] = x[1, 900] = np.nan
    x[2, 10], x[2, 300] = np.inf, np.nan
    fn = lambda x: (jnp.argmax(x, axis=1), jnp.argmin(x, axis=1))  # noqa: E731
    module, got, want = _run(fn, [x], [P(None, "y")], (P(), P()), target)
    for g, w in zip(got.outputs, want, strict=True):
        np.testing.assert_array_equal(g, w)
    assert list(got.outputs[0][1:3]) == list(got.outputs[1][1:3]) == [700, 300]
    assert got.traffic.link_bytes == 2 * 8 * 3 * 4 * (4 + 4)


@pytest.mark.parametrize("target", TARGETS)
def test_top_k_puts_nans_first_as_jax(target):
    """jax.lax.top_k ranks a NaN above every number (the first NaN first): x 8x16 f32 with its last
    dim split over y (4 columns a device) has NaNs in row 0 on two devices (9, 2) and a +inf
    after them (5), NaN and -inf in row 3; k = 3: the values (NaNs where JAX has them) and the
    positions as JAX. The NaN test is local: the same 2,304 B as test_top_k_matches_jax."""
    x = np.round(RNG.standard_normal((8, 16)), 1).astype(np.float32)
    x[0, 9] = x[0, 2] = np.nan
    x[0, 5] = np.inf
    x[3, 14], x[3, 0] = np.nan, -np.inf
    fn = lambda x: tuple(jax.lax.top_k(x, 3))  # noqa: E731
    module, got, want = _run(fn, [x], [P("x", "y")], (P("x"), P("x")), target)
    for g, w in zip(got.outputs, want, strict=True):
        np.testing.assert_array_equal(g, w)
    assert list(got.outputs[1][0]) == [2, 9, 5] and int(got.outputs[1][3][0]) == 14
    assert got.traffic.link_bytes == 8 * 3 * 4 * 3 * (4 + 4)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dtype, value_bytes", [("bfloat16", 2), ("int32", 4)])
def test_argmax_of_bf16_and_i32_over_a_split_dim_matches_jax(target, dtype, value_bytes):
    """jnp.argmax along dim 1 of x 4x1024 in bf16 (ties likely: 8 bits of mantissa) or i32 (values
    in [-9, 9): many ties) split over y: exact against JAX. The candidates are a value in x's type
    and an index (4 B) a row: 8 x 3 x 4 x (value_bytes + 4) link bytes."""
    x = RNG.standard_normal((4, 1024)) if dtype == "bfloat16" else RNG.integers(-9, 9, (4, 1024))
    x = x.astype(jnp.dtype(dtype))
    module, got, want = _run(lambda x: jnp.argmax(x, axis=1), [x], [P(None, "y")], P(), target)
    assert "ttir.argmax" in _names(module)
    np.testing.assert_array_equal(got.outputs[0], want[0])
    assert got.traffic.link_bytes == 8 * 3 * 4 * (value_bytes + 4)
