"""StableHLO (with Shardy or GSPMD annotations) -> global-view ttir.

`import_stablehlo(text, name)` reads a StableHLO module (generic form directly; the dialects'
custom syntax through JAX's MLIR parser, see generic_form.py), takes its entry function and
writes a ttir module of the same global program:

* the module gets a `tt.device` for the program's mesh (the Shardy mesh, or the `mesh_shape`
  given for GSPMD annotations) through `tt-register-device`, on the smallest system that holds
  it unless `system` names one; a program with no mesh gets no device (it runs on one);
* function arguments and results carry `{tt.sharding = #tt.sharding<[S0, R], ...>}` (a result
  JAX left unconstrained, `{tt.unconstrained}`: it leaves in the sharding propagation gives
  it), and a sharding constraint inside the body (`sdy.sharding_constraint`, `stablehlo.custom_call
  @Sharding`) becomes `"ttir.sharding_constraint"(%x) {sharding = #tt.sharding<...>}`;
* every other op becomes the ttir ops that compute the same thing (stablehlo_ops.py); calls to
  the module's private functions are inlined. An op with no translation is a located error at
  the op in the input (`file:line:col: error: 'stablehlo.sort' op ...`).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence

import numpy as np

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    Float32Type,
    Float64Type,
    Signedness,
    IntegerType,
    SymbolRefAttr,
    DenseArrayBase,
    DictionaryAttr,
    FunctionType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
    UnknownLoc,
    UnregisteredOp,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from meshc.errors import Diagnostic, DiagnosticError, LocatedError, location_of
from meshc.dialects import ttir
from meshc.dialects.tt import ShardingAttr
from meshc.driver import locate_implicit_module, make_context, parse_source, verify_or_raise
from meshc.dialects.element_types import data_type_name
from meshc.importers.source import attr_of, dense_attr, op_name, unregistered_body
from meshc.importers.context import Reversed, located
from meshc.importers.stablehlo_loops import forget
from meshc.importers.stablehlo_ops import translate_op
from meshc.importers.stablehlo_select import unread_reverse
from meshc.importers.generic_form import GenericModule, is_generic_form, stamp_locations, to_generic
from meshc.importers.shardings import (
    SdyMesh,
    ShardingSyntaxError,
    hlo_spec,
    parse_sdy_mesh,
    parse_sdy_sharding,
    sdy_spec,
)
from meshc.layout.limits import MAX_DEVICES, check_count
from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.system import SYSTEMS
from meshc.layout.system import system as system_desc
from meshc.passes.register_device import RegisterDevicePass
from meshc.passes.sharding_ir import UNCONSTRAINED
from meshc.layout.shapes import fmt_shape


NORMALIZED = {IntegerType(64): IntegerType(32), IntegerType(64, Signedness.UNSIGNED): IntegerType(32, Signedness.UNSIGNED),
              Float64Type(): Float32Type()}
"""The element types the device does not hold, as tt-mlir's element-type normalisation (its TTIR
ElementTypeNormalization pass) gives them, at the boundary too: 64-bit integers as 32-bit (a
constant saturated into range), f64 as f32."""

BOOLEAN_HELD_AS = BFloat16Type()
"""The element type a boolean (i1) is held in inside the program, 1 / 0: tt-mlir's element-type
normalisation gives TTNN booleans as bf16 (a comparison's result keeps its operands' type
instead, stablehlo_ops.compare). At the function's boundary i1 is refused."""


