"""Sharding-spec text (`[S0, R]`, `[B=2/DP=2, S=2/CP=2, M=2/TP=2]`) and whole-tensor split/gather.

`parse_spec(text, mesh=None) -> ShardingSpec` reads the grammar in `sharding_spec.lark`;
`format_spec(spec) -> str` prints it back (parse_spec(format_spec(s)) == s). Two forms:

* index form (ColossalAI's DTensor doc, Alpa): one entry per tensor dim, `R` (replicated), `S<axes>` with mesh
  axis digits major first (`S0`, `S01`, `S10`), or `S(<axes>)` naming the axes (`S(DP,TP)`,
  `S(0,1)`). The mesh comes from the `mesh=` argument or a trailing `on 2x2` / `on [DP=2, TP=2]`.
* named form (the MoE resharding notes): one entry per tensor dim, `NAME[=size]` followed by `/AXIS[=size]` for
  each mesh axis sharding it, major first: `B=2/DP=2`, `T=8/DP=2/TP=4` (T split over DP, then
  each piece over TP), `E=8` or `E` (replicated). A spec is in the named form as soon as one
  entry has a `=` or a `/` (`[E, B/DP, C=1, M/TP]`: E is a replicated dim). Without `mesh=` or
  `on [...]` the mesh is made of the axes in the order they appear (every one needs its size
  there); axes appearing nowhere need `on [...]`.

* mesh axis names (JAX's PartitionSpec): one entry per tensor dim, the name of the mesh axis
  splitting it (`[data, None]`), a parenthesised list of them, major first (`[(data, model), R]`),
  or `None` / `R` (replicated), over a mesh that names its axes (`mesh=Mesh(..., names)` or
  `on [data=2, model=4]`). A spec with no `=` and no `/` whose bare names are not all axes of
  such a mesh is refused (it was read as replicated named dims, `[data, R]` as `[R, R]`): the
  error shows the accepted forms. In the named form (some `=` or `/`) a bare name is a
  replicated tensor dim, and one that is also a mesh axis's name is refused as ambiguous.

Partial sums: a trailing `P(<axes>)` (`P(1)`, `P(0,1)`, `P(TP)`) or `P<digits>` (`P1`): the
devices along those mesh axes hold addends of the tensor; the tensor is their sum.

`from_global(tensor, spec)` splits a tensor into per-device pieces and `to_global(shards, spec)`
gathers them back (summing over partial axes); both are numpy slicing, one slice per device.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from importlib import resources

import numpy as np
from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from meshc.layout.errors import LayoutError
from meshc.layout.mesh import Mesh, ShardingSpec, UnboundMesh
from meshc.layout.shapes import fmt_shape

_INDEX_SHARD = re.compile(r"S([0-9]+)$")
_INDEX_PARTIAL = re.compile(r"P([0-9]+)$")


@lru_cache(maxsize=1)
def _parser() -> Lark:
    # cache=True: lark keeps the built LALR tables in the temp dir (keyed by the grammar, the
    # options and lark's version) and reloads them, rather than rebuilding them in every process
    grammar = resources.files("meshc.layout").joinpath("sharding_spec.lark").read_text()
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=False, cache=True)


class _SpecError(Exception):
    def __init__(self, column: int, message: str):
        super().__init__(message)
        self.column = column
        self.message = message


def _err(tok, message: str) -> _SpecError:
    col = getattr(tok, "column", None)
    if col is None and hasattr(tok, "meta"):
        col = getattr(tok.meta, "column", None)
    return _SpecError(col or 1, message)


# ---- reading ---------------------------------------------------------------------------------

class _Axis:
    """A reference to a mesh axis: by name (with an optional size) or by index."""

    def __init__(self, tok: Token, name: str | None, index: int | None, size: int | None):
        self.tok, self.name, self.index, self.size = tok, name, index, size


class _Dim:
    def __init__(self, tok: Token, kind: str, name: str, size: int | None, axes: list[_Axis]):
        self.tok, self.kind, self.name, self.size, self.axes = tok, kind, name, size, axes


def _int_size(tok: Token) -> int:
    if "x" in tok:
        raise _err(tok, f"a size is one integer, got '{tok}'")
    n = int(tok)
    if n < 1:
        raise _err(tok, f"a size must be at least 1, got {n}")
    return n


@v_args(inline=True)
class _Build(Transformer):
    def size(self, tok):
        return _int_size(tok)

    def axis(self, name, size=None):
        return _Axis(name, str(name), None, size)

    def axis_index(self, tok):
        if "x" in tok:
            raise _err(tok, f"expected a mesh axis (a name or an index), got '{tok}'")
        return _Axis(tok, None, int(tok), None)

    def plain_dim(self, name, *rest):
        size = None
        axes = []
        for r in rest:
            if isinstance(r, _Axis):
                axes.append(r)
            else:
                size = r
        return _Dim(name, "plain", str(name), size, axes)

    def paren_dim(self, name, *axes):
        return _Dim(name, "paren", str(name), None, list(axes))

    def tuple_dim(self, *axes):
        return _Dim(axes[0].tok, "tuple", "(", None, list(axes))

    def partial(self, name, *axes):
        return ("partial", name, list(axes))

    def mesh_dims(self, tok):
        return ("mesh", tok, Mesh(tuple(int(n) for n in str(tok).split("x"))), None)

    def mesh_named(self, *axes):
        for a in axes:
            if a.size is None:
                raise _err(a.tok, f"mesh axis '{a.name}' needs a size in `on [...]`, e.g. {a.name}=2")
        names = [a.name for a in axes]
        for i, a in enumerate(axes):
            if a.name in names[:i]:
                raise _err(a.tok, f"mesh axis '{a.name}' appears twice in `on [...]`")
        return ("mesh", axes[0].tok, Mesh(tuple(a.size for a in axes), tuple(names)), axes)

    def start(self, *items):
        return list(items)


def _is_index_word(name: str) -> bool:
    """R, None, S and S<digits> are the index form's words; any other bare name is a mesh axis
    name (or, in the named form, a tensor dim's)."""
    return name in ("R", "S", "None") or bool(_INDEX_SHARD.match(name))


def _is_bare(d: _Dim) -> bool:
    return d.kind == "plain" and d.size is None and not d.axes


_FORMS = ("accepted forms: the index form [S0, R] or [S(0), R]; mesh axis names as in JAX's PartitionSpec, "
          "[data, None] or [(data, model), R], over a mesh that names its axes ([data, R] on [data=2, model=4]; "
          "in a #tt.sharding: mesh = [data=2, model=4]); the named form [B=8/data=2, M=4]")


def _bare_axis_error(d: _Dim, mesh: Mesh | None) -> _SpecError:
    """A bare name the mesh does not name: never read as a replicated dim (it would be a guess)."""
    if mesh is None:
        where = "the spec names no mesh"
    elif isinstance(mesh, UnboundMesh) or not mesh.names:
        where = ("the module's mesh does not name its axes" if isinstance(mesh, UnboundMesh)
                 else f"the mesh {fmt_shape(mesh.shape)} does not name its axes")
    else:
        where = f"the mesh {mesh} has no axis named '{d.name}'"
    return _err(d.tok, f"'{d.name}' would shard this dim over a mesh axis of that name, but {where}; {_FORMS}")


def _digits_axes(tok: Token, digits: str) -> list[_Axis]:
    return [_Axis(tok, None, int(c), None) for c in digits]


def parse_spec(text: str, mesh: Mesh | Sequence[int] | None = None) -> ShardingSpec:
    """Read a sharding spec; `mesh` (a Mesh or a shape) supplies or checks the device mesh."""
    if isinstance(text, ShardingSpec):
        return text
    if mesh is not None and not isinstance(mesh, Mesh):
        mesh = Mesh(tuple(mesh))
    try:
        tree = _parser().parse(text)
        items = _Build().transform(tree)
        return _interpret(items, mesh, text)
    except VisitError as e:
        if isinstance(e.orig_exc, _SpecError):
            raise _located(text, e.orig_exc.column, e.orig_exc.message) from None
        if isinstance(e.orig_exc, LayoutError):
            raise _located(text, 1, str(e.orig_exc)) from None
        raise
    except _SpecError as e:
        raise _located(text, e.column, e.message) from None
    except UnexpectedInput as e:
        at_end = isinstance(e, UnexpectedEOF) or (isinstance(e, UnexpectedToken) and e.token.type == "$END")
        column = len(text) + 1 if at_end else (getattr(e, "column", None) or 1)
        raise _located(text, column, _describe(e)) from None


def parse_spec_unbound(text: str) -> ShardingSpec:
    """`parse_spec`, but an index-form spec naming no mesh (`[S0, R]`) is kept over an
    `UnboundMesh` (axes as indices, sizes unknown) for `bind_spec` to put on a mesh later."""
    try:
        return parse_spec(text)
    except SpecSyntaxError as e:
        if "names no mesh" not in e.reason:
            raise
    spec = parse_spec(text, UnboundMesh((1,) * 10))
    used = [a for d in spec.dims for a in d] + list(spec.partial)
    return ShardingSpec(UnboundMesh((1,) * (max(used, default=0) + 1)), spec.dims, spec.partial)


class SpecSyntaxError(LayoutError):
    """A spec text that does not read; `column` (1-based) and `reason` locate it for tools."""

    def __init__(self, text: str, column: int, reason: str):
        super().__init__(f"sharding spec '{text}' at column {column}: {reason}")
        self.text, self.column, self.reason = text, column, reason


def _located(text: str, column: int, message: str) -> LayoutError:
    return SpecSyntaxError(text, column, message)


def _describe(e: UnexpectedInput) -> str:
    nice = {"LSQB": "'['", "RSQB": "']'", "COMMA": "','", "LPAR": "'('", "RPAR": "')'", "SLASH": "'/'",
            "EQUAL": "'='", "NAME": "a name", "DIMS": "a number", "ON": "'on'", "$END": "the end"}

    def expected(names) -> str:
        words = sorted({nice.get(n, n) for n in names})
        return " or ".join(words) if words else "something else"

    if isinstance(e, UnexpectedToken):
        got = "end of text" if e.token.type == "$END" else f"'{e.token}'"
        return f"unexpected {got}, expected {expected(e.accepts or e.expected)}"
    if isinstance(e, UnexpectedCharacters):
        return f"unexpected character '{e.char}', expected {expected(e.allowed or [])}"
    if isinstance(e, UnexpectedEOF):
        return f"unexpected end of text, expected {expected(e.expected)}"
    return str(e)


def _interpret(items: list, mesh: Mesh | None, text: str) -> ShardingSpec:
    dims: list[_Dim] = [i for i in items if isinstance(i, _Dim)]
    partial = next((i for i in items if isinstance(i, tuple) and i[0] == "partial"), None)
    clause = next((i for i in items if isinstance(i, tuple) and i[0] == "mesh"), None)

    # the named form has a `=` or a `/`; bare names without either are mesh axis names (JAX's form)
    named = any(d.kind == "plain" and (d.size is not None or d.axes) for d in dims)
    given = clause[2] if clause is not None else mesh
    axis_names = set(given.names) if given is not None and not isinstance(given, UnboundMesh) else set()
    if named:
        for d in dims:
            if _is_bare(d) and d.name in axis_names:
                raise _err(d.tok, f"'{d.name}' is a mesh axis, but in the named form (NAME=size/AXIS) a bare entry "
                                  f"is a replicated tensor dim: write the dim as NAME/{d.name} to shard it over "
                                  f"'{d.name}', or give the dim another name")
    dim_axes: list[list[_Axis]] = []
    for d in dims:
        if not named and _is_bare(d) and not _is_index_word(d.name) and not _is_index_word(d.name.upper()):
            if d.name not in axis_names:
                raise _bare_axis_error(d, given)
            dim_axes.append([_Axis(d.tok, d.name, None, None)])
            continue
        if d.kind == "tuple":
            if named:
                raise _err(d.tok, "'(axes)' is the mesh-axis-name form; in the named form write NAME/AXIS/AXIS")
            dim_axes.append(d.axes)
            continue
        if not named and _is_bare(d) and d.name == "None":
            dim_axes.append([])
            continue
        if d.kind == "plain" and d.name == "S" and d.size is None and not d.axes:
            raise _err(d.tok, "S needs the mesh axes it shards over (S0, S01, S(TP)); "
                              "a dim named S needs =size or /AXIS")
        if d.kind == "plain" and d.size is None and not d.axes and not _is_index_word(d.name) \
                and _is_index_word(d.name.upper()):
            raise _err(d.tok, f"'{d.name}' looks like the index form, whose words are upper case: write "
                              f"{d.name.upper()} (a named dim needs =size or /AXIS, e.g. {d.name}=4)")
        if named:
            if d.kind == "paren":
                raise _err(d.tok, f"'{d.name}(...)' is the index form; in the named form write {d.name}/AXIS")
            if d.size is None and not d.axes and _INDEX_SHARD.match(d.name):
                raise _err(d.tok, f"'{d.name}' is the index form, but this spec is in the named form "
                                  f"(NAME=size/AXIS); write the dim as NAME/AXIS, e.g. X/TP")
            dim_axes.append(d.axes)
        elif d.kind == "paren":
            if d.name != "S":
                raise _err(d.tok, f"expected S(<mesh axes>), got '{d.name}(...)'")
            dim_axes.append(d.axes)
        elif d.name == "R":
            dim_axes.append([])
        elif m := _INDEX_SHARD.match(d.name):
            dim_axes.append(_digits_axes(d.tok, m.group(1)))

    partial_axes: list[_Axis] = []
    if partial is not None:
        _, ptok, paxes = partial
        if paxes:
            if str(ptok) != "P":
                raise _err(ptok, f"expected P(<mesh axes>) for partial sums, got '{ptok}(...)'")
            partial_axes = paxes
        elif m := _INDEX_PARTIAL.match(str(ptok)):
            partial_axes = _digits_axes(ptok, m.group(1))
        else:
            raise _err(ptok, f"expected P<axes> or P(<axes>) (partial sums) or 'on' after ']', got '{ptok}'")

    # the mesh: argument, `on ...` clause, or the named axes in order of appearance
    refs = [a for axs in dim_axes for a in axs] + partial_axes
    if clause is not None:
        cmesh = clause[2]
        if mesh is not None and mesh != cmesh and not (mesh.shape == cmesh.shape and not mesh.names):
            raise _err(clause[1], f"the spec's mesh {cmesh} differs from the mesh given, {mesh}")
        mesh = cmesh
    if mesh is None:
        if not refs or any(a.name is None for a in refs):
            raise _SpecError(1, "the spec names no mesh: pass mesh=, or end it with `on 2x2` or `on [DP=2, TP=2]`")
        order: list[str] = []
        sizes: dict[str, int] = {}
        for a in refs:
            if a.size is None:
                raise _err(a.tok, f"mesh axis '{a.name}' has no size: write {a.name}=<n> or give the mesh")
            if a.name in sizes and sizes[a.name] != a.size:
                raise _err(a.tok, f"mesh axis '{a.name}' has size {sizes[a.name]} and {a.size}")
            if a.name not in sizes:
                order.append(a.name)
                sizes[a.name] = a.size
        mesh = Mesh(tuple(sizes[n] for n in order), tuple(order))

    def resolve(a: _Axis) -> int:
        if a.name is None:
            if not 0 <= a.index < mesh.rank:
                raise _err(a.tok, f"mesh axis {a.index} is out of range for the {mesh.rank}-d mesh {mesh}")
            return a.index
        if a.name not in mesh.names:
            have = list(mesh.names) if mesh.names else f"unnamed axes 0..{mesh.rank - 1}"
            raise _err(a.tok, f"the mesh has no axis named '{a.name}'; its axes are {have}")
        i = mesh.names.index(a.name)
        if a.size is not None and a.size != mesh.shape[i]:
            raise _err(a.tok, f"mesh axis '{a.name}' has {mesh.shape[i]} devices, the spec says {a.size}")
        return i

    seen: dict[int, _Axis] = {}
    for a in refs:
        i = resolve(a)
        if i in seen:
            raise _err(a.tok, f"mesh axis {mesh.names[i] if mesh.names else i} is used more than once")
        seen[i] = a
    return ShardingSpec(
        mesh,
        tuple(tuple(resolve(a) for a in axs) for axs in dim_axes),
        tuple(resolve(a) for a in partial_axes),
        dim_names=tuple(d.name for d in dims) if named else (),
        dim_sizes=tuple(d.size for d in dims) if named else (),
    )


# ---- printing --------------------------------------------------------------------------------

def _mesh_text(mesh: Mesh) -> str:
    if mesh.names:
        return "[" + ", ".join(f"{n}={s}" for n, s in zip(mesh.names, mesh.shape)) + "]"
    return fmt_shape(mesh.shape)


def format_spec(spec: ShardingSpec, include_mesh: bool = True) -> str:
    """Print a spec so that parse_spec reads it back equal; `include_mesh=False` drops `on ...`."""
    mesh = spec.mesh
    # the named form needs a `=` or a `/` to read back as one (bare names alone are mesh axes)
    readable_as_named = spec.dim_names and (any(spec.dims) or any(n is not None for n in spec.dim_sizes))
    if readable_as_named and mesh.names:
        def dim(i: int) -> str:
            t = spec.dim_names[i]
            if spec.dim_sizes and spec.dim_sizes[i] is not None:
                t += f"={spec.dim_sizes[i]}"
            return t + "".join(f"/{mesh.names[a]}={mesh.shape[a]}" for a in spec.dims[i])

        text = "[" + ", ".join(dim(i) for i in range(spec.rank)) + "]"
        if spec.partial:
            text += " P(" + ", ".join(f"{mesh.names[a]}={mesh.shape[a]}" for a in spec.partial) + ")"
        appearance = [a for d in spec.dims for a in d] + list(spec.partial)
        if include_mesh and appearance != list(range(mesh.rank)):
            text += " on " + _mesh_text(mesh)
        return text

    def ax(a: int) -> str:
        return mesh.names[a] if mesh.names else str(a)

    def one(d: tuple[int, ...]) -> str:
        if not d:
            return "R"
        if mesh.names or mesh.rank > 10:
            return "S(" + ", ".join(ax(a) for a in d) + ")"
        return "S" + "".join(str(a) for a in d)

    text = "[" + ", ".join(one(d) for d in spec.dims) + "]"
    if spec.partial:
        text += " P(" + ", ".join(ax(a) for a in spec.partial) + ")"
    if include_mesh and not isinstance(mesh, UnboundMesh):
        text += " on " + _mesh_text(mesh)
    return text


# ---- split and gather ------------------------------------------------------------------------

def _as_spec(spec: ShardingSpec | str, mesh=None) -> ShardingSpec:
    return spec if isinstance(spec, ShardingSpec) else parse_spec(spec, mesh)


def _check_declared(spec: ShardingSpec, shape: tuple[int, ...]) -> None:
    if len(shape) != spec.rank:
        raise LayoutError(f"sharding spec {format_spec(spec)} has {spec.rank} dims but the tensor has rank "
                          f"{len(shape)} {tuple(shape)}")
    for i, n in enumerate(spec.dim_sizes):
        if n is not None and shape[i] != n:
            name = spec.dim_names[i] if spec.dim_names else str(i)
            raise LayoutError(f"sharding spec {format_spec(spec)} declares dim {name} of size {n}, "
                              f"the tensor has {shape[i]} {tuple(shape)}")


def from_global(tensor: np.ndarray, spec: ShardingSpec | str, mesh=None, copy: bool = True
                ) -> dict[tuple[int, ...], np.ndarray]:
    """Split a global tensor into {device coord: piece} (torch.chunk pieces, replicas repeated).

    For a spec with partial axes, the device at index 0 of every partial axis holds the tensor's
    piece and the others hold zeros (one valid decomposition into addends). `copy=False` returns
    read-only views instead of copies.
    """
    spec = _as_spec(spec, mesh)
    tensor = np.asarray(tensor)
    shape = tuple(tensor.shape)
    _check_declared(spec, shape)
    out: dict[tuple[int, ...], np.ndarray] = {}
    for coord in spec.mesh.coords():
        piece = tensor[spec.local_slices(shape, coord)]
        if spec.partial and any(coord[a] for a in spec.partial):
            piece = np.zeros_like(piece)
        elif copy:
            piece = piece.copy()
        else:
            piece = piece.view()
            piece.flags.writeable = False
        out[coord] = piece
    return out


def _shard_dict(shards, mesh: Mesh) -> dict[tuple[int, ...], np.ndarray]:
    if isinstance(shards, Mapping):
        got = {tuple(int(i) for i in k): v for k, v in shards.items()}
    else:
        shards = list(shards)
        if len(shards) != mesh.size:
            raise LayoutError(f"got {len(shards)} shards for the {mesh.size} devices of mesh {mesh}")
        got = dict(zip(mesh.coords(), shards))
    missing = [c for c in mesh.coords() if c not in got]
    extra = [c for c in got if c not in set(mesh.coords())]
    if missing or extra:
        raise LayoutError(f"shards do not match mesh {mesh}: missing devices {missing}, unknown devices {extra}")
    return {c: np.asarray(v) for c, v in got.items()}


def global_shape_of(shards, spec: ShardingSpec | str, mesh=None) -> tuple[int, ...]:
    """The global shape the pieces add up to (the sum of the piece sizes along every dim)."""
    spec = _as_spec(spec, mesh)
    shards = _shard_dict(shards, spec.mesh)
    shape = []
    for d in range(spec.rank):
        sizes: dict[int, int] = {}
        for coord, s in shards.items():
            if s.ndim != spec.rank:
                raise LayoutError(f"the shard of device {coord} has rank {s.ndim}, the spec {format_spec(spec)} "
                                  f"has {spec.rank} dims")
            p = spec.piece_index(coord, d)
            if sizes.setdefault(p, s.shape[d]) != s.shape[d]:
                raise LayoutError(f"devices holding piece {p} of dim {d} disagree on its size "
                                  f"({sizes[p]} vs {s.shape[d]} at device {coord})")
        shape.append(sum(sizes.values()))
    return tuple(shape)


def to_global(shards, spec: ShardingSpec | str, shape: Sequence[int] | None = None, mesh=None) -> np.ndarray:
    """Gather {device coord: piece} (or a list in device-id order) back into the global tensor.

    Replicas are read once (the device at index 0 of each replicated axis); pieces along partial
    axes are summed. `shape` defaults to what the pieces add up to; every piece must have exactly
    the shape the spec gives its device.
    """
    spec = _as_spec(spec, mesh)
    shards = _shard_dict(shards, spec.mesh)
    shape = tuple(int(n) for n in shape) if shape is not None else global_shape_of(shards, spec)
    _check_declared(spec, shape)
    dtype = np.result_type(*[s.dtype for s in shards.values()])
    out = np.zeros(shape, dtype=dtype) if spec.partial else np.empty(shape, dtype=dtype)
    replicated = spec.replicated_axes()
    for coord, piece in shards.items():
        if any(coord[a] for a in replicated):
            continue
        want = spec.local_shape(shape, coord)
        if piece.shape != want:
            raise LayoutError(f"the shard of device {coord} has shape {piece.shape}, the spec "
                              f"{format_spec(spec)} gives it {want} of the global {shape}")
        sl = spec.local_slices(shape, coord)
        if spec.partial:
            out[sl] += piece
        else:
            out[sl] = piece
    return out
