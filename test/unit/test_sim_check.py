"""The --check rules: exact for data movement, per-type tolerances scaled by the output's size."""

import numpy as np
import pytest

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


# ---- the mismatch report: PCC as tt-mlir's ttrt computes it, counts, max abs / rel error ----

from meshc.interp.check import check_output, pcc  # noqa: E402


def test_pcc_of_correlated_vectors_by_hand():
    # x = (1, 2, 3): deviations (-1, 0, 1); y = (1, 2, 4): mean 7/3, deviations (-4/3, -1/3, 5/3).
    # sum of products 4/3 + 5/3 = 3; sum of squares 2 and 42/9: pcc = 3 / sqrt(84 / 9) = 9 / sqrt(84)
    assert pcc(np.array([1.0, 2, 3]), np.array([1.0, 2, 4])) == pytest.approx(9 / np.sqrt(84))
    assert pcc(np.array([1, 2, 3], np.int32), np.array([1, 2, 4], np.int32)) == pytest.approx(9 / np.sqrt(84))
    assert pcc(np.array([1.0, 2, 3]), np.array([3.0, 2, 1])) == pytest.approx(-1.0)
    assert pcc(np.array([1.0, 2, 3]), np.array([2.0, 4, 6])) == pytest.approx(1.0)  # scale does not matter


def test_pcc_nan_and_inf_cases_as_ttrt_defines_them():
    nan, inf = np.nan, np.inf
    assert pcc(np.array([nan, nan]), np.array([nan, nan])) == 1.0  # both all NaN
    assert pcc(np.array([nan, nan]), np.array([1.0, 2.0])) == 0.0  # one all NaN
    assert pcc(np.array([nan, nan]), np.zeros(2)) == 0.0  # NaN counts as nonzero: zero vs nonzero
    # NaN and inf become 0 on both sides: (1, 0, 3, 4) against (1, 5, 3, 4); deviations from the
    # means 2 and 3.25: (-1, -2, 1, 2) and (-2.25, 1.75, -0.25, 0.75), whose products sum to 0
    assert pcc(np.array([1.0, nan, 3, 4]), np.array([1.0, 5, 3, 4])) == pytest.approx(0.0, abs=1e-12)
    assert pcc(np.array([inf, 1.0, 2.0]), np.array([0.0, 1.0, 2.0])) == 1.0  # equal once inf is 0
    assert pcc(np.array([-inf, 1.0, 2.0]), np.array([nan, 1.0, 2.0])) == 1.0


def test_pcc_zero_constant_and_single_element_cases():
    assert pcc(np.zeros(3), np.array([0.0, 1.0, 0.0])) == 0.0  # one all zero, the other not
    assert pcc(np.zeros(3), np.zeros(3)) == 1.0
    assert pcc(np.array([5.0]), np.array([5.0])) == 1.0
    assert pcc(np.array([5.0]), np.array([6.0])) == 0.0  # one element: equal or not
    # both constant: 1 when |g - c| <= 1e-8 + 1e-5 |c| (torch.isclose), else 0
    assert pcc(np.full(4, 2.0), np.full(4, 2.00001)) == 1.0  # 1e-5 <= 1e-8 + 2.00001e-5
    assert pcc(np.full(4, 2.0), np.full(4, 2.001)) == 0.0
    # exactly one side constant: the correlation is undefined (zero variance), which ttrt's
    # masked corrcoef reports as 1.0
    assert pcc(np.full(3, 2.0), np.array([1.0, 2.0, 3.0])) == 1.0


def test_output_check_counts_and_errors():
    golden = np.array([1.0, 2.0, 4.0, 0.0], np.float32)
    got = np.array([1.0, 2.5, 4.0, 0.25], np.float32)
    c = check_output("r", got, golden, "f32", exact=False)
    assert not c.ok and c.elements == 4 and c.differing == 2 and c.failing == 2
    assert c.max_abs == 0.5  # |2.5 - 2|
    assert c.max_rel == 0.25  # 0.5 / 2; the golden 0 does not count towards the relative error
    # deviations of golden (mean 7/4): (-3/4, 1/4, 9/4, -7/4); of got (mean 31/16): (-15/16, 9/16, 33/16, -27/16)
    gd = np.array([-12, 4, 36, -28]) / 16
    sd = np.array([-15, 9, 33, -27]) / 16
    assert c.pcc == pytest.approx(gd @ sd / np.sqrt((gd @ gd) * (sd @ sd)))
    assert c.mismatch.index == (1,)
    assert "2 of 4 elements differ (2 outside the rule), max abs error 0.5, max rel error 0.25" in c.summary()