class Importer:
    """Translates one entry function; holds the value map and the block being written."""

    def __init__(self, module: ModuleOp, name: str, mesh_shape: Sequence[int] | None,
                 automatic_arg_analysis: bool = False):
        self.source = module
        self.name = name
        self.automatic = automatic_arg_analysis
        self.meshes: dict[str, SdyMesh] = {}
        self.funcs: dict[str, func.FuncOp] = {}
        if len(module.body.blocks) != 1:
            raise LocatedError(f"the module's body has {len(module.body.blocks)} blocks; a module holds one", module)
        for op in module.body.ops:
            if op_name(op) == "sdy.mesh":
                body = unregistered_body(attr_of(op, "mesh"), "sdy.mesh")
                sym = attr_of(op, "sym_name")
                if body is None or not isinstance(sym, StringAttr):
                    raise LocatedError("expected a `sym_name` and a `mesh = #sdy.mesh<[...]>`", op)
                self.meshes[sym.data] = located(op, lambda: parse_sdy_mesh(body))
            elif isinstance(op, func.FuncOp):
                sym = op.properties.get("sym_name")
                if not isinstance(sym, StringAttr) or not isinstance(op.properties.get("function_type"), FunctionType):
                    raise LocatedError("expected a `sym_name` and a `function_type`", op)
                self.funcs[sym.data] = op
        self.mesh_shape: tuple[int, ...] | None = tuple(mesh_shape) if mesh_shape else None
        if self.automatic and annotated(module):
            self.automatic = False  # tt-mlir analyses only modules with no sharding annotation
        if self.automatic:
            if self.mesh_shape is None or len(self.mesh_shape) != 2 or self.mesh_shape[0] != 1:
                raise LocatedError("automatic argument analysis (tt-mlir's automatic-arg-analysis) takes a 2-d "
                                   "mesh shape whose first size is 1 (--mesh-shape 1,N); got "
                                   f"{'none' if self.mesh_shape is None else fmt_shape(self.mesh_shape)}", module)
            self.meshes = {}  # tt-mlir replaces the module's meshes by ["default"=1, "batch"=N]
        if self.mesh_shape is None and self.meshes:
            first = next(iter(self.meshes.values()))
            self.mesh_shape = first.shape or (1,)
        if self.mesh_shape is not None:
            n = math.prod(self.mesh_shape)
            located(module, lambda: check_count(n, MAX_DEVICES, f"the mesh {fmt_shape(self.mesh_shape)}",
                                                      "devices"))
        self.block: Block | None = None
        self.values: dict[SSAValue, SSAValue] = {}
        self.constants: dict[SSAValue, np.ndarray] = {}
        """Source values known at import time (constants, iota and their folds), emitted on first use."""
        self.reversed: dict[SSAValue, Reversed] = {}
        """Source values that are a computed tensor reversed, not yet written (stablehlo_select.py)."""
        self.located_at: Operation | None = None

    # ---- errors, emitting --------------------------------------------------------------------

    def emit(self, cls: type[Operation], operands: Sequence[SSAValue], result_type: Attribute,
             attributes: dict[str, Attribute] | None = None) -> SSAValue:
        """Append a ttir op to the function being written, at the source op's location."""
        op = cls.create(operands=list(operands), result_types=[result_type], attributes=attributes or {})
        if self.located_at is not None:
            op.location = self.located_at.location
        assert self.block is not None
        self.block.add_op(op)
        return op.results[0]

    def value(self, v: SSAValue) -> SSAValue:
        """The ttir value of a source value (a constant is emitted here on its first use)."""
        hit = self.values.get(v)
        if hit is None and v in self.reversed:  # read as a tensor: only a scan or a reverse undoes it
            raise LocatedError(unread_reverse(self.reversed[v]), self.reversed[v].op)
        if hit is None:
            if v not in self.constants:
                raise LocatedError("has an operand that no op above it defines", self.located_at or self.source)
            t = self.check_type(v.type, self.located_at or self.source, "a constant operand")
            vals = self.constants[v]
            if isinstance(v.type, TensorType) and v.type.element_type in NORMALIZED and isinstance(t.element_type, IntegerType):
                info = np.iinfo(np.int32 if t.element_type.signedness.data != Signedness.UNSIGNED else np.uint32)
                vals = np.clip(vals, info.min, info.max)  # tt-mlir saturates a 64-bit constant into 32 bits
            hit = self.values[v] = self.materialize(vals, t)
        return hit

    def materialize(self, values: np.ndarray, t: TensorType) -> SSAValue:
        """A `ttir.constant` of `values` (a splat when they are all equal)."""
        try:
            value = dense_attr(values, t)
        except (OverflowError, struct.error, ValueError) as e:
            raise LocatedError(f"uses a constant that {t} cannot hold ({e})", self.located_at or self.source) from None
        return self.emit(ttir.ConstantOp, [], t, {"value": value})

    # ---- annotations -------------------------------------------------------------------------

    def spec_of(self, attr: Attribute, rank: int, at: Operation) -> ShardingSpec | None:
        """The meshc spec of an `sdy.sharding` / `mhlo.sharding` attribute (None: not one)."""
        body = unregistered_body(attr, "sdy.sharding")
        if body is not None:
            def read():
                sh = parse_sdy_sharding(body)
                mesh = sh.inline_mesh if sh.mesh_ref is None else self.meshes.get(sh.mesh_ref)
                if mesh is None:
                    raise ShardingSyntaxError(f"the sharding names the mesh @{sh.mesh_ref}, which the module "
                                              f"does not declare (sdy.mesh @{sh.mesh_ref} = <[...]>)")
                if len(sh.dims) != rank:
                    raise ShardingSyntaxError(f"the sharding has {len(sh.dims)} dims, the tensor {rank}")
                return sdy_spec(sh, mesh)
            return located(at, read)
        if isinstance(attr, StringAttr):
            if self.mesh_shape is None:
                raise LocatedError("an mhlo.sharding names no mesh axes: give the mesh shape "
                                   "(meshc-import --mesh-shape, or from_jax(..., mesh=))", at)
            mesh_shape = self.mesh_shape
            return located(at, lambda: hlo_spec(attr.data, rank, mesh_shape))
        return None

    def sharding_attr(self, spec: ShardingSpec) -> Attribute:
        return ShardingAttr.from_model(spec)

    def _result_annotation(self, attrs: DictionaryAttr | None, t: Attribute, at: func.FuncOp,
                           i: int) -> DictionaryAttr:
        """A result's: its sharding as `_annotation` reads it; `tt.unconstrained` when JAX left it
        to propagation (no sharding: jit without out_shardings; or Shardy's `[{?}, {?}]`) on a
        mesh of more than one device. A Shardy sharding open in some dims only (`[{"x", ?}, {}]`:
        x at least, the rest free) is a located error: meshc places a result as written or
        leaves it wholly to propagation."""
        d = attrs.data if attrs is not None else {}
        sdy = d.get("sdy.sharding")
        body = unregistered_body(sdy, "sdy.sharding") if sdy is not None else None
        if body is not None:
            sh = located(at, lambda: parse_sdy_sharding(body))
            if sh.unconstrained:
                return self._unconstrained()
            if any(sh.open):
                raise LocatedError(f"result {i} has the sharding #sdy.sharding<{body}>, open (?) in some dims only: "
                                   "meshc leaves a result either as its sharding says (close every dim) or to "
                                   "propagation (every dim open and empty, [{?}, ...], or no sharding)", at)
        elif "mhlo.sharding" not in d:
            return self._unconstrained()
        return self._annotation(attrs, t, at)

    def _unconstrained(self) -> DictionaryAttr:
        if self.mesh_shape is None or math.prod(self.mesh_shape) == 1:
            return DictionaryAttr({})  # one device: nothing to choose
        return DictionaryAttr({UNCONSTRAINED: UnitAttr()})

    def _annotation(self, attrs: DictionaryAttr | None, t: Attribute, at: Operation) -> DictionaryAttr:
        if attrs is None:
            return DictionaryAttr({})
        for key in ("sdy.sharding", "mhlo.sharding"):
            a = attrs.data.get(key)
            if a is not None and isinstance(t, TensorType):
                spec = self.spec_of(a, t.get_num_dims(), at)
                if spec is not None:
                    return DictionaryAttr({"tt.sharding": self.sharding_attr(spec)})
        return DictionaryAttr({})

    def constraint(self, x: SSAValue, spec: ShardingSpec, open_dims: Sequence[int] = ()) -> SSAValue:
        """`"ttir.sharding_constraint"(%x) {sharding = #tt.sharding<...>}`, with `open_dims =
        array<i64: ...>` when some dims are open (propagation may split them further)."""
        cls = getattr(ttir, "ShardingConstraintOp", None)
        if cls is None:  # until the global-view ops land, an op of that name xDSL does not know
            cls = UnregisteredOp.with_name("ttir.sharding_constraint")
        attrs: dict[str, Attribute] = {"sharding": self.sharding_attr(spec)}
        if open_dims:
            attrs["open_dims"] = DenseArrayBase.from_list(i64, list(open_dims))
        return self.emit(cls, [x], x.type, attrs)

    def open_dims_of(self, attr: Attribute | None, at: Operation) -> tuple[int, ...]:
        """The dims a Shardy sharding leaves open (`{?}`, `{"x", ?}`); () for any other."""
        body = unregistered_body(attr, "sdy.sharding") if attr is not None else None
        if body is None:
            return ()
        sh = located(at, lambda: parse_sdy_sharding(body))
        return tuple(d for d, is_open in enumerate(sh.open) if is_open)

    # ---- types -------------------------------------------------------------------------------

    def check_type(self, t: Attribute, at: Operation, what: str, boundary: bool = False) -> TensorType:
        if not isinstance(t, TensorType):
            raise LocatedError(f"{what} has type {t}; meshc imports ranked tensors only", at)
        if any(n < 0 for n in t.get_shape()):
            raise LocatedError(f"{what} has the dynamic shape {t}; meshc imports static shapes only", at)
        if t.element_type == IntegerType(1) and not boundary:
            return TensorType(BOOLEAN_HELD_AS, t.get_shape())  # 1 / 0, as TTNN holds booleans
        if t.element_type in NORMALIZED:
            return TensorType(NORMALIZED[t.element_type], t.get_shape())
        if data_type_name(t.element_type) is None:
            raise LocatedError(f"{what} has element type {t.element_type}, which the device does not hold "
                               "(f32, bf16, f16, i32, ui32, ui16, ui8; i64 and f64 are read as i32 and f32); convert "
                               "it in the program", at)
        return t

    # ---- functions ---------------------------------------------------------------------------

    def entries(self, name: str | None) -> list[func.FuncOp]:
        """The functions to import: the one named, else every public function (tt-mlir makes each
        function of the module a program of its flatbuffer, the public ones the entries; private
        ones are inlined where they are called). meshc-run runs @main, or the first."""
        if name is not None:
            if name not in self.funcs:
                raise LocatedError(f"the module has no function @{name}; it has "
                                   f"{', '.join('@' + n for n in self.funcs) or 'none'}", self.source)
            return [self.funcs[name]]
        public = [f for f in self.funcs.values() if f.sym_visibility is None or f.sym_visibility.data == "public"]
        if not public:
            raise LocatedError("the module has no public function to import", self.source)
        return public

    def translate_module(self, entry: str | None, system: str | None) -> ModuleOp:
        module = ModuleOp([self.translate_function(f) for f in self.entries(entry)])
        module.location = self.source.location
        if self.mesh_shape is not None:
            self.register_device(module, system)
        return module

    def translate_function(self, f: func.FuncOp) -> func.FuncOp:
        self.values, self.located_at, self.reversed = {}, None, {}
        if len(f.body.blocks) != 1:
            raise LocatedError(f"the entry function has {len(f.body.blocks)} blocks; meshc imports a function with "
                               "one", f)
        ftype = f.function_type
        arg_types = [self.check_type(t, f, f"argument {i}", boundary=True) for i, t in enumerate(ftype.inputs.data)]
        res_types = [self.check_type(t, f, f"result {i}", boundary=True) for i, t in enumerate(ftype.outputs.data)]
        block = Block(arg_types=arg_types)
        self.block = block
        src_args = f.body.blocks.first.args  # type: ignore[union-attr]
        for i, (a, b) in enumerate(zip(src_args, block.args)):
            self.values[a] = b
            b.name_hint = a.name_hint or f"arg{i}"  # named as the input names it: %arg0 is the input arg0
        results = self.inline_body(f)
        self.located_at = None
        block.add_op(func.ReturnOp(*results))
        out = func.FuncOp(f.sym_name.data, FunctionType.from_lists(arg_types, res_types), Region(block))
        out.location = f.location
        arg_attrs = f.arg_attrs.data if f.arg_attrs is not None else [None] * len(arg_types)
        res_attrs = f.res_attrs.data if f.res_attrs is not None else [None] * len(res_types)
        annotated_args = [self._annotation(a, t, f) for a, t in zip(arg_attrs, arg_types)]
        annotated_res = [self._result_annotation(a, t, f, i) for i, (a, t) in enumerate(zip(res_attrs, res_types))]
        if self.automatic:
            largest = max([4] + [t.get_num_dims() for t in arg_types])
            annotated_args = self.batch_parallel(arg_types, largest)
            annotated_res = self.batch_parallel(res_types, largest)
        if any(isinstance(o, ttir.MeshShardOp) for o in block.ops):
            # a shard_map's program is SPMD: its mesh_shards place the tensors, and the entry's
            # shardings (how JAX laid the arrays out) say nothing about the values: dropped
            annotated_args = annotated_res = []
        if any(d.data for d in annotated_args):
            out.arg_attrs = ArrayAttr(annotated_args)
        if any(d.data for d in annotated_res):
            out.res_attrs = ArrayAttr(annotated_res)
        return out

    def batch_parallel(self, types: Sequence[TensorType], largest: int) -> list[DictionaryAttr]:
        """tt-mlir's automatic argument analysis (its AnalyzeMesh pass, batch parallelism): every
        argument of the largest argument rank (at least 4) whose dim 0 is not 1 is split along
        dim 0 over the mesh's second axis ("batch"); the others are left to propagation. Results
        of that rank and dim 0 leave from the same split (Shardy leaves them open, and its
        propagation carries the batch split to them); the host receives the whole tensor either
        way, so only the placement follows from this, never a value."""
        assert self.mesh_shape is not None
        mesh = Mesh(self.mesh_shape)
        out = []
        for t in types:
            shape = t.get_shape()
            if t.get_num_dims() == largest and shape[0] != 1:
                spec = ShardingSpec(mesh, ((1,),) + ((),) * (largest - 1))
                out.append(DictionaryAttr({"tt.sharding": self.sharding_attr(spec)}))
            else:
                out.append(DictionaryAttr({}))
        return out

    def register_device(self, module: ModuleOp, system: str | None) -> None:
        assert self.mesh_shape is not None
        n = 1
        for s in self.mesh_shape:
            n *= s
        if system is None:
            fits = [s for s in SYSTEMS if system_desc(s).num_chips >= n]
            if not fits:
                raise LocatedError(f"no known system has the {n} devices of the mesh "
                                   f"{fmt_shape(self.mesh_shape)}", self.source)
            system = min(fits, key=lambda s: system_desc(s).num_chips)
        RegisterDevicePass(system=system, mesh_shape=self.mesh_shape).apply(Context(), module)

    def translate(self, op: Operation) -> None:
        """Translate one source op (the op table, stablehlo_ops.py)."""
        translate_op(self, op)

    def inline_body(self, f: func.FuncOp, call_args: Sequence[SSAValue] = ()) -> list[SSAValue]:
        """Translate a function's body, its arguments bound to the caller's `call_args` (source
        values; constants stay foldable inside); returns the ttir values of its results."""
        return [self.value(v) for v in self.inline_sources(f, call_args)]

    def inline_sources(self, f: func.FuncOp, call_args: Sequence[SSAValue] = ()) -> list[SSAValue]:
        """`inline_body`, returning the source values the function returns (a constant one stays
        known at import)."""
        src = f.body.blocks.first
        assert src is not None
        if len(f.body.blocks) != 1:
            raise LocatedError(f"the function has {len(f.body.blocks)} blocks; meshc imports functions with one", f)
        for a, v in zip(src.args, call_args):
            if v in self.reversed:  # a reverse passed on, for a scan or a reverse inside to undo
                self.reversed[a] = self.reversed[v]
            elif v in self.constants and v not in self.values:
                self.constants[a] = self.constants[v]
            else:
                self.values[a] = self.value(v)
        for op in src.ops:
            self.located_at = op
            if isinstance(op, func.ReturnOp):
                return list(op.arguments)
            if isinstance(op, func.CallOp):
                self.inline_call(op)
                continue
            translate_op(self, op)
        raise LocatedError("the function does not end with func.return", f)

    def inline_call(self, op: func.CallOp) -> None:
        """A `func.call` (in a function or a shard_map's body): the callee's body translated in its
        place, its results bound to the call's."""
        ref = op.properties.get("callee")
        if not isinstance(ref, SymbolRefAttr):
            raise LocatedError("expected a `callee = @name`", op)
        callee = self.funcs.get(ref.root_reference.data)
        if callee is None:
            raise LocatedError(f"calls @{ref.root_reference.data}, which the module does not define", op)
        forget(self, callee.body)  # inlined before (another call, a loop's earlier iteration): start clean
        for r, v in zip(op.results, self.inline_sources(callee, op.arguments)):
            self.values.pop(r, None)
            self.reversed.pop(r, None)
            if v in self.reversed:  # a reversed result, for a reverse after the call to undo
                self.reversed[r] = self.reversed[v]
            elif v in self.constants and v not in self.values:  # still known at import: stays foldable
                self.constants[r] = self.constants[v]
            else:
                self.constants.pop(r, None)
                self.values[r] = self.value(v)


