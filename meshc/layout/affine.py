"""Affine maps as MLIR writes them: parse, print, evaluate (vectorized), compare.

Pure Python + numpy, no IR. Device maps (`#tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>`)
and tensor LINEAR maps (`#tt.metal_layout<(d0, d1, d2) -> (d0 * 64 + d1, d2), ...>`) are
values of `AffineMap`.

* Expressions are trees of `Dim`, `Const` and `Binary` (add, mul, floordiv, ceildiv, mod);
  subtraction is `a + b * -1` and negation `a * -1`, as in MLIR.
* `parse_map(text)` keeps what the user wrote: no simplification, no reordering, so the map
  prints back text for text.
* `str(map)` prints as MLIR's AsmPrinter does: `+`/`-` bind weakly, `*`, `floordiv`,
  `ceildiv`, `mod` strongly, and an operand is parenthesized only when it binds more weakly
  than its context requires: `(d0 floordiv 8) * 2 + d1 floordiv 8`, `(d0 + d1) mod 8`.
* `evaluate(points)` maps an (N, ndims) integer array to (N, nresults) with MLIR semantics:
  floordiv rounds toward negative infinity, mod is never negative, ceildiv rounds up.
* `bounds(map, shape)` gives each result's [lo, hi] over a box of dims (interval arithmetic).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
import numpy as np

from meshc.layout.errors import LayoutError
from meshc.layout.shapes import ceil_div

# ----------------------------------------------------------------------------- expressions


class AffineExpr:
    """Base of the expression tree; build with +, -, *, and .floordiv/.ceildiv/.mod."""

    def __add__(self, other: "AffineExpr | int") -> "AffineExpr":
        return Binary("add", self, _expr(other))

    def __radd__(self, other: int) -> "AffineExpr":
        return Binary("add", _expr(other), self)

    def __mul__(self, other: "AffineExpr | int") -> "AffineExpr":
        return Binary("mul", self, _expr(other))

    def __rmul__(self, other: int) -> "AffineExpr":
        return Binary("mul", _expr(other), self)

    def __neg__(self) -> "AffineExpr":
        return Binary("mul", self, Const(-1))

    def __sub__(self, other: "AffineExpr | int") -> "AffineExpr":
        o = _expr(other)
        if isinstance(o, Const):
            return Binary("add", self, Const(-o.value))
        return Binary("add", self, Binary("mul", o, Const(-1)))

    def floordiv(self, other: "AffineExpr | int") -> "AffineExpr":
        return Binary("floordiv", self, _expr(other))

    def ceildiv(self, other: "AffineExpr | int") -> "AffineExpr":
        return Binary("ceildiv", self, _expr(other))

    def mod(self, other: "AffineExpr | int") -> "AffineExpr":
        return Binary("mod", self, _expr(other))

    def __str__(self) -> str:
        return _print(self, strong=False)

    def max_dim(self) -> int:
        """Highest dim position used, or -1."""
        if isinstance(self, Dim):
            return self.pos
        if isinstance(self, Binary):
            return max(self.lhs.max_dim(), self.rhs.max_dim())
        return -1


@dataclass(frozen=True, eq=True)
class Dim(AffineExpr):
    pos: int



@dataclass(frozen=True, eq=True)
class Const(AffineExpr):
    value: int



BINARY_KINDS = ("add", "mul", "floordiv", "ceildiv", "mod")
_SPELLING = {"mul": " * ", "floordiv": " floordiv ", "ceildiv": " ceildiv ", "mod": " mod "}


@dataclass(frozen=True, eq=True)
class Binary(AffineExpr):
    kind: str
    lhs: AffineExpr
    rhs: AffineExpr


    def __post_init__(self):
        if self.kind not in BINARY_KINDS:
            raise LayoutError(f"unknown affine operator '{self.kind}'; expected one of {', '.join(BINARY_KINDS)}")


def _expr(x: "AffineExpr | int") -> AffineExpr:
    if isinstance(x, AffineExpr):
        return x
    if isinstance(x, (int, np.integer)):
        return Const(int(x))
    raise TypeError(f"expected an affine expression or an int, got {type(x).__name__}")


def dims(n: int) -> tuple[Dim, ...]:
    return tuple(Dim(i) for i in range(n))


# ----------------------------------------------------------------------------- printing


def _print(e: AffineExpr, strong: bool) -> str:
    """MLIR's AsmPrinter rules; `strong` is the binding strength the context requires."""
    if isinstance(e, Dim):
        return f"d{e.pos}"
    if isinstance(e, Const):
        return str(e.value)
    assert isinstance(e, Binary)
    lhs, rhs = e.lhs, e.rhs
    if e.kind != "add":
        if e.kind == "mul" and isinstance(rhs, Const) and rhs.value == -1:
            body = "-" + _print(lhs, True)
        else:
            body = _print(lhs, True) + _SPELLING[e.kind] + _print(rhs, True)
        return f"({body})" if strong else body
    # addition, with its "pretty" subtraction forms
    body = None
    if isinstance(rhs, Binary) and rhs.kind == "mul" and isinstance(rhs.rhs, Const):
        c = rhs.rhs.value
        if c == -1:
            inner_strong = isinstance(rhs.lhs, Binary) and rhs.lhs.kind == "add"
            body = _print(lhs, False) + " - " + _print(rhs.lhs, inner_strong)
        elif c < -1:
            body = _print(lhs, False) + " - " + _print(rhs.lhs, True) + f" * {-c}"
    if body is None and isinstance(rhs, Const) and rhs.value < 0:
        body = _print(lhs, False) + f" - {-rhs.value}"
    if body is None:
        body = _print(lhs, False) + " + " + _print(rhs, False)
    return f"({body})" if strong else body


