"""The compiler driver shared by meshc-opt, meshc-run and the Python API.

Context with meshc's dialects, located parsing and verification, pass pipelines by spec
string, and printing with MLIR-style attribute aliases (`#device = #tt.device<...>` once at
the top instead of the attribute on every op).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from io import StringIO

from xdsl.context import Context
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FileLineColLoc, ModuleOp, TensorType
from xdsl.ir import Attribute
from xdsl.passes import ModulePass, PassPipeline
from xdsl.printer import Printer
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError, VerifyException

from meshc.errors import Diagnostic, DiagnosticError, LocatedError, SourceFile, op_diagnostic, stamp_location

from meshc.located_parser import LocatingParser, parse_error_diagnostic
from meshc.layout.errors import LayoutError

from meshc.verify import verify_located
from meshc.dialects.reference import attach_reference, detach_references, is_reference
from meshc.dialects.ttmlir_spelling import SPELLING_OPS, attribute_synonym, normalize_module
from meshc.dialects.tt.device_module import flatten_device_module
from meshc.dialects.ttir.ttmlir_ops import UNREAD_OPS
from meshc.dialects import get_all_dialects
from meshc.passes import get_all_passes
from meshc.passes.observe import run_pass


class MeshcContext(Context):
    """xDSL's context, reading tt-mlir's attribute and type names (`#ttcore.X`, `#tt.shard_type`)
    as meshc's (meshc/dialects/ttmlir_spelling.py); a name meshc knows costs nothing more."""

    def get_optional_attr(self, name: str):
        if name not in self._loaded_attrs:
            name = attribute_synonym(name) or name
        return super().get_optional_attr(name)

    def get_optional_op(self, name: str, *, dialect_stack=()):
        if name in SPELLING_OPS:  # an op only tt-mlir spells, read as its meshc op after parsing
            return SPELLING_OPS[name]
        if name.startswith("ttcore."):  # meshc has no ttcore dialect: its ops are tt's
            name = attribute_synonym(name) or name
        return super().get_optional_op(name, dialect_stack=dialect_stack)

    def get_optional_type(self, name: str):
        if name not in self._loaded_types:
            name = attribute_synonym(name) or name
        return super().get_optional_type(name)


def make_context(allow_unregistered: bool = False) -> Context:
    """A context with builtin, func, arith, tensor and all of meshc's dialects."""
    ctx = MeshcContext(allow_unregistered=allow_unregistered)
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx


_COMMENT_OR_SPACE = re.compile(r"(\s|//[^\n]*)*")
_STRING_OR_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|"')


def _check_string_literals(text: str, name: str) -> None:
    """Report a string literal left open at the end of its line.

    xDSL 0.74's lexer matches string literals with a regex that backtracks exponentially when
    the closing quote is missing, so an open quote would hang the parser; find it first, in
    linear time, and say where it is.
    """
    for m in _STRING_OR_COMMENT.finditer(text):
        if m.group(0) == '"':
            source = SourceFile(name, text)
            line, col = source.position_of(m.start())
            raise DiagnosticError([Diagnostic(name, line, col, "string literal is not closed on its line")])


def parse_source(ctx: Context, text: str, name: str = "<input>") -> ModuleOp:
    """Parse a module; a syntax or attribute error raises a located DiagnosticError. Input with
    nothing but comments and blank lines is an empty module (xDSL's parser refuses it)."""
    if _COMMENT_OR_SPACE.fullmatch(text):
        return empty_module(text, name)
    _check_string_literals(text, name)
    try:
        module = LocatingParser(ctx, text, name).parse_module()
    except ParseError as e:
        d = parse_error_diagnostic(e)
        raise DiagnosticError([Diagnostic(d.file, d.line, d.col, d.message + _op_name_suggestion(d.message),
                                          d.severity)]) from None
    except VerifyException as e:  # an attribute built outside a located parse hook
        raise DiagnosticError([Diagnostic(name, 0, 0, str(e).split("\n")[0])]) from None
    locate_implicit_module(module, text, name)
    try:
        flatten_device_module(module)  # tt-mlir's ttcore.device_module wrapper: its functions are the module's
    except LocatedError as e:
        raise DiagnosticError([op_diagnostic(e.op, e.message, name)]) from None
    normalize_module(module)  # tt-mlir's spelling (properties, destination operands) as meshc's
    return module


_UNREGISTERED = re.compile(r"^Operation ([\w$.]+) is not registered|^dialect ([\w$]+) is not registered")