def _diagnostic(e: LocatedError, name: str) -> Diagnostic:
    """`file:line:col: error: 'stablehlo.sort' op ...`, naming the op as the input spells it."""
    where = location_of(e.op)
    text = e.message if e.op is None else f"'{op_name(e.op)}' op {e.message}"
    if where is None:
        return Diagnostic(name, 0, 0, text)
    return Diagnostic(where[0], where[1], where[2], text)


def parse_stablehlo(text: str, name: str) -> ModuleOp:
    """Parse StableHLO text (generic form, or custom syntax through JAX) into xDSL's unregistered ops."""
    generic: GenericModule | None = None
    source = text
    if not is_generic_form(text):
        generic = to_generic(text, name)
        text = generic.text
    module = parse_source(make_context(allow_unregistered=True), text, name)
    if generic is not None:
        stamp_locations(module, generic)
        if not generic.locations or generic.locations[0] is None or generic.locations[0][1] < 1:
            module.location = UnknownLoc()  # the implicit module: placed in the source, not the generic text
            locate_implicit_module(module, source, name)
    return module


_MESHC_DIALECTS = {"tt", "ttir", "ttnn", "ttmetal"}


def _check_is_stablehlo(module: ModuleOp) -> None:
    """A LocatedError at the first op of one of meshc's own dialects: such input is already past
    the importer (a ttir, ttnn or ttmetal program), not StableHLO."""
    for op in module.walk():
        dialect = op_name(op).split(".")[0]
        if dialect in _MESHC_DIALECTS:
            raise LocatedError(f"is {dialect}, not StableHLO: this is a {dialect} program, and meshc-import translates "
                               "StableHLO (as JAX exports it) into ttir; run it with meshc-run or transform it with "
                               "meshc-opt", op)


