"""Comparing a run's outputs with the golden run: the tolerances `meshc-run --check` applies.

- A program that only moves data (no arithmetic op and no reducing collective) must match
  exactly, bit for bit (NaNs equal NaNs).
- Otherwise, per output element type: |sim - golden| <= atol * max(1, max|golden|) + rtol * |golden|
  (the absolute part scales with the output's magnitude: a value that comes out of the
  cancellation of large terms carries their rounding error, not its own) with
    f32 / f16 / integers : rtol 1e-4,  atol 1e-5  (reduction order of collectives, matmul blocking)
    bf16                 : rtol 2^-6,  atol 2^-6  (two bf16 roundings of 2^-8 each, with headroom)
    bfp_bf8              : rtol 2^-5,  atol 2^-5  (7-bit mantissas under a shared exponent)
    bfp_bf4              : rtol 2^-2,  atol 2^-2  (3-bit mantissas)
A mismatch names the output, the first failing index, both values and the tolerance.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

TOLERANCES = {
    "f32": (1e-4, 1e-5), "f16": (1e-3, 1e-4), "si32": (0.0, 0.0), "u32": (0.0, 0.0), "u16": (0.0, 0.0),
    "u8": (0.0, 0.0), "bf16": (2.0 ** -6, 2.0 ** -6), "bfp_bf8": (2.0 ** -5, 2.0 ** -5),
    "bfp_bf4": (2.0 ** -2, 2.0 ** -2),
}  # fmt: skip
"""dtype -> (rtol, atol); atol is scaled by max(1, max |golden|)."""

REDUCING = ("all_reduce", "reduce_scatter")


@dataclass
class Mismatch:
    output: str
    index: tuple
    got: float
    expected: float
    rule: str

    def __str__(self) -> str:
        if self.structural:
            return f"{self.output}: {self.rule}"
        return (f"{self.output}{list(self.index)}: simulator {self.got!r}, golden {self.expected!r} ({self.rule})")

    @property
    def structural(self) -> bool:
        """A mismatch of form (shape, distribution), not of values: no element to name."""
        return self.index == () and self.got != self.got and self.expected != self.expected


def program_computes(module) -> bool:
    """Whether a module has an arithmetic op (or a reducing collective)."""
    from meshc.sim.compute import ARITHMETIC

    for op in module.walk():
        kind = op.name.split(".", 1)[-1]
        if kind in ARITHMETIC or kind in REDUCING or kind.startswith("moe"):
            return True
    return False


def compare(name: str, got, expected, dtype: str, exact: bool) -> Mismatch | None:
    """The first mismatch of one output (an array, or a list of per-device arrays), or None."""
    # one device: a result left on it (no from_device) is one array on either side
    if isinstance(got, list) and len(got) == 1 and not isinstance(expected, list):
        got = got[0]
    if isinstance(expected, list) and len(expected) == 1 and not isinstance(got, list):
        expected = expected[0]
    if isinstance(expected, list) or isinstance(got, list):
        if not (isinstance(expected, list) and isinstance(got, list)) or len(got) != len(expected):
            return Mismatch(name, (), float("nan"), float("nan"),
                            "one side is distributed over the devices and the other is not")
        for d, (g, e) in enumerate(zip(got, expected)):
            m = compare(f"{name}@device{d}", g, e, dtype, exact)
            if m:
                return m
        return None
    got, expected = np.asarray(got), np.asarray(expected)
    if got.shape != expected.shape:
        return Mismatch(name, (), float("nan"), float("nan"),
                        f"shapes differ: simulator {got.shape}, golden {expected.shape}")
    if exact:
        if got.dtype.kind == "f":
            bad = ~((got == expected) | (np.isnan(got) & np.isnan(expected)))
        else:
            bad = got != expected
        rule = "exact: the program only moves data"
    else:
        rtol, atol = TOLERANCES.get(dtype, TOLERANCES["f32"])
        g64, e64 = got.astype(np.float64), expected.astype(np.float64)
        finite = np.abs(e64[np.isfinite(e64)])
        atol = atol * max(1.0, float(finite.max()) if finite.size else 1.0)
        bad = ~((np.abs(g64 - e64) <= atol + rtol * np.abs(e64)) | (np.isnan(g64) & np.isnan(e64))
                | (g64 == e64))
        rule = f"{dtype}: |sim - golden| <= {atol:.3g} + {rtol:.3g} * |golden|"
    if not bad.any():
        return None
    idx = tuple(int(i) for i in np.unravel_index(int(np.argmax(bad)), bad.shape))
    return Mismatch(name, idx, got[idx].item(), expected[idx].item(), rule)
