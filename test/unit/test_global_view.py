"""Random small global-view programs, annotated at random, on the simulator.

Each program is lowered by the ttnn pipeline for a mesh (propagation, partition,
reshard-to-collectives) and run on the simulated machine; its outputs must equal numpy on
the global program (the golden run), and the bytes the simulator delivers between chips must
be the reshard planner's count for the reshards the partition inserted (when none of them
reduces partial sums, whose collectives the planner does not model byte for byte).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import meshc
from meshc.dialects import ttir
from meshc.layout.reshard import plan_reshard
from meshc.errors import DiagnosticError

MESHES = [(2, 2), (2, 4), (1, 4)]
UNARY = ("relu", "exp", "neg", "tanh")


def _spec_text(draw, shape, mesh) -> str | None:
    if draw(st.booleans()) and draw(st.booleans()):
        return None  # unannotated: replicated
    dims: list[list[int]] = [[] for _ in shape]
    for a in range(len(mesh)):
        d = draw(st.integers(-1, len(shape) - 1))
        if d >= 0:
            dims[d].append(a)
    words = ["R" if not d else "S" + "".join(map(str, d)) for d in dims]
    return "[" + ", ".join(words) + "]"


def _ty(shape) -> str:
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def _ann(spec) -> str:
    return "" if spec is None else f" {{tt.sharding = #tt.sharding<{spec}>}}"


@st.composite
def programs(draw):
    mesh = draw(st.sampled_from(MESHES))
    m, k = draw(st.sampled_from([8, 16, 32])), draw(st.sampled_from([8, 16]))
    args = [("x", (m, k), _spec_text(draw, (m, k), mesh))]
    body: list[str] = []
    cur, shape, n = "%x", (m, k), 0
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["unary", "add", "matmul", "transpose", "softmax", "sum", "constraint"]))
        n += 1
        out = f"%v{n}"
        if kind == "unary":
            op = draw(st.sampled_from(UNARY))
            body.append(f'{out} = "ttir.{op}"({cur}) : ({_ty(shape)}) -> {_ty(shape)}')
        elif kind == "add":
            name = f"a{n}"
            args.append((name, shape, _spec_text(draw, shape, mesh)))
            body.append(f'{out} = "ttir.add"({cur}, %{name}) : ({_ty(shape)}, {_ty(shape)}) -> {_ty(shape)}')
        elif kind == "matmul":
            cols = draw(st.sampled_from([8, 16]))
            name = f"w{n}"
            args.append((name, (shape[1], cols), _spec_text(draw, (shape[1], cols), mesh)))
            new = (shape[0], cols)
            body.append(f'{out} = "ttir.matmul"({cur}, %{name}) : ({_ty(shape)}, {_ty((shape[1], cols))}) -> {_ty(new)}')
            shape = new
        elif kind == "transpose":
            new = (shape[1], shape[0])
            body.append(f'{out} = "ttir.transpose"({cur}) {{dim0 = 0 : si32, dim1 = 1 : si32}} : ({_ty(shape)}) -> {_ty(new)}')
            shape = new
        elif kind == "softmax":
            d = draw(st.integers(0, 1))
            body.append(f'{out} = "ttir.softmax"({cur}) {{dimension = {d} : si32}} : ({_ty(shape)}) -> {_ty(shape)}')
        elif kind == "sum":
            new = (shape[0], 1)
            body.append(f'{out} = "ttir.sum"({cur}) {{dim_arg = [1 : i32], keep_dim = true}} : ({_ty(shape)}) -> {_ty(new)}')
            shape = new
        else:
            spec = _spec_text(draw, shape, mesh) or "[R, R]"
            body.append(f'{out} = "ttir.sharding_constraint"({cur}) {{sharding = #tt.sharding<{spec}>}} : '
                        f'({_ty(shape)}) -> {_ty(shape)}')
        cur = out
    res = _spec_text(draw, shape, mesh)
    sig = ", ".join(f"%{a}: {_ty(s)}{_ann(sp)}" for a, s, sp in args)
    text = (f"func.func @main({sig}) -> ({_ty(shape)}{_ann(res)}) {{\n  "
            + "\n  ".join(body) + f"\n  return {cur} : {_ty(shape)}\n}}\n")
    return mesh, text, [(a, s) for a, s, _ in args]


@settings(max_examples=25, deadline=None)
@given(programs(), st.integers(0, 2**31 - 1))
def test_partitioned_program_matches_numpy_and_the_planner(prog, seed):
    mesh, text, args = prog
    mesh_opt = ",".join(map(str, mesh))
    pipeline = f"ttir-to-ttnn-pipeline{{system=t3k mesh-shape={mesh_opt}}}"
    rng = np.random.default_rng(seed)
    inputs = {a: rng.standard_normal(s).astype(np.float32) for a, s in args}
    try:
        module = meshc.parse(text)
        partitioned = meshc.compile(meshc.parse(text), f"tt-register-device{{system=t3k mesh-shape={mesh_opt}}},ttir-partition")
    except DiagnosticError as e:  # an annotation splitting the size-1 dim of a sum's result
        assert "do not divide it" in str(e), str(e)
        return
    golden = meshc.run(module, inputs, mode="golden")
    sim = meshc.run(module, inputs, pipeline=pipeline)
    np.testing.assert_allclose(sim.outputs[0], golden.outputs[0], rtol=2e-4, atol=2e-4)
    reshards = [o for o in partitioned.walk() if isinstance(o, ttir.ReshardOp)]
    if any(o.specs()[0].partial for o in reshards):
        return
    planned = sum(plan_reshard(o.global_shape(), "f32", *o.specs()).delivered_bytes for o in reshards)
    assert sim.traffic.delivered_bytes == planned