def annotated(module: ModuleOp) -> bool:
    """Whether any op or function argument / result of `module` carries a Shardy or GSPMD sharding."""
    keys = ("sdy.sharding", "mhlo.sharding", "in_shardings", "sharding")
    for op in module.walk():
        if any(k in op.attributes or k in op.properties for k in keys):
            return True
        if isinstance(op, func.FuncOp):
            for attrs in (op.arg_attrs, op.res_attrs):
                if attrs is not None and any(any(k in d.data for k in keys) for d in attrs.data):
                    return True
    return False


def import_module(module: ModuleOp, name: str = "<input>", mesh_shape: Sequence[int] | None = None,
                  entry: str | None = None, system: str | None = None,
                  automatic_arg_analysis: bool = False) -> ModuleOp:
    """A parsed StableHLO module (unregistered ops) -> a verified ttir module."""
    try:
        _check_is_stablehlo(module)
        out = Importer(module, name, mesh_shape, automatic_arg_analysis).translate_module(entry, system)
    except LocatedError as e:
        raise DiagnosticError([_diagnostic(e, name)]) from None
    verify_or_raise(out, name)
    return out


def import_stablehlo(text: str, name: str = "<input>", mesh_shape: Sequence[int] | None = None,
                     entry: str | None = None, system: str | None = None,
                     automatic_arg_analysis: bool = False) -> ModuleOp:
    """StableHLO text -> a verified global-view ttir module (errors: located DiagnosticError)."""
    return import_module(parse_stablehlo(text, name), name, mesh_shape, entry, system, automatic_arg_analysis)
