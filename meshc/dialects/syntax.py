"""Syntax and checks shared by meshc's attribute definitions (tt, ttir, ttnn).

`AngleBody` is the `#dialect.name<BODY>` form of an attribute with one parameter: the class
reads BODY with its `parse_body(parser)`, and prints its data as BODY. `verified` runs a
meshc.layout model constructor or check and reports its LayoutError as a verifier error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from meshc.layout.errors import LayoutError

T = TypeVar("T")


class AngleBody:
    """Mixin, listed before `Data[...]` in the bases, for an attribute written
    `#dialect.name<BODY>`: subclasses define the classmethod `parse_body(parser)` that reads
    BODY; BODY is printed as `str(self.data)`."""

    data: Any

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> Any:
        with parser.in_angle_brackets():
            return cls.parse_body(parser)  # pyright: ignore[reportAttributeAccessIssue]

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data}>")


def verified(build: Callable[[], T]) -> T:
    """Run a model constructor or check; its LayoutError becomes a VerifyException."""
    try:
        return build()
    except LayoutError as e:
        raise VerifyException(str(e)) from e
