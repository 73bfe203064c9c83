"""ttir's enum attributes: how `ttir.mesh_shard` treats the mesh, and the reduction of a collective."""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import Data
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.utils.exceptions import VerifyException

from meshc.dialects.syntax import AngleBody


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