# ----------------------------------------------------------------------------- maps


@dataclass(frozen=True)
class AffineMap:
    """`(d0, ..., dn-1) -> (results...)`; symbols are not supported (meshc does not need them)."""

    num_dims: int
    results: tuple[AffineExpr, ...]

    def __post_init__(self):
        object.__setattr__(self, "results", tuple(_expr(r) for r in self.results))
        if self.num_dims < 0:
            raise LayoutError("an affine map cannot have a negative number of dims")
        for r in self.results:
            if r.max_dim() >= self.num_dims:
                raise LayoutError(f"affine result '{r}' uses d{r.max_dim()}, but the map has only "
                                  f"{self.num_dims} dims")

    @property
    def num_results(self) -> int:
        return len(self.results)

    def __str__(self) -> str:
        ds = ", ".join(f"d{i}" for i in range(self.num_dims))
        rs = ", ".join(str(r) for r in self.results)
        return f"({ds}) -> ({rs})"

    def __repr__(self) -> str:
        return f"AffineMap('{self}')"

    @classmethod
    def identity(cls, n: int) -> "AffineMap":
        return cls(n, dims(n))

    def evaluate(self, points) -> np.ndarray:
        """(N, num_dims) integer points -> (N, num_results) int64 values (MLIR semantics)."""
        pts = np.asarray(points, dtype=np.int64)
        if pts.ndim == 1:
            pts = pts.reshape(1, -1) if self.num_dims else pts.reshape(-1, 0)
        if pts.ndim != 2 or pts.shape[1] != self.num_dims:
            raise LayoutError(f"affine map {self} takes points of {self.num_dims} coordinates, "
                              f"got an array of shape {tuple(pts.shape)}")
        n = pts.shape[0]
        if n:  # numpy's int64 wraps silently: refuse a map whose values leave int64 on these points
            ranges = [(int(lo), int(hi)) for lo, hi in zip(pts.min(axis=0), pts.max(axis=0))]
            for r in self.results:
                _check_int64(r, ranges, self)
        out = np.empty((n, self.num_results), dtype=np.int64)
        for j, r in enumerate(self.results):
            out[:, j] = np.broadcast_to(_eval(r, pts), (n,))
        return out

    def __call__(self, *coords: int) -> tuple[int, ...]:
        return tuple(int(v) for v in self.evaluate(np.array([coords], dtype=np.int64))[0])

    def bounds(self, shape) -> list[tuple[int, int]]:
        """Per result, [lo, hi] over dims ranging over [0, shape[i]) (exact for sums of distinct dims)."""
        shape = tuple(int(s) for s in shape)
        if len(shape) != self.num_dims:
            raise LayoutError(f"affine map {self} takes {self.num_dims} dims, got a shape of rank {len(shape)}")
        if any(s <= 0 for s in shape):
            raise LayoutError(f"cannot bound affine map {self} over the empty box {shape}")
        ranges = [(0, s - 1) for s in shape]
        return [_bounds(r, ranges) for r in self.results]

    def equivalent_on(self, other: "AffineMap", shape) -> bool:
        """Same values at every point of the box `shape` (how device maps are compared)."""
        if self.num_dims != other.num_dims or self.num_results != other.num_results:
            return False
        pts = grid_points(shape)
        return bool(np.array_equal(self.evaluate(pts), other.evaluate(pts)))


def grid_points(shape) -> np.ndarray:
    """All points of a box, row-major (last coordinate fastest), as an (N, rank) int64 array."""
    shape = tuple(int(s) for s in shape)
    if not shape:
        return np.zeros((1, 0), dtype=np.int64)
    grids = np.indices(shape, dtype=np.int64)
    return grids.reshape(len(shape), -1).T.copy()


