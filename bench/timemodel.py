"""The time model against every published row it is calibrated on (test/unit/test_timemodel_calibration.py
holds the rows and their sources: tt-metal's GEMM_FLOPS N150 table and the CCL bandwidth report's
Wormhole summary). Prints each row's estimate, the published figure and the error, then one summary line.

    .venv/bin/python bench/timemodel.py
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _rows():
    spec = importlib.util.spec_from_file_location("calibration", ROOT / "test" / "unit" / "test_timemodel_calibration.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.gemm_rows() + mod.ccl_rows(), mod.TOLERANCE


def main() -> int:
    rows, tol = _rows()
    header = f"{'row':52} {'estimate us':>12} {'published us':>13} {'error':>7}"
    print(header)
    print("-" * len(header))
    worst = 0.0
    for label, est, pub in rows:
        err = est / pub - 1
        worst = max(worst, abs(err))
        print(f"{label:52} {est * 1e6:12.2f} {pub * 1e6:13.2f} {err:+7.1%}{'' if abs(err) <= tol else '  OUTSIDE'}")
    outside = sum(abs(e / p - 1) > tol for _, e, p in rows)
    print("-" * len(header))
    print(f"SUMMARY timemodel: {len(rows)} published rows, {outside} outside +-{tol:.0%}, worst error {worst:.1%}")
    return 0 if outside == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
