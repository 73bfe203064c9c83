"""The --check rules: exact for data movement, per-type tolerances scaled by the output's size."""

import numpy as np

import meshc
from meshc.interp.check import compare, program_computes


def test_exact_comparison_reports_the_first_difference():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    b = a.copy()
    assert compare("r", a, b, "f32", exact=True) is None
    b[1, 2] += 1e-6
    m = compare("r", a, b, "f32", exact=True)
    assert m.index == (1, 2) and m.got == 6.0 and m.expected == np.float32(6.0 + 1e-6)
    assert "r[1, 2]" in str(m) and "exact" in str(m)
    nan = np.array([np.nan, 1.0], np.float32)
    assert compare("r", nan, nan.copy(), "f32", exact=True) is None


def test_tolerance_scales_the_absolute_part_with_the_largest_output():
    golden = np.array([10000.0, 0.5], np.float32)
    # 1e-5 * max(1, 10000) = 0.1 absolute: 0.05 off at 0.5 is within, 0.2 off is not
    assert compare("r", golden + np.float32([0, 0.05]), golden, "f32", exact=False) is None
    m = compare("r", golden + np.float32([0, 0.2]), golden, "f32", exact=False)
    assert m is not None and m.index == (1,)
    small = np.array([0.5], np.float32)  # max(1, 0.5) = 1: atol 1e-5, rtol 1e-4 -> 6e-5
    assert compare("r", small + np.float32(5e-5), small, "f32", exact=False) is None
    assert compare("r", small + np.float32(1e-4), small, "f32", exact=False) is not None


def test_bf16_tolerance_is_about_two_roundings():
    golden = np.array([1.0, 2.0], np.float32)
    assert compare("r", golden * np.float32(1 + 2.0 ** -7), golden, "bf16", exact=False) is None
    assert compare("r", golden * np.float32(1 + 2.0 ** -4), golden, "bf16", exact=False) is not None


def test_distributed_outputs_compare_device_by_device():
    a = [np.zeros(2, np.float32), np.ones(2, np.float32)]
    b = [np.zeros(2, np.float32), np.array([1, 2], np.float32)]
    m = compare("r", a, b, "f32", exact=True)
    assert m.output == "r@device1" and m.index == (1,)
    assert "distributed" in compare("r", a, np.zeros(2), "f32", exact=True).rule
    assert "shapes differ" in compare("r", np.zeros(3), np.zeros(2), "f32", exact=True).rule


def test_which_programs_compute():
    moves = meshc.parse('func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n'
                        '  %y = "ttir.reshape"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n'
                        '  func.return %y : tensor<4xf32>\n}')
    computes = meshc.parse('func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n'
                           '  %y = "ttir.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n'
                           '  func.return %y : tensor<4xf32>\n}')
    assert not program_computes(moves)
    assert program_computes(computes)