def _eval(e: AffineExpr, pts: np.ndarray):
    if isinstance(e, Dim):
        return pts[:, e.pos]
    if isinstance(e, Const):
        return np.int64(e.value)
    assert isinstance(e, Binary)
    a, b = _eval(e.lhs, pts), _eval(e.rhs, pts)
    if e.kind == "add":
        return a + b
    if e.kind == "mul":
        return a * b
    if np.any(np.asarray(b) <= 0):
        raise LayoutError(f"'{e}' divides by a value that is not positive")
    if e.kind == "floordiv":
        return np.floor_divide(a, b)
    if e.kind == "ceildiv":
        return -np.floor_divide(-a, b)
    return np.mod(a, b)


_INT64 = (-(2 ** 63), 2 ** 63 - 1)


def _check_int64(e: AffineExpr, ranges: list[tuple[int, int]], whole) -> None:
    """LayoutError when `e` or one of its terms may leave int64 over the box `ranges`."""
    if isinstance(e, Binary):
        _check_int64(e.lhs, ranges, whole)
        _check_int64(e.rhs, ranges, whole)
    lo, hi = _bounds(e, ranges)
    if lo < _INT64[0] or hi > _INT64[1]:
        raise LayoutError(f"affine map {whole} overflows 64-bit integers: '{e}' reaches "
                          f"{lo if lo < _INT64[0] else hi} on the points it is evaluated at")


