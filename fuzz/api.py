"""Hypothesis strategies for meshc's Python API, and running one drawn call in a worker.

The public placement functions (`place`, `MemoryConfig`, `distribute`, `aggregate`,
`lower_mesh_mapper`, `derive_device`, `plan_reshard`) get arguments from the edges: zero,
negative and huge sizes (2**20, 2**40, 2**63-1), inf and nan, strings where numbers go, empty
and ragged sequences, huge broadcast arrays, meshes of any rank. A drawn call is a `Case` whose
arguments are recipes (`("@", name, args, kwargs)` builds `meshc.layout.<name>(...)` or a
numpy array in the worker), so even constructors' own checks run under the worker's limits.
A call may return or raise meshc's `LayoutError`; anything else is an internal error.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from fuzz.case import Case

EDGE_INTS = (0, 1, 2, 3, 4, 7, 8, 16, 32, 64, -1, -8, 2**20, 2**31, 2**40, 2**63 - 1)

ints = st.one_of(st.integers(0, 9), st.sampled_from(EDGE_INTS))
small = st.integers(1, 8)
odd_values = st.sampled_from((math.inf, -math.inf, math.nan, 1.5, "8", "32x32", None, True, (), "", b"x"))
sizes = st.one_of(ints, ints, ints, odd_values)
shapes = st.one_of(st.lists(ints, min_size=0, max_size=5).map(tuple),
                   st.lists(sizes, min_size=0, max_size=4).map(tuple),
                   st.sampled_from((((2**20, 2**20)), (2**40, 2**40), (2**63 - 1, 1), (32, 32), (64, 128))))
meshes = st.one_of(st.lists(small, min_size=1, max_size=4).map(tuple),
                   st.lists(ints, min_size=0, max_size=4).map(tuple),
                   st.sampled_from(((2**40,), (64, 64), (2**20, 2**20), (0,), (-2, 4), 8, 2**63 - 1, "2x4")))
dtypes = st.sampled_from(("f32", "bf16", "f16", "u32", "si32", "u8", "bfp8", "bfp4", "float32", "i6464", "", 7))
tiles = st.one_of(st.sampled_from(((32, 32), (16, 32), (32, 16), (16, 16), (8, 32), (1, 32), None,
                                   "32x32", (0, 32), (-32, 32), (2**40, 32), (math.inf, 32), (32,), 32)),
                  st.tuples(ints, ints))
archs = st.sampled_from(("wormhole_b0", "grayskull", "blackhole", "nope", ""))
buffers = st.sampled_from(("l1", "dram", "sram"))
layouts = st.sampled_from(("interleaved", "height_sharded", "width_sharded", "block_sharded", "nd_sharded", "x"))
orients = st.sampled_from(("row_major", "col_major", "diag"))
grids = st.one_of(st.none(), st.tuples(ints, ints), st.tuples(small, small),
                  st.sampled_from(((8, 8), (2**40, 1), (0, 0), "8x8", (math.inf, 2), ((0, 0), (7, 7)),
                                   ((0, 0), (0, 2**63 - 1)), [((0, 0), (1, 1)), ((3, 3), (4, 4))], (1, 2, 3))))


def _make(name, *args, **kwargs):
    return ("@", name, args, kwargs)


memory_configs = st.one_of(
    st.just(_make("MemoryConfig", "dram", "interleaved")),
    st.builds(lambda b, l, g, s, o: _make("MemoryConfig", b, l, g, s, o), buffers, layouts, grids,
              st.one_of(st.none(), shapes), orients),
    st.builds(lambda b, l, g, s: _make("MemoryConfig", b, l, g, s), buffers, layouts, st.tuples(small, small),
              st.tuples(st.sampled_from((32, 64, 128, 1, 0, math.inf, 2**40)), st.sampled_from((32, 64, 1)))),
)

mapper_recipes = st.one_of(
    st.builds(lambda d: _make("ShardTensorToMesh", d), st.integers(-4, 5)),
    st.builds(lambda d, p: _make("ShardTensor2dMesh", dims=d, pad=p),
              st.lists(st.one_of(st.none(), st.integers(-3, 4)), min_size=0, max_size=3).map(tuple), st.booleans()),
    st.builds(lambda d: _make("ShardTensorNdMesh", dims=d),
              st.lists(st.one_of(st.none(), st.integers(-3, 4)), min_size=0, max_size=4).map(tuple)),
    st.just(_make("ReplicateTensorToMesh")),
    st.sampled_from(("[S0, R]", "[R, S1]", "[S01, R]", "[S0]", "garbage", "")),
)
composer_recipes = st.one_of(
    st.builds(lambda d: _make("ConcatMeshToTensor", d), st.integers(-3, 4)),
    st.builds(lambda d: _make("ConcatMesh2dToTensor", dims=d),
              st.lists(st.one_of(st.none(), st.integers(-3, 4)), min_size=0, max_size=3).map(tuple)),
    st.builds(lambda d: _make("ConcatMeshNdToTensor", dims=d),
              st.lists(st.one_of(st.none(), st.integers(-3, 4)), min_size=0, max_size=4).map(tuple)),
)
arrays = st.one_of(
    st.builds(lambda s: ("array", s), st.lists(st.integers(0, 9), min_size=0, max_size=4).map(tuple)),
    st.builds(lambda s: ("broadcast", s), st.one_of(shapes, st.sampled_from(((2**20, 2**20), (2**40, 8),
                                                                             (2**31, 2**31, 4))))),
)
spec_texts = st.one_of(
    st.sampled_from(("[S0, R] @ mesh(2, 2)", "[R, S1] @ mesh(2, 2)", "[S01, R] @ mesh(2, 4)",
                     "[S0, S1] @ mesh(64, 64)", "[R, R] @ mesh(64, 64)", "[S1, S0] @ mesh(64, 64)",
                     "[S0, R] @ mesh(2**40)", "[S0] @ mesh(0)", "[", "[S0, R]", "[S0, S0] @ mesh(2, 2)",
                     "[P, R] @ mesh(2)", "[S0, R] @ mesh(9223372036854775807, 1)")),
    st.builds(lambda a, b: (a, b), st.sampled_from(("[S0, R]", "[R, S1]", "[S01, R]", "[S0, S1]", "[R, R]")),
              meshes),
)


def _call(name):
    def build(args_kwargs):
        args, kwargs = args_kwargs
        return Case("api", f"api {name}", call=name, args=tuple(args), kwargs=dict(kwargs))
    return build


def _ak(*args, **kwargs):
    return st.tuples(st.tuples(*args), st.fixed_dictionaries(kwargs))


api_cases = st.one_of(
    _ak(shapes, dtypes, memory_configs, tile=tiles, arch=archs).map(_call("place")),
    _ak(buffers, layouts, grids, st.one_of(st.none(), shapes), orients).map(_call("MemoryConfig")),
    _ak(arrays, meshes, mapper_recipes).map(_call("distribute")),
    _ak(st.one_of(st.just({}), st.just([]), st.builds(lambda s, n: {(i,): ("array", s) for i in range(n)},
                                                        st.lists(st.integers(0, 4), max_size=3).map(tuple),
                                                        st.integers(0, 5))),
        meshes, composer_recipes).map(_call("aggregate")),
    _ak(shapes, meshes, mapper_recipes, st.one_of(small, ints, odd_values)).map(_call("lower_mesh_mapper")),
    _ak(meshes, chip_grid=st.one_of(st.none(), st.tuples(ints, ints), st.sampled_from(((2**40, 2**40), (8,)))),
        chip_ids=st.one_of(st.none(), st.lists(st.integers(-2, 70), max_size=8))).map(_call("derive_device")),
    _ak(shapes, dtypes, spec_texts, spec_texts).map(_call("plan_reshard")),
)
"""A drawn call of the public placement API (a Case of kind "api")."""


def draw_api_cases(n: int, seed: int) -> list[Case]:
    """`n` API cases drawn by hypothesis from a fixed seed (generation only: no shrinking)."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    out: list[Case] = []

    @hseed(seed)
    @settings(max_examples=n, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(api_cases)
    def collect(case):
        out.append(case)

    collect()
    return out[:n]


# ----------------------------------------------------------------------------- in the worker


def _build(x):
    """Turn recipes into values: meshc.layout objects and numpy arrays."""
    import meshc.layout as L

    if isinstance(x, tuple) and x and x[0] == "@":
        _, name, args, kwargs = x
        return getattr(L, name)(*[_build(a) for a in args], **{k: _build(v) for k, v in kwargs.items()})
    if isinstance(x, tuple) and len(x) == 2 and x[0] in ("array", "broadcast"):
        shape = x[1]
        if x[0] == "array":
            return np.arange(math.prod(shape), dtype=np.float32).reshape(shape)
        try:
            return np.broadcast_to(np.float32(1), shape)
        except (ValueError, TypeError) as e:  # numpy refuses the shape itself: not meshc's business
            raise _NotMeshc(str(e)) from None
    if isinstance(x, dict):
        return {k: _build(v) for k, v in x.items()}
    if isinstance(x, tuple):
        return tuple(_build(v) for v in x)
    return x


class _NotMeshc(Exception):
    """The input could not be built (numpy refused it) before meshc was called."""


def run_api_case(case: Case) -> tuple[str, str]:
    """(class, message): ok, located (meshc's LayoutError), internal (any other exception)."""
    import meshc.layout as L

    try:
        args = [_build(a) for a in case.args]
        kwargs = {k: _build(v) for k, v in case.kwargs.items()}
    except L.LayoutError as e:
        return "located", f"LayoutError: {e}"
    except _NotMeshc as e:
        return "ok", f"(not built: {e})"
    except MemoryError:
        raise
    except Exception as e:  # noqa: BLE001 - a constructor of meshc.layout failing its own way
        return "internal", f"{type(e).__name__}: {e}"
    try:
        result = getattr(L, case.call)(*args, **kwargs)
        if case.call == "place":
            result.pages_by_owner()
        elif case.call == "plan_reshard":
            _ = result.steps
    except L.LayoutError as e:
        return "located", f"{type(e).__name__}: {e}"
    except MemoryError:
        raise
    except Exception as e:  # noqa: BLE001 - any other exception type is a bug
        return "internal", f"{type(e).__name__}: {e}"
    return "ok", ""
