"""ttir's attributes: how `ttir.mesh_shard` treats the mesh, the reduction of a collective, and a
point_to_point's transfer rows written packed (`#ttir.transfers`)."""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import Data
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from meshc.dialects.syntax import AngleBody, verified
from meshc.layout.reshard.transfer_table import unpack


# ----------------------------------------------------------------------------- enum attributes


class WordEnumAttr(AngleBody, Data[str]):
    """An enum attribute printed `#dialect.name<word>`; subclasses list their `words`."""

    words: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def parse_body(cls, parser: AttrParser) -> str:
        pos = parser.pos
        word = parser.parse_optional_identifier()
        if word is None or word not in cls.words:
            parser.raise_error(f"{cls.name} must be one of {', '.join(cls.words)}", pos, parser.pos)
        return word

    def verify(self) -> None:
        if self.data not in self.words:
            raise VerifyException(f"{self.name} must be one of {', '.join(self.words)}, got '{self.data}'")


@irdl_attr_definition
class ShardTypeAttr(WordEnumAttr):
    """How `ttir.mesh_shard` treats the mesh: copy the whole tensor to every device, split it, or
    (`identity`, tt-mlir's word for a tensor its front end has already placed) pass it through
    unchanged on every device. tt-mlir's `maximal` (the whole tensor on one device) is read and
    refused by the op, as tt-mlir refuses it."""

    name = "ttir.shard_type"
    words = ("replicate", "devices", "identity", "maximal")


@irdl_attr_definition
class ShardDirectionAttr(WordEnumAttr):
    """Host tensor -> per-device pieces (`full_to_shard`) or back (`shard_to_full`)."""

    name = "ttir.shard_direction"
    words = ("full_to_shard", "shard_to_full")


@irdl_attr_definition
class ReduceTypeAttr(WordEnumAttr):
    """The reduction a collective applies across devices."""

    name = "ttir.reduce_type"
    words = ("sum", "mean", "max", "min", "std", "var")


# ----------------------------------------------------------------------------- packed transfers


@irdl_attr_definition
class TransfersAttr(AngleBody, Data[tuple[int, int, str]]):
    """A point_to_point's transfer rows written packed: `#ttir.transfers<ROWS, WIDTH, "TEXT">`,
    TEXT the rows as meshc.layout.reshard.transfer_table.pack writes them (row differences,
    int64, zlib, base64). A table of more than `PACKED_ABOVE` numbers is written this way; it
    reads back to the same rows (`rows()`)."""

    name = "ttir.transfers"

    @classmethod
    def parse_body(cls, parser: AttrParser) -> tuple[int, int, str]:
        counts = []
        for what in ("rows", "numbers a row"):
            pos = parser.pos
            k = parser.parse_integer(allow_boolean=False)
            if k < 0:
                parser.raise_error(f"#ttir.transfers<ROWS, WIDTH, \"TEXT\">: {what} must be >= 0, got {k}", pos, parser.pos)
            counts.append(k)
            parser.parse_punctuation(",")
        return counts[0], counts[1], parser.parse_str_literal()

    def print_parameter(self, printer: Printer) -> None:
        n, width, text = self.data
        printer.print_string(f'<{n}, {width}, "{text}">')

    def rows(self):
        """The (rows, width) int64 array (read-only); VerifyException when TEXT does not hold it."""
        n, width, text = self.data
        return verified(lambda: unpack(text, n, width))
