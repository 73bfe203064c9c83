"""`#tt.local_shape<local_shape = tensor<...>>`: the per-device type of a function argument or
result, as tt-mlir's front end writes it beside `#ttcore.shard_status` (tt-mlir spells it
`#ttcore<local_shape local_shape = tensor<...>>`; meshc reads both and prints its own form).
meshc keeps it with the function; it places nothing."""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer


@irdl_attr_definition
class LocalShapeAttr(ParametrizedAttribute):
    name = "tt.local_shape"

    local_type: TensorType = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        # `#tt.local_shape<local_shape = T>`, or tt-mlir's `#ttcore<local_shape local_shape = T>`
        # whose body follows the mnemonic without brackets of its own
        angled = parser.parse_optional_punctuation("<") is not None
        parser.parse_keyword("local_shape")
        parser.parse_punctuation("=")
        t = parser.parse_type()
        if not isinstance(t, TensorType):
            parser.raise_error(f"expected a ranked tensor type after 'local_shape =', got {t}")
        if angled:
            parser.parse_punctuation(">")
        return (t,)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<local_shape = ")
        printer.print_attribute(self.local_type)
        printer.print_string(">")
