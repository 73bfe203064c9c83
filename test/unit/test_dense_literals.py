"""Dense float literals read by meshc's parser and by the constant reader the golden run and the
simulators share (meshc.interp.ttir.dense_value), checked against numpy / ml_dtypes reading the
same text on their own: a hexadecimal element is its bit pattern in the element type
(`np.array([bits], np.uint16).view(ml_dtypes.bfloat16)`), a decimal one is numpy's parse of it
rounded to the type. meshc-run --check compares two runs that read constants with the same reader,
so a defect there would pass unseen; these tests are the independent reading.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from meshc.driver import make_context, parse_source, print_module
from meshc.errors import DiagnosticError
from meshc.interp.ttir import constant_value

# element type -> (unsigned integer of its width, the numpy type the bits are viewed as)
TYPES = {"bf16": (np.uint16, ml_dtypes.bfloat16), "f16": (np.uint16, np.float16),
         "f32": (np.uint32, np.float32), "f64": (np.uint64, np.float64)}

# special bit patterns, written out from the IEEE 754 layouts (sign | exponent | mantissa)
SPECIAL = {
    "bf16": {"-inf": 0xFF80, "inf": 0x7F80, "nan": 0x7FC0, "-0.0": 0x8000, "min subnormal": 0x0001},
    "f16": {"-inf": 0xFC00, "inf": 0x7C00, "nan": 0x7E00, "-0.0": 0x8000, "min subnormal": 0x0001},
    "f32": {"-inf": 0xFF800000, "inf": 0x7F800000, "nan": 0x7FC00000, "-0.0": 0x80000000,
            "min subnormal": 0x00000001},
    "f64": {"-inf": 0xFFF0000000000000, "inf": 0x7FF0000000000000, "nan": 0x7FF8000000000000,
            "-0.0": 0x8000000000000000, "min subnormal": 0x0000000000000001},
}
# their values, derived by hand: the smallest subnormal is 2**-(bias - 1 + mantissa bits)
EXPECTED = {"-inf": -np.inf, "inf": np.inf, "nan": np.nan, "-0.0": -0.0}
MIN_SUBNORMAL = {"bf16": 2.0 ** -133, "f16": 2.0 ** -24, "f32": 2.0 ** -149, "f64": 2.0 ** -1074}


def _attr(literal: str, etype: str, n: int):
    text = f'%0 = "ttir.constant"() {{value = dense<{literal}> : tensor<{n}x{etype}>}} : () -> tensor<{n}x{etype}>\n'
    module = parse_source(make_context(), text, "t.mlir")
    return module.body.block.first_op


def _same(got: np.ndarray, want: np.ndarray) -> bool:
    """Equal as values, NaN equal to NaN, and the sign of zero the same."""
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    return bool(np.array_equal(got, want, equal_nan=True) and np.array_equal(np.signbit(got), np.signbit(want)))


@pytest.mark.parametrize("etype", list(TYPES))
@pytest.mark.parametrize("name", list(EXPECTED) + ["min subnormal"])
def test_hex_splat_is_the_bit_pattern(etype, name):
    bits = SPECIAL[etype][name]
    uint, host = TYPES[etype]
    want = np.full(4, EXPECTED.get(name, MIN_SUBNORMAL[etype]))
    # numpy / ml_dtypes' own reading of the bits agrees with the hand-derived value
    assert _same(np.full(4, np.array([bits], uint).view(host)[0]), want)
    op = _attr(f"0x{bits:X}", etype, 4)
    assert _same(np.asarray(op.attributes["value"].get_values()), want)
    if etype != "f64":  # the device types: the constant reader the golden run and simulators share
        assert _same(constant_value(op), want)


@pytest.mark.parametrize("etype", list(TYPES))
def test_random_hex_lists_and_decimals_match_numpy(etype):
    """Random bit patterns (every class: normal, subnormal, zero, inf, nan) as a hex list, and
    decimal spellings, read against numpy's parse of the same text."""
    uint, host = TYPES[etype]
    rng = np.random.default_rng(3)
    bits = rng.integers(0, np.iinfo(uint).max, 64, dtype=uint, endpoint=True)
    bits[:8] = list(SPECIAL[etype].values()) + [0, 1, 2]  # the special classes always in
    op = _attr("[" + ", ".join(f"0x{b:x}" for b in bits) + "]", etype, bits.size)
    want = bits.view(host).astype(np.float64)
    assert _same(np.asarray(op.attributes["value"].get_values()), want)
    if etype != "f64":
        assert _same(constant_value(op), want)
    # decimal literals: numpy parses the text and rounds it to the type (ml_dtypes for bf16)
    low, high = (-8, 4) if etype == "f16" else (-40, 30)  # f16's range: 6e-8 (subnormal) to 65504
    decimals = [f"{v:.6e}" for v in rng.standard_normal(16) * 10.0 ** rng.integers(low, high, 16)]
    op = _attr("[" + ", ".join(decimals) + "]", etype, len(decimals))
    want = np.array([float(d) for d in decimals]).astype(host).astype(np.float64)
    if etype != "f64":
        assert _same(constant_value(op), want)
    assert _same(np.asarray(op.attributes["value"].get_values()), want)


@pytest.mark.parametrize("etype", list(TYPES))
def test_printed_constants_read_back_bit_exact(etype):
    """meshc-opt's output is input again: xDSL prints inf and nan (and some f32 values) as hex."""
    uint, host = TYPES[etype]
    bits = np.array(list(SPECIAL[etype].values()), uint)
    op = _attr("[" + ", ".join(f"0x{b:x}" for b in bits) + "]", etype, bits.size)
    text = print_module(op.parent_op())
    again = parse_source(make_context(), text, "again.mlir").body.block.first_op
    assert _same(np.asarray(again.attributes["value"].get_values()), bits.view(host).astype(np.float64))


@pytest.mark.parametrize("literal, etype, message", [
    ("0x1FF80", "bf16", "hexadecimal float constant out of range for bf16: 0x1FF80 has more than 16 bits"),
    ("0x1FF800000", "f32", "out of range for f32"),
    ("-0x7F80", "bf16", "hexadecimal float literal should not have a leading minus"),
    ("[0x0, -0x1]", "f16", "should not have a leading minus"),
])
def test_bad_hex_literals_are_located_errors(literal, etype, message):
    with pytest.raises(DiagnosticError) as e:
        _attr(literal, etype, 2 if literal.startswith("[") else 4)
    (d,) = e.value.diagnostics
    assert message in d.message and d.line == 1 and d.col > 1


def test_integer_hex_literals_stay_integers():
    op = _attr("0xFF", "i32", 2)
    assert list(op.attributes["value"].get_values()) == [255, 255]