def _bounds(e: AffineExpr, ranges: list[tuple[int, int]]) -> tuple[int, int]:
    if isinstance(e, Dim):
        return ranges[e.pos]
    if isinstance(e, Const):
        return e.value, e.value
    assert isinstance(e, Binary)
    alo, ahi = _bounds(e.lhs, ranges)
    blo, bhi = _bounds(e.rhs, ranges)
    if e.kind == "add":
        return alo + blo, ahi + bhi
    if e.kind == "mul":
        c = [alo * blo, alo * bhi, ahi * blo, ahi * bhi]
        return min(c), max(c)
    if blo <= 0:
        raise LayoutError(f"'{e}' divides by a value that is not positive")
    if e.kind == "floordiv":
        return min(alo // blo, alo // bhi), max(ahi // blo, ahi // bhi)
    if e.kind == "ceildiv":
        return min(ceil_div(alo, blo), ceil_div(alo, bhi)), max(ceil_div(ahi, blo), ceil_div(ahi, bhi))
    # mod: exact when the operand stays inside one period of a constant divisor
    if blo == bhi and alo // blo == ahi // blo:
        return alo % blo, ahi % blo
    return 0, bhi - 1


# ----------------------------------------------------------------------------- parsing

_TOKEN = re.compile(r"\s*(?:(?P<int>\d+)|(?P<id>[A-Za-z_][A-Za-z0-9_$.]*)|(?P<arrow>->)|(?P<p>[-+*(),\[\]]))")


class AffineParseError(LayoutError):
    """A malformed affine map; `offset` is the character offset of the problem in the text."""

    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.offset = offset


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.toks: list[tuple[str, str, int]] = []
        pos = 0
        while True:
            m = _TOKEN.match(text, pos)
            if m is None:
                rest = text[pos:].lstrip()
                if not rest:
                    break
                off = len(text) - len(rest)
                raise AffineParseError(f"unexpected character '{rest[0]}' in affine map", off)
            kind = m.lastgroup or ""
            self.toks.append((kind, m.group(kind), m.start(kind)))
            pos = m.end()
        self.i = 0
        self.names: dict[str, int] = {}

    def peek(self) -> tuple[str, str, int]:
        return self.toks[self.i] if self.i < len(self.toks) else ("eof", "", len(self.text))

    def error(self, msg: str, got: bool = True):
        kind, val, off = self.peek()
        if not got:
            raise AffineParseError(msg, off)
        found = "end of input" if kind == "eof" else f"'{val}'"
        raise AffineParseError(f"{msg} in affine map, got {found}", off)

    def accept(self, val: str) -> bool:
        if self.peek()[1] == val and self.peek()[0] != "eof":
            self.i += 1
            return True
        return False

    def expect(self, val: str, what: str | None = None):
        if not self.accept(val):
            self.error(f"expected {what or repr(val)}")

    def parse_map(self) -> AffineMap:
        self.expect("(", "'(' starting the dim list")
        if not self.accept(")"):
            while True:
                kind, val, _ = self.peek()
                if kind != "id" or val in ("floordiv", "ceildiv", "mod"):
                    self.error("expected a dim name")
                if val in self.names:
                    self.error(f"dim '{val}' declared twice")
                self.names[val] = len(self.names)
                self.i += 1
                if self.accept(")"):
                    break
                self.expect(",", "',' or ')' in the dim list")
        if self.peek()[1] == "[":
            self.error("symbols are not supported; expected '->'")
        self.expect("->", "'->'")
        self.expect("(", "'(' starting the results")
        results: list[AffineExpr] = []
        if not self.accept(")"):
            while True:
                results.append(self.parse_sum())
                if self.accept(")"):
                    break
                self.expect(",", "',' or ')' after a result")
        if self.peek()[0] != "eof":
            self.error("expected the end of the map")
        return AffineMap(len(self.names), tuple(results))

    def parse_sum(self) -> AffineExpr:
        e = self.parse_product()
        while True:
            if self.accept("+"):
                e = Binary("add", e, self.parse_product())
            elif self.accept("-"):
                rhs = self.parse_product()
                e = Binary("add", e, Const(-rhs.value) if isinstance(rhs, Const) else Binary("mul", rhs, Const(-1)))
            else:
                return e

    def parse_product(self) -> AffineExpr:
        e = self.parse_unary()
        while True:
            kind, val, _ = self.peek()
            if val == "*" and kind == "p":
                self.i += 1
                rhs = self.parse_unary()
                if not isinstance(rhs, Const) and not isinstance(e, Const):
                    self.i -= 1
                    self.error("non-affine expression: one operand of '*' must be a constant")
                e = Binary("mul", e, rhs)
            elif kind == "id" and val in ("floordiv", "ceildiv", "mod"):
                self.i += 1
                at = self.i
                rhs = self.parse_unary()
                if not isinstance(rhs, Const) or rhs.value <= 0:
                    self.i = at
                    self.error(f"the right operand of '{val}' must be a positive constant")
                e = Binary(val, e, rhs)
            else:
                return e

    def parse_unary(self) -> AffineExpr:
        kind, val, _ = self.peek()
        if kind == "p" and val == "-":
            self.i += 1
            inner = self.parse_unary()
            return Const(-inner.value) if isinstance(inner, Const) else Binary("mul", inner, Const(-1))
        if kind == "int":
            if not -(1 << 63) <= int(val) < (1 << 63):
                self.error(f"constant {val} in affine map does not fit in 64 bits", got=False)
            self.i += 1
            return Const(int(val))
        if kind == "id" and val in self.names:
            self.i += 1
            return Dim(self.names[val])
        if kind == "p" and val == "(":
            self.i += 1
            e = self.parse_sum()
            self.expect(")", "')'")
            return e
        if kind == "id" and val not in ("floordiv", "ceildiv", "mod"):
            self.error(f"use of undeclared dim '{val}' in affine map; the map declares "
                       f"({', '.join(self.names)})", got=False)
        self.error("expected a dim, a constant or '('")
        raise AssertionError  # unreachable


def parse_map(text: str) -> AffineMap:
    """Parse MLIR affine map text, e.g. `(d0, d1) -> (d0 floordiv 8, d1 mod 8)`.

    Raises AffineParseError (a LayoutError) with the character offset of the problem.
    """
    return _Parser(text).parse_map()


def map_text_end(text: str, start: int) -> int:
    """Offset just past an affine map that begins at `start` in a larger text (for attribute parsers).

    Scans `( ... ) -> ( ... )` with balanced parentheses; returns `start` if there is no map there.
    """
    def group_end(i: int) -> int:
        depth = 0
        while i < len(text):
            c = text[i]
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
        return -1

    def skip_ws(i: int) -> int:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        return i

    i = skip_ws(start)
    if i >= len(text) or text[i] != "(":
        return start
    j = group_end(i)
    if j < 0:
        return start
    j = skip_ws(j)
    if not text.startswith("->", j):
        return start
    j = skip_ws(j + 2)
    if j >= len(text) or text[j] != "(":
        return start
    k = group_end(j)
    return start if k < 0 else k


def as_map(m: "AffineMap | str") -> AffineMap:
    return m if isinstance(m, AffineMap) else parse_map(m)


def maps_equal_on_grid(a: "AffineMap | str", b: "AffineMap | str", shape) -> bool:
    """Compare two maps by evaluating every point of a grid."""
    return as_map(a).equivalent_on(as_map(b), shape)


__all__ = [
    "AffineExpr", "Dim", "Const", "Binary", "AffineMap", "AffineParseError", "parse_map",
    "grid_points", "maps_equal_on_grid", "map_text_end", "dims", "as_map",
]
