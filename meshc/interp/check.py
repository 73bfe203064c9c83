"""Comparing a run's outputs with the reference run: the tolerances `meshc-run --check` applies,
and the mismatch report (differing elements, max abs / rel error, PCC) of every output.

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

`check_output` gives an `OutputCheck` per output: elements compared, how many differ at all,
how many break the rule, the largest absolute and relative error over the elements both sides
hold finite, and the Pearson correlation coefficient `pcc` computed as tt-mlir's ttrt does.
An output left distributed over the devices is compared device by device; a one-device
distributed value is the same as the array it holds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from meshc.sim.compute import ARITHMETIC

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
    got: float | None
    expected: float | None
    rule: str
    """The rule broken; for a structural mismatch (shapes, distribution) `got` / `expected` are None."""

    def __str__(self) -> str:
        if self.got is None or self.expected is None:
            return f"{self.output}: {self.rule}"
        return f"{self.output}{list(self.index)}: simulator {self.got!r}, golden {self.expected!r} ({self.rule})"


@dataclass
class OutputCheck:
    """How one output compares with the reference."""

    output: str
    elements: int = 0
    differing: int = 0
    """Elements whose values differ at all (NaN equals NaN)."""
    failing: int = 0
    """Elements outside the rule (the tolerance, or exact equality for a data-movement program)."""
    max_abs: float = 0.0
    """max |sim - golden| over the elements finite on both sides (0 when there is none)."""
    max_rel: float = 0.0
    """max |sim - golden| / |golden| over the elements finite on both sides with golden != 0."""
    pcc: float = 1.0
    """Pearson correlation coefficient, as ttrt computes it (`pcc` below)."""
    mismatch: Mismatch | None = None
    """The first failing element (or the structural difference); None when the output passes."""
    rule: str = ""

    @property
    def ok(self) -> bool:
        return self.mismatch is None

    def summary(self) -> str:
        """One line: `N of M elements differ (K outside the tolerance), max abs ..., max rel ..., PCC ...`."""
        if self.mismatch is not None and self.mismatch.got is None:
            return str(self.mismatch)
        return (f"{self.output}: {self.differing} of {self.elements} elements differ ({self.failing} outside "
                f"the rule), max abs error {self.max_abs:.6g}, max rel error {self.max_rel:.6g}, "
                f"PCC {self.pcc:.6g}")

    def to_dict(self) -> dict:
        return {"output": self.output, "ok": self.ok, "elements": self.elements, "differing": self.differing,
                "failing": self.failing, "max_abs": self.max_abs, "max_rel": self.max_rel, "pcc": self.pcc,
                "rule": self.rule, "mismatch": None if self.mismatch is None else str(self.mismatch)}


def program_computes(module) -> bool:
    """Whether a module has an arithmetic op (or a reducing collective)."""
    for op in module.walk():
        kind = op.name.split(".", 1)[-1]
        if kind in ARITHMETIC or kind in REDUCING or kind.startswith("moe"):
            return True
    return False


CHUNK = 1 << 22
"""Elements compared at a time: the check's float64 temporaries are a few chunks, never whole
copies of a large output (a 2 GiB f32 output took eleven copies' worth of memory in one piece)."""


def _chunks(pairs):
    """(golden, calculated) float64 chunks of CHUNK elements over a list of same-shape array pairs."""
    for g, c in pairs:
        g, c = np.ravel(g), np.ravel(c)
        for k in range(0, g.size, CHUNK):
            yield g[k:k + CHUNK].astype(np.float64), c[k:k + CHUNK].astype(np.float64)


def pcc(golden, calculated) -> float:
    """The Pearson correlation coefficient of two same-shape arrays, with ttrt's conventions:

    1. both all NaN -> 1.0;
    2. one all zero (NaN counts as nonzero) and the other not -> 0.0;
    3. one all NaN and the other not -> 0.0;
    4. otherwise NaN and +-inf are replaced by 0 on both sides, then: equal -> 1.0; a single
       element -> 1.0 if equal else 0.0 (so 0.0); both constant -> 1.0 if the constants are
       close (|g - c| <= 1e-8 + 1e-5 |c|) else 0.0; else the correlation coefficient of the
       flattened arrays, and 1.0 when it is undefined (exactly one side constant: the variance
       is 0 and ttrt's masked corrcoef yields no value, which it reports as 1.0).
    """
    return pcc_of([(np.asarray(golden), np.asarray(calculated))])


def pcc_of(pairs) -> float:
    """`pcc` of the arrays the (golden, calculated) pairs make laid end to end, computed CHUNK
    elements at a time in two passes (the sums, then the centred products) in float64."""
    n = 0
    gnan_all = cnan_all = True
    gnz = cnz = False
    equal = True
    sg = sc = 0.0
    gmax = cmax = -np.inf
    gmin = cmin = np.inf
    for g, c in _chunks(pairs):
        gn, cn = np.isnan(g), np.isnan(c)
        gnan_all &= bool(gn.all())
        cnan_all &= bool(cn.all())
        gnz |= bool((g != 0).any())  # NaN != 0, so NaN counts as nonzero
        cnz |= bool((c != 0).any())
        g = np.where(np.isfinite(g), g, 0.0)
        c = np.where(np.isfinite(c), c, 0.0)
        equal &= bool(np.array_equal(g, c))
        n += g.size
        if g.size:
            sg, sc = sg + float(g.sum()), sc + float(c.sum())
            gmax, gmin = max(gmax, float(g.max())), min(gmin, float(g.min()))
            cmax, cmin = max(cmax, float(c.max())), min(cmin, float(c.min()))
    if gnan_all and cnan_all:
        return 1.0
    if gnz != cnz:
        return 0.0
    if gnan_all or cnan_all:
        return 0.0
    if equal:
        return 1.0
    if n == 1:
        return 0.0
    if gmax == gmin and cmax == cmin:
        return 1.0 if abs(gmax - cmax) <= 1e-8 + 1e-5 * abs(cmax) else 0.0
    mg, mc = sg / n, sc / n
    gc = gg = cc = 0.0
    for g, c in _chunks(pairs):
        gd = np.where(np.isfinite(g), g, 0.0) - mg
        cd = np.where(np.isfinite(c), c, 0.0) - mc
        gc, gg, cc = gc + float(np.dot(gd, cd)), gg + float(np.dot(gd, gd)), cc + float(np.dot(cd, cd))
    denom = np.sqrt(gg * cc)
    if denom == 0.0:
        return 1.0
    return float(np.clip(gc / denom, -1.0, 1.0))


def _as_devices(v) -> list | None:
    """The per-device arrays of a distributed value; None for a host array (a one-device
    distributed value is its one array)."""
    if isinstance(v, list):
        return None if len(v) == 1 else list(v)
    return None


def _host(v):
    return np.asarray(v[0]) if isinstance(v, list) and len(v) == 1 else np.asarray(v)


def _structural(name: str, rule: str) -> OutputCheck:
    return OutputCheck(name, mismatch=Mismatch(name, (), None, None, rule), rule=rule, pcc=0.0)


def check_output(name: str, got, expected, dtype: str, exact: bool) -> OutputCheck:
    """Compare one output (an array, or a list of per-device arrays) with the reference."""
    gd, ed = _as_devices(got), _as_devices(expected)
    if (gd is None) != (ed is None) or (gd is not None and len(gd) != len(ed)):
        def what(d):
            return "a host tensor" if d is None else f"distributed over {len(d)} devices"

        return _structural(name, f"the simulator's output is {what(gd)}, the golden one {what(ed)}")
    pairs = [(name, _host(got), _host(expected))] if gd is None else [
        (f"{name}@device{d}", np.asarray(g), np.asarray(e)) for d, (g, e) in enumerate(zip(gd, ed))]
    for n, g, e in pairs:
        if g.shape != e.shape:
            return _structural(n, f"shapes differ: simulator {g.shape}, golden {e.shape}")
    rtol, atol = TOLERANCES.get(dtype, TOLERANCES["f32"])
    if not exact:
        top = 1.0
        for _, _, e in pairs:
            flat = np.ravel(e)
            for k in range(0, flat.size, CHUNK):
                part = flat[k:k + CHUNK]
                part = np.abs(part[np.isfinite(part)])
                if part.size:
                    top = max(top, float(part.max()))
        atol = atol * top
    rule = ("exact: the program only moves data" if exact
            else f"{dtype}: |sim - golden| <= {atol:.3g} + {rtol:.3g} * |golden|")
    out = OutputCheck(name, rule=rule)
    with np.errstate(invalid="ignore", over="ignore"):  # inf - inf: an inf on both sides is `same`
        for n, g, e in pairs:
            gf, ef = np.ravel(g), np.ravel(e)
            for k in range(0, gf.size, CHUNK):
                _accumulate(out, n, gf[k:k + CHUNK], ef[k:k + CHUNK], exact, rtol, atol, rule, g.shape, k)
    out.pcc = pcc_of([(e, g) for _, g, e in pairs])
    return out


def _accumulate(out: OutputCheck, n: str, g: np.ndarray, e: np.ndarray, exact: bool, rtol: float,
                atol: float, rule: str, shape: tuple, offset: int) -> None:
    """Add one chunk's counts and errors to `out` (and its first failing element): `g`, `e` are
    the flat elements from `offset` on of arrays of `shape`."""
    g64, e64 = g.astype(np.float64), e.astype(np.float64)
    nan_both = np.isnan(g64) & np.isnan(e64)
    same = (g == e) | nan_both if exact else (g64 == e64) | nan_both
    if exact:
        bad = ~same
    else:
        bad = ~((np.abs(g64 - e64) <= atol + rtol * np.abs(e64)) | same)
    out.elements += int(g.size)
    out.differing += int((~same).sum())
    out.failing += int(bad.sum())
    fin = np.isfinite(g64) & np.isfinite(e64)
    err = np.abs(g64[fin] - e64[fin])
    if err.size:
        out.max_abs = max(out.max_abs, float(err.max()))
        nz = e64[fin] != 0
        if nz.any():
            out.max_rel = max(out.max_rel, float((err[nz] / np.abs(e64[fin][nz])).max()))
    if out.mismatch is None and bad.any():
        at = int(np.argmax(bad))
        idx = tuple(int(i) for i in np.unravel_index(offset + at, shape))
        out.mismatch = Mismatch(n, idx, g[at].item(), e[at].item(), rule)


def compare(name: str, got, expected, dtype: str, exact: bool) -> Mismatch | None:
    """The first mismatch of one output (an array, or a list of per-device arrays), or None."""
    return check_output(name, got, expected, dtype, exact).mismatch
