"""The attribute reader the golden run and the simulators share (meshc.interp.common.kernel_attrs):
both call it for every compute op, so `meshc-run --check` cannot see a defect in it. Here it is
checked against an independent reading of the same text: the values are written into the op by
the test, read back with a regular expression, and normalised by hand (a negative dim d of a
rank-r operand is d + r).
"""

from __future__ import annotations

import random
import re

import pytest

from meshc.driver import make_context, parse_source, verify_or_raise
from meshc.interp.common import kernel_attrs

RANK_SHAPES = {1: (8,), 2: (4, 8), 3: (2, 4, 8), 4: (2, 2, 4, 8)}


def _t(shape) -> str:
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def _op(text: str):
    module = parse_source(make_context(), text, "t.mlir")
    verify_or_raise(module, "t.mlir")
    return module.body.block.first_op


def _int(text: str, name: str) -> int:
    return int(re.search(rf"\b{name} = (-?\d+) : \w+", text).group(1))


def _cases(n: int, seed: int):
    """Ops with dims drawn at random (negative ones included), as (kind, text)."""
    rng = random.Random(seed)
    for _ in range(n):
        rank = rng.choice((1, 2, 3, 4))
        shape = RANK_SHAPES[rank]
        d = rng.randrange(-rank, rank)
        kind = rng.choice(("softmax", "concat", "permute", "transpose", "sum", "matmul"))
        if kind == "softmax":
            yield kind, shape, f'%0 = "ttir.softmax"(%a) {{dimension = {d} : si32}} : ({_t(shape)}) -> {_t(shape)}'
        elif kind == "concat":
            nd = d % rank
            out = tuple(n * 2 if i == nd else n for i, n in enumerate(shape))
            yield kind, shape, (f'%0 = "ttir.concat"(%a, %a) {{dim = {d} : si32}} : ({_t(shape)}, {_t(shape)}) '
                                f"-> {_t(out)}")
        elif kind == "permute":
            perm = list(range(rank))
            rng.shuffle(perm)
            out = tuple(shape[p] for p in perm)
            yield kind, shape, (f'%0 = "ttir.permute"(%a) {{permutation = array<i64: {", ".join(map(str, perm))}>}} '
                                f": ({_t(shape)}) -> {_t(out)}")
        elif kind == "transpose" and rank >= 2:
            a, b = rng.sample(range(-rank, rank), 2)
            if a % rank == b % rank:
                continue
            out = list(shape)
            out[a % rank], out[b % rank] = out[b % rank], out[a % rank]
            yield kind, shape, (f'%0 = "ttir.transpose"(%a) {{dim0 = {a} : si32, dim1 = {b} : si32}} '
                                f": ({_t(shape)}) -> {_t(tuple(out))}")
        elif kind == "sum":
            keep = rng.random() < 0.5
            out = tuple(1 if i == d % rank else n for i, n in enumerate(shape)) if keep else \
                tuple(n for i, n in enumerate(shape) if i != d % rank)
            yield kind, shape, (f'%0 = "ttir.sum"(%a) {{dim_arg = [{d} : i32], keep_dim = {str(keep).lower()}}} '
                                f": ({_t(shape)}) -> {_t(out) if out else 'tensor<f32>'}")
        elif kind == "matmul" and rank == 2:
            ta, tb = rng.random() < 0.5, rng.random() < 0.5
            m, k = (8, 4) if ta else (4, 8)
            b_shape = (6, 8) if tb else (8, 6)
            a_shape = (m, k)
            yield kind, a_shape, (f'%0 = "ttir.matmul"(%a, %b) {{transpose_a = {str(ta).lower()}, '
                                  f"transpose_b = {str(tb).lower()}}} : ({_t(a_shape)}, {_t(b_shape)}) -> {_t((4, 6))}")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kernel_attrs_match_an_independent_reading(seed):
    seen = set()
    for kind, shape, line in _cases(60, seed):
        args = f"%a: {_t(shape)}" + (f", %b: {_t((6, 8) if 'transpose_b = true' in line else (8, 6))}"
                                     if kind == "matmul" else "")
        text = f"func.func @f({args}) {{\n  {line}\n  func.return\n}}\n"
        op = _op(text).body.block.first_op
        got = kernel_attrs(op)
        rank = len(shape)
        if kind == "softmax":
            assert got["dimension"] == _int(line, "dimension") % rank, line
        elif kind == "concat":
            assert got["dim"] == _int(line, "dim") % rank, line
        elif kind == "permute":
            want = tuple(int(x) for x in re.search(r"array<i64: ([\d, ]+)>", line).group(1).split(", "))
            assert tuple(got["permutation"]) == want, line
        elif kind == "transpose":
            assert (got["dim0"], got["dim1"]) == (_int(line, "dim0") % rank, _int(line, "dim1") % rank), line
        elif kind == "sum":
            d = int(re.search(r"dim_arg = \[(-?\d+) : i32\]", line).group(1))
            assert tuple(got["dim_arg"]) == (d % rank,), line
            assert got["keep_dim"] == ("keep_dim = true" in line), line
        elif kind == "matmul":
            assert (got["transpose_a"], got["transpose_b"]) == ("transpose_a = true" in line,
                                                                "transpose_b = true" in line), line
        seen.add(kind)
    assert seen >= {"softmax", "concat", "permute", "sum"}
