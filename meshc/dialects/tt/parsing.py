"""Parse and print helpers shared by the tt attributes: integer lists, shapes, affine maps."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IntAttr
from xdsl.parser import AttrParser
from xdsl.printer import Printer

from meshc.layout.affine import AffineMap, AffineParseError, map_text_end, parse_map


def int_array(values: Sequence[int]) -> ArrayAttr[IntAttr]:
    return ArrayAttr([IntAttr(int(v)) for v in values])


def array_ints(arr: ArrayAttr[IntAttr]) -> tuple[int, ...]:
    return tuple(a.data for a in arr.data)



def parse_affine_map(parser: AttrParser) -> AffineMap:
    """An affine map in MLIR syntax, read from the source text by meshc.layout.affine."""
    start = parser.pos
    text = parser.lexer.input.content
    end = map_text_end(text, start)
    if end == start:
        parser.raise_error("expected an affine map such as '(d0, d1) -> (d0, d1)'")
    try:
        m = parse_map(text[start:end])
    except AffineParseError as e:
        parser.raise_error(str(e), start + e.offset, start + e.offset + 1)
    parser._resume_from(end)  # pyright: ignore[reportPrivateUsage]
    return m


def parse_dims(parser: AttrParser, what: str) -> list[int]:
    at = parser.pos
    dims = parser.parse_dimension_list()
    if not dims:
        parser.raise_error(f"expected {what} such as 8x8", at)
    if any(d < 0 for d in dims):
        parser.raise_error(f"{what} cannot have dynamic sizes", at)
    return dims


def parse_key(parser: AttrParser, key: str) -> None:
    parser.parse_keyword(key, f" (the next field of the attribute is '{key} = ...')")
    parser.parse_punctuation("=")


def parse_int_list(parser: AttrParser) -> list[int]:
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)


def print_int_list(printer: Printer, values: Sequence[int]) -> None:
    printer.print_string("[" + ", ".join(str(v) for v in values) + "]")