def test_output_check_within_tolerance_still_counts_differences():
    golden = np.array([1.0, 2.0], np.float32)
    got = golden + np.float32([0.0, 1e-5])  # within 1e-5 * 2 + 1e-4 * 2
    c = check_output("r", got, golden, "f32", exact=False)
    assert c.ok and c.differing == 1 and c.failing == 0
    assert c.max_abs == pytest.approx(float(np.float32(2.0 + 1e-5)) - 2.0)


def test_nan_and_inf_on_both_sides_agree():
    v = np.array([np.nan, np.inf, -np.inf, 1.0], np.float32)
    c = check_output("r", v, v.copy(), "f32", exact=False)
    assert c.ok and c.differing == 0 and c.max_abs == 0.0 and c.pcc == 1.0
    c = check_output("r", np.array([np.inf, 1.0], np.float32), np.array([1.0, 1.0], np.float32), "f32", exact=False)
    assert not c.ok and c.failing == 1 and c.max_abs == 0.0  # inf is not finite: counted, not measured


def test_one_device_distributed_value_equals_its_array():
    # a ttnn program returning a device tensor without from_device: the golden run gives a
    # one-device distributed value, the simulator an array; equal values must pass
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    c = check_output("r", a, [a.copy()], "f32", exact=False)
    assert c.ok and c.elements == 6
    b = a.copy()
    b[1, 1] = 9
    assert check_output("r", b, [a], "f32", exact=True).mismatch.index == (1, 1)


def test_structural_mismatch_names_no_values():
    c = check_output("r", [np.zeros(2), np.zeros(2)], np.zeros(2), "f32", exact=True)
    assert not c.ok and "nan" not in str(c.mismatch)
    assert str(c.mismatch) == ("r: the simulator's output is distributed over 2 devices, the golden one "
                               "a host tensor")
    assert str(check_output("r", np.zeros(3), np.zeros(2), "f32", exact=True).mismatch) == (
        "r: shapes differ: simulator (3,), golden (2,)")


def test_distributed_report_sums_over_devices():
    a = [np.zeros(2, np.float32), np.ones(2, np.float32)]
    b = [np.zeros(2, np.float32), np.array([1, 3], np.float32)]
    c = check_output("r", b, a, "f32", exact=False)
    assert c.elements == 4 and c.differing == 1 and c.max_abs == 2.0 and c.max_rel == 2.0
    assert c.mismatch.output == "r@device1" and c.mismatch.index == (1,)


def test_chunked_check_agrees_with_the_whole_array_computation(monkeypatch):
    """The check works CHUNK elements at a time (so a 2 GiB output needs no float64 copy of it):
    with chunks of 5 elements, the statistics equal numpy's over the whole arrays and the first
    failing element is located in its array, in a later chunk and on a later device."""
    from meshc.interp import check

    monkeypatch.setattr(check, "CHUNK", 5)
    rng = np.random.default_rng(1)
    golden = [rng.standard_normal((3, 4)).astype(np.float32) for _ in range(2)]
    got = [g.copy() for g in golden]
    got[1][2, 1] += np.float32(0.5)  # device 1, flat index 9: the second chunk
    got[0][0, 3] += np.float32(1e-7)  # within the tolerance
    out = check.check_output("r", got, golden, "f32", exact=False)
    g64 = np.concatenate([g.ravel() for g in got]).astype(np.float64)
    e64 = np.concatenate([e.ravel() for e in golden]).astype(np.float64)
    assert out.mismatch.output == "r@device1" and out.mismatch.index == (2, 1)
    assert out.elements == 24 and out.differing == 2 and out.failing == 1
    assert out.max_abs == pytest.approx(np.abs(g64 - e64).max())
    assert out.pcc == pytest.approx(np.corrcoef(e64, g64)[0, 1], rel=1e-12)