def _op_name_suggestion(message: str) -> str:
    """`; did you mean 'ttir.matmul'?` for an operation (or dialect) name no dialect registers,
    from the names meshc's dialects define; '' when none is close."""
    m = _UNREGISTERED.match(message)
    if m is None:
        return ""
    dialects = get_all_dialects()
    if m.group(2) is not None:
        names: list[str] = list(dialects)
        wrong = m.group(2)
    else:
        wrong = m.group(1)
        if wrong in UNREAD_OPS:
            return f": tt-mlir's {wrong} is {UNREAD_OPS[wrong]}; meshc does not read it (docs/importers.md)"
        names = [op.name for factory in dialects.values() for op in factory().operations]
    close = difflib.get_close_matches(wrong, names, n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


def locate_implicit_module(module: ModuleOp, text: str, name: str) -> None:
    """Give the implicit top-level module (input without a `module` op) a source location.

    mlir-opt locates it at `file:0:0`, a place no editor can show; meshc points at the module's
    first operation, the line a module-level error (a pass option such as `mesh-shape=0`, an
    unknown `system`) is about, or, when the input holds no operation (only comments), at its first
    comment (else its end), so that errors always name a line of the input (line, col >= 1). With
    --split-input-file, `text` is the chunk padded to its place in the file, so the line is the
    chunk's own."""
    if isinstance(module.location, FileLineColLoc):
        return
    first = module.body.blocks.first.first_op if module.body.blocks else None
    if first is not None and isinstance(first.location, FileLineColLoc):
        module.location = first.location
        return
    stripped = text.lstrip()
    line, col = SourceFile(name, text).position_of(len(text) - len(stripped))
    stamp_location(module, name, line, col)


def empty_module(text: str, name: str) -> ModuleOp:
    """The module of an input holding nothing but comments and blank lines, located in it."""
    module = ModuleOp([])
    locate_implicit_module(module, text, name)
    return module


def verify_or_raise(module: ModuleOp, name: str = "<input>", skip_references: bool = False) -> None:
    """Verify `module`; its errors raise a located DiagnosticError. `skip_references` leaves out the
    reference programs it carries (after a pass: a reference is the program as verified before
    the pass ran, kept out of the pass's reach)."""
    diags = verify_located(module, name, skip=is_reference if skip_references else None)
    if diags:
        raise DiagnosticError(diags)


def split_chunks(text: str) -> list[str]:
    """Split on `// -----` lines; each chunk keeps its original line numbers (padded with newlines)."""
    chunks: list[str] = []
    current: list[str] = []
    first_line = 0
    for i, line in enumerate(text.split("\n")):
        if line.strip() == "// -----":
            chunks.append("\n" * first_line + "\n".join(current))
            current = []
            first_line = i + 1
        else:
            current.append(line)
    chunks.append("\n" * first_line + "\n".join(current))
    return chunks


def build_pipeline(spec: str) -> tuple[ModulePass, ...]:
    """Passes from a spec like `tt-register-device{system=t3k mesh-shape=2,4},ttir-layout`."""
    if not spec.strip():
        return ()
    try:
        return PassPipeline.parse_spec(get_all_passes(), spec).passes
    except ValueError:
        raise
    except ArgSpecParseError as e:  # a BaseException in xDSL 0.74, so name it
        detail = " ".join(str(e).split("\n")[1:]).strip() or str(e)
        raise ValueError(f"invalid pass pipeline '{spec}': {' '.join(detail.split())} "
                         "(quote option values that are paths: system=\"/path/to/system.mlir\")") from None
    except Exception as e:  # option type errors etc. come out as assorted exceptions
        raise ValueError(f"invalid pass pipeline '{spec}': {e}") from None


def apply_pipeline(ctx: Context, module: ModuleOp, passes: tuple[ModulePass, ...], name: str = "<input>") -> None:
    """Run passes in order, verifying after each; a pass failure raises a located DiagnosticError.

    A reference program the module carries (meshc/dialects/reference.py) is out of the module
    while the passes run, and back at its end afterwards: passes see only the program; a
    reference a pass makes (a lowering pipeline's) is kept when the module had none."""
    refs = detach_references(module)
    try:
        for p in passes:
            try:
                run_pass(p, ctx, module)  # seen by meshc-opt's per-pass dumps and timings
            except LocatedError as e:  # one tied to no op is about the module
                raise DiagnosticError([op_diagnostic(e.op or module, e.message, name)]) from None
            except DiagnosticException as e:
                raise DiagnosticError([op_diagnostic(module, f"pass '{p.name}' failed: {e}", name)]) from None
            except LayoutError as e:  # the placement model refusing the input, where no op caught it
                raise DiagnosticError([op_diagnostic(module, f"pass '{p.name}': {e}", name)]) from None
            verify_or_raise(module, name, skip_references=True)
    finally:
        if refs:
            attach_reference(module, refs[0])


# ----------------------------------------------------------------------------- printing

ALIAS_NAMES: dict[str, str] = {
    "tt.system_desc": "system_desc",
    "tt.device": "device",
    "tt.metal_layout": "layout",
    "ttnn.ttnn_layout": "ttnn_layout",
    "ttnn.sharded_buffer_config": "sharded_buffer_config",
}
"""Attributes printed once as `#alias = ...` at the top of the output, as tt-mlir's alias hooks
do: attribute name -> alias base (`#device`, `#device1`, ...)."""


@dataclass(eq=False, repr=False)
class ElidingPrinter(Printer):
    """xDSL's printer, writing a dense literal of more than `elide_larger` elements (not a splat)
    as `dense_resource<__elided__>`, as mlir-opt's --mlir-elide-elementsattrs-if-larger does."""

    elide_larger: int | None = None

    def print_attribute(self, attribute: Attribute) -> None:
        if (self.elide_larger is not None and isinstance(attribute, DenseIntOrFPElementsAttr)
                and not attribute.is_splat() and len(attribute) > self.elide_larger):
            self.print_string("dense_resource<__elided__> : ")
            self.print_attribute(attribute.type)
            return
        super().print_attribute(attribute)


@dataclass(eq=False, repr=False)
class AliasPrinter(ElidingPrinter):
    """A Printer that writes each distinct long meshc attribute once, as `#alias = ...` on top.

    Attributes are recognised while printing (by identity first, then by value), so a layout
    repeated on thousands of tensor types is rendered once, not re-printed and then scanned.
    Tensor types are rendered once each the same way (their text, aliases in it, is reused), and
    so is an op's function type of tensor types (by the identities of its types)."""

    _by_id: dict[int, tuple[Attribute, str]] = field(default_factory=dict, init=False)
    _by_value: dict[Attribute, str] = field(default_factory=dict, init=False)
    _defs: list[tuple[str, str]] = field(default_factory=list, init=False)
    _counts: dict[str, int] = field(default_factory=dict, init=False)
    _types_by_id: dict[int, tuple[Attribute, str]] = field(default_factory=dict, init=False)
    _types_by_value: dict[Attribute, str] = field(default_factory=dict, init=False)
    _function_types: dict[tuple, tuple[tuple, str]] = field(default_factory=dict, init=False)

    def print_string(self, text: str, *, indent: int | None = None) -> None:
        if "\n" in text:
            return super().print_string(text, indent=indent)
        self._current_column += len(text)  # what xDSL's print_string does for a text without line breaks
        self.stream.write(text)

    def print_function_type(self, input_types, output_types) -> None:
        ins, outs = tuple(input_types), tuple(output_types)
        if not all(type(t) is TensorType for t in ins + outs):
            return super().print_function_type(ins, outs)
        key = (tuple(map(id, ins)), tuple(map(id, outs)))
        hit = self._function_types.get(key)
        if hit is None:
            stream, column = self.stream, self._current_column
            self.stream = StringIO()
            try:
                super().print_function_type(ins, outs)  # the types' aliases are made here, in order
            finally:
                text = self.stream.getvalue()
                self.stream, self._current_column = stream, column
            hit = self._function_types[key] = ((ins, outs), text)  # holding the types keeps their ids
        self.print_string(hit[1])

    def _print_tensor_type(self, t: TensorType) -> None:
        hit = self._types_by_id.get(id(t))
        if hit is None:
            text = self._types_by_value.get(t)
            if text is None:
                stream, column = self.stream, self._current_column
                self.stream = StringIO()
                try:
                    super().print_attribute(t)  # through print_attribute: the encoding's alias is made here
                finally:
                    text = self.stream.getvalue()
                    self.stream, self._current_column = stream, column
                if "\n" in text:  # (a type has no line breaks; never reuse one that had)
                    return self.print_string(text)
                self._types_by_value[t] = text
            hit = self._types_by_id[id(t)] = (t, text)  # holding the type keeps its id
        self.print_string(hit[1])

    def print_attribute(self, attribute: Attribute) -> None:
        if type(attribute) is TensorType:
            return self._print_tensor_type(attribute)
        base = ALIAS_NAMES.get(getattr(attribute, "name", ""))
        if base is None:
            return super().print_attribute(attribute)
        hit = self._by_id.get(id(attribute))
        if hit is None:
            alias = self._by_value.get(attribute)
            if alias is None:
                n = self._counts.get(base, 0)
                self._counts[base] = n + 1
                alias = f"#{base}" if n == 0 else f"#{base}{n}"
                text = StringIO()
                Printer(stream=text, print_generic_format=self.print_generic_format).print_attribute(attribute)
                self._defs.append((alias, text.getvalue()))
                self._by_value[attribute] = alias
            hit = self._by_id[id(attribute)] = (attribute, alias)  # holding the attribute keeps its id
        self.print_string(hit[1])

    def header(self) -> str:
        return "".join(f"{alias} = {text}\n" for alias, text in self._defs)


def print_module(module: ModuleOp, generic: bool = False, aliases: bool = True,
                 elide_larger: int | None = None) -> str:
    """The module's text (generic form or not, long attributes as aliases or inline); dense
    literals of more than `elide_larger` elements elided."""
    stream = StringIO()
    if not aliases:
        ElidingPrinter(stream=stream, print_generic_format=generic, elide_larger=elide_larger).print_op(module)
        return stream.getvalue() + "\n"
    printer = AliasPrinter(stream=stream, print_generic_format=generic, elide_larger=elide_larger)
    printer.print_op(module)
    return printer.header() + stream.getvalue() + "\n"
