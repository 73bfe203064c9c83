"""Affine maps: MLIR printing (minimal parentheses), text round trips, evaluation semantics, errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meshc.layout.affine import (
    AffineMap,
    AffineParseError,
    Binary,
    Const,
    Dim,
    grid_points,
    map_text_end,
    maps_equal_on_grid,
    parse_map,
)
from meshc.layout.errors import LayoutError

# Every map written in tt-mlir's Device spec and docs/design.md, exactly as written there.
SEED_MAPS = [
    "(d0, d1) -> (0, d0, d1)",
    "(d0, d1, d2) -> (d0, d1, d2)",
    "(d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0, d1 mod 8)",
    "(d0, d1, d2) -> (d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1, d2 mod 8)",
    "(d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)",
    "(d0, d1) -> (0, d1, d0)",
    "(d0, d1) -> (0, d0 * 8 + d1 floordiv 8, d1 mod 8)",
    "(d0, d1) -> (0, d1 * 8 + d0 floordiv 8, d0 mod 8)",
    "(d0, d1) -> (0, d0, (d0 + d1) mod 8)",
    "(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3)",
    "(d0, d1) -> (d0, d1)",
    "(d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)",
    "(d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)",
    "(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)",
]


@pytest.mark.parametrize("text", SEED_MAPS)
def test_seed_maps_round_trip_text_for_text(text):
    assert str(parse_map(text)) == text


def test_printing_uses_minimal_parentheses():
    d0, d1, d2 = Dim(0), Dim(1), Dim(2)
    assert str(d0.floordiv(8) * 2 + d1.floordiv(8)) == "(d0 floordiv 8) * 2 + d1 floordiv 8"
    assert str((d0 + d1).mod(8)) == "(d0 + d1) mod 8"
    assert str(d0 * 2 + d1.floordiv(8) * 2 + d2.floordiv(8)) == "d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8"
    assert str(d0 + (d1 + d2)) == "d0 + d1 + d2"  # add inside add needs none (MLIR prints it so)
    assert str((d0 * 2) * 3) == "(d0 * 2) * 3"
    assert str(d0.ceildiv(4)) == "d0 ceildiv 4"


def test_subtraction_and_negation_print_as_mlir_does():
    d0, d1 = Dim(0), Dim(1)
    assert str(d0 - d1) == "d0 - d1"
    assert str(-d0) == "-d0"
    assert str(d0 - 5) == "d0 - 5"
    assert str(d0 + Binary("mul", d1, Const(-3))) == "d0 - d1 * 3"
    assert str(d0 - (d1 + 2)) == "d0 - (d1 + 2)"
    assert str(-(d0 + d1)) == "-(d0 + d1)"
    text = "(d0, d1) -> (d0 - d1, -d0, d0 - 5, d0 - (d1 + 2), -(d0 + d1))"
    assert str(parse_map(text)) == text


def test_parser_keeps_what_was_written_without_simplifying():
    m = parse_map("(d0) -> (d0 * 1 + 0, 2 * d0)")
    assert str(m) == "(d0) -> (d0 * 1 + 0, 2 * d0)"
    assert m.results[1] == Binary("mul", Const(2), Dim(0))


def test_named_dims_are_renumbered():
    assert str(parse_map("(i, j) -> (j, i floordiv 2)")) == "(d0, d1) -> (d1, d0 floordiv 2)"


def test_evaluate_uses_floor_division_and_non_negative_mod():
    m = parse_map("(d0) -> (d0 floordiv 8, d0 mod 8, d0 ceildiv 8)")
    pts = np.array([[-1], [0], [7], [8], [9], [-9], [-16]])
    # floor(-1/8) = -1, -1 mod 8 = 7, ceil(-1/8) = 0; floor(-9/8) = -2, -9 mod 8 = 7, ceil(-9/8) = -1
    expected = np.array([[-1, 7, 0], [0, 0, 0], [0, 7, 1], [1, 0, 1], [1, 1, 2], [-2, 7, -1], [-2, 0, -2]])
    np.testing.assert_array_equal(m.evaluate(pts), expected)


def test_evaluate_seed_device_map_by_hand():
    # data parallel over 2d: 8x16 grid over two chips; core (3, 12) is on chip 1 at (3, 4)
    m = parse_map("(d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0, d1 mod 8)")
    assert m(3, 12) == (1, 3, 4)
    assert m(7, 7) == (0, 7, 7)
    # staircase: (d0, (d0 + d1) mod 8)
    s = parse_map("(d0, d1) -> (0, d0, (d0 + d1) mod 8)")
    assert s(5, 6) == (0, 5, 3)


def test_grid_points_are_row_major():
    np.testing.assert_array_equal(grid_points((2, 3)), [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]])


def test_maps_compared_by_evaluation():
    # tt-mlir's Device spec's and docs/design.md's spellings of the 1x2 mesh map agree on the 8x16 grid ...
    assert maps_equal_on_grid("(d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0, d1 mod 8)",
                              "(d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)", (8, 16))
    # ... but not on a taller grid, where d0 floordiv 8 is no longer 0
    assert not maps_equal_on_grid("(d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0, d1 mod 8)",
                                  "(d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)", (16, 16))


def test_bounds_by_interval_arithmetic():
    m = parse_map("(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3, d3 mod 8, d2 - d3)")
    # over 2x3x64x128: 1*192 + 2*64 + 63 = 383; d3 <= 127; d2 - d3 in [-127, 63]
    assert m.bounds((2, 3, 64, 128)) == [(0, 383), (0, 127), (0, 7), (-127, 63)]
    assert parse_map("(d0) -> (d0 mod 8)").bounds((4,)) == [(0, 3)]


@pytest.mark.parametrize(
    "text, message, offset",
    [
        ("(d0) -> (d1)", "use of undeclared dim 'd1'", 9),
        ("(d0) -> (d0 * d0)", "one operand of '*' must be a constant", 14),
        ("(d0) -> (d0 mod 0)", "right operand of 'mod' must be a positive constant", 16),
        ("(d0) -> (d0", "expected ',' or ')' after a result", 11),
        ("(d0)[s0] -> (d0)", "symbols are not supported", 4),
        ("(d0) -> (d0 % 2)", "unexpected character '%'", 12),
        ("(d0, d0) -> (d0)", "dim 'd0' declared twice", 5),
    ],
)
def test_parse_errors_name_the_problem_and_its_offset(text, message, offset):
    with pytest.raises(AffineParseError) as e:
        parse_map(text)
    assert message in str(e.value)
    assert e.value.offset == offset


def test_map_text_end_finds_the_map_inside_attribute_text():
    text = "<(d0, d1) -> (d0, (d1 + 1) mod 4), undef, <2x2>>"
    assert text[1 : map_text_end(text, 1)] == "(d0, d1) -> (d0, (d1 + 1) mod 4)"
    assert map_text_end("<2x2>", 0) == 0


def test_map_checks_dims_used():
    with pytest.raises(ValueError, match="uses d2"):
        AffineMap(2, (Dim(2),))


# ----------------------------------------------------------------------------- properties


def _exprs(ndims: int):
    leaf = st.one_of(st.integers(0, ndims - 1).map(Dim), st.integers(-9, 9).map(Const))

    def extend(children):
        pos = st.integers(1, 9).map(Const)
        return st.one_of(
            st.tuples(children, children).map(lambda t: Binary("add", t[0], t[1])),
            st.tuples(children, st.integers(-4, 4).map(Const)).map(lambda t: Binary("mul", t[0], t[1])),
            st.tuples(st.sampled_from(["floordiv", "ceildiv", "mod"]), children, pos).map(
                lambda t: Binary(t[0], t[1], t[2])),
        )

    return st.recursive(leaf, extend, max_leaves=8)


def _python_eval(e, point):
    """An independent reference: Python's // and % are floor division and non-negative mod."""
    if isinstance(e, Dim):
        return point[e.pos]
    if isinstance(e, Const):
        return e.value
    a, b = _python_eval(e.lhs, point), _python_eval(e.rhs, point)
    if e.kind == "add":
        return a + b
    if e.kind == "mul":
        return a * b
    if e.kind == "floordiv":
        return a // b
    if e.kind == "mod":
        return a % b
    return -(-a // b)


@settings(max_examples=150, deadline=None)
@given(st.lists(_exprs(2), min_size=1, max_size=3))
def test_print_parse_round_trip_and_evaluation(results):
    m = AffineMap(2, tuple(results))
    # MLIR prints `a + (b + c)` as `a + b + c` (associativity), which parses left-nested; after
    # one parse the text is a fixpoint, and the values never change.
    back = parse_map(str(m))
    text = str(back)
    assert str(parse_map(text)) == text
    pts = grid_points((3, 4)) - 1  # includes negative coordinates
    got = back.evaluate(pts)
    want = np.array([[_python_eval(r, p) for r in results] for p in pts.tolist()])
    np.testing.assert_array_equal(got, want)
    lo_hi = m.bounds((3, 4))
    vals = m.evaluate(grid_points((3, 4)))
    for j, (lo, hi) in enumerate(lo_hi):
        assert lo <= vals[:, j].min() and vals[:, j].max() <= hi


def test_values_beyond_int64_are_refused_not_wrapped():
    """numpy's int64 arithmetic wraps silently on arrays: (2**62) * d0 at d0 = 2 is 2**63, one
    past int64's largest value, so evaluating it there is a LayoutError naming the term, while
    d0 = 0..1 (largest value 2**62) still evaluates."""
    m = parse_map("(d0) -> (4611686018427387904 * d0)")
    assert m.evaluate(np.array([[0], [1]])).tolist() == [[0], [2 ** 62]]
    with pytest.raises(LayoutError, match=r"overflows 64-bit integers: '4611686018427387904 \* d0' reaches 9223372036854775808"):
        m.evaluate(np.array([[2]]))
