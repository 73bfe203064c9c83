"""JAX's sharding annotations -> meshc sharding specs (meshc.layout.ShardingSpec).

Two spellings reach the importer, both as attribute text:

* Shardy (`sdy`), JAX's default: a mesh `#sdy.mesh<["x"=2, "y"=2]>` declared by `sdy.mesh @mesh`,
  and shardings `#sdy.sharding<@mesh, [{"x"}, {}]>`: one `{...}` per tensor dim listing the mesh
  axes that split it, major first; `?` (open dim: propagation may split it further) and `pN`
  (priority) are propagation hints and do not change what a dim holds (`SdySharding.open` keeps
  which dims are open: a result open in every dim is unconstrained); `replicated={...}` names
  axes explicitly replicated and `unreduced={...}` axes over which the devices hold partial
  sums. A sub-axis `"x":(1)2` has no meshc spelling and is refused.
* GSPMD (`mhlo.sharding`): HLO sharding strings, `{replicated}`, `{devices=[2,1,2]<=[4]
  last_tile_dim_replicate}`, `{devices=[2,2]<=[2,2]T(1,0)}` or an explicit device list. They
  name no mesh axes, so the importer is told the mesh and finds the spec over it whose devices
  hold exactly the tiles the string lists.

Mesh axis k of the (first) mesh is `S<k>` in meshc's index form: `[{"x"}, {}]` on `["x"=2, "y"=2]`
is `[S0, R]`, `[{"y", "x"}]` is `[S10]`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import permutations, product

import numpy as np

from meshc.layout.errors import LayoutError
from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.shapes import fmt_shape

_TOKEN = re.compile(r'\s*(?:(?P<str>"(?:[^"\\]|\\.)*")|(?P<sym>@[A-Za-z_][\w$.]*)|(?P<int>-?\d+)'
                    r'|(?P<word>[A-Za-z_][\w.]*)|(?P<punct>[\[\]{}(),=<>:?]))')


class ShardingSyntaxError(LayoutError):
    """An annotation the importer cannot read; the message names what was expected."""


def _tokens(text: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise ShardingSyntaxError(f"unexpected '{text[pos:].strip()[:20]}' in '{text}'")
        kind = m.lastgroup
        assert kind is not None
        out.append((kind, m.group(kind)))
        pos = m.end()
    return out


class _Reader:
    def __init__(self, text: str):
        self.text, self.toks, self.i = text, _tokens(text), 0

    def peek(self) -> str | None:
        return self.toks[self.i][1] if self.i < len(self.toks) else None

    def take(self, kind: str | None = None, value: str | None = None) -> str:
        if self.i >= len(self.toks):
            raise ShardingSyntaxError(f"'{self.text}' ends early (expected {value or kind})")
        k, v = self.toks[self.i]
        if (kind and k != kind) or (value and v != value):
            raise ShardingSyntaxError(f"expected {value or kind} in '{self.text}', got '{v}'")
        self.i += 1
        return v

    def accept(self, value: str) -> bool:
        if self.peek() == value:
            self.i += 1
            return True
        return False

    def done(self) -> bool:
        return self.i >= len(self.toks)


# ---- Shardy -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class SdyMesh:
    names: tuple[str, ...]
    shape: tuple[int, ...]

    def mesh(self) -> Mesh:
        return Mesh(self.shape or (1,))


def _read_mesh_body(r: _Reader) -> SdyMesh:
    r.take(value="[")
    names, sizes = [], []
    while not r.accept("]"):
        name = r.take("str")[1:-1]
        if name in names:
            raise ShardingSyntaxError(f"the mesh names axis \"{name}\" twice in '{r.text}'; each mesh axis "
                                      f"has one name, e.g. [\"x\"=2, \"y\"=4]")
        names.append(name)
        r.take(value="=")
        sizes.append(int(r.take("int")))
        r.accept(",")
    if r.accept(","):  # device_ids=[...]: only the default order has a meshc spelling
        key = r.take("word")
        r.take(value="=")
        r.take(value="[")
        ids = []
        while not r.accept("]"):
            ids.append(int(r.take("int")))
            r.accept(",")
        if key == "device_ids" and ids != list(range(len(ids))) and len(ids) > 1:
            raise ShardingSyntaxError(f"a mesh with device_ids={ids} (not in device order) has no meshc spelling")
    return SdyMesh(tuple(names), tuple(sizes))


def parse_sdy_mesh(body: str) -> SdyMesh:
    """`["x"=2, "y"=2]` (the body of `#sdy.mesh<...>`) -> its axis names and sizes."""
    return _read_mesh_body(_Reader(body))


@dataclass(frozen=True)
class SdySharding:
    mesh_ref: str | None
    """`@mesh` without the `@`; None for an inline mesh (then `inline_mesh`)."""
    dims: tuple[tuple[str, ...], ...]
    unreduced: tuple[str, ...] = ()
    inline_mesh: SdyMesh | None = None
    replicated: tuple[str, ...] = ()
    """Axes the sharding names as explicitly replicated: none of them may shard a dim."""
    open: tuple[bool, ...] = ()
    """Per dim, whether it is open (`{?}`, `{"x", ?}`); empty: none is."""

    @property
    def unconstrained(self) -> bool:
        """Open in every dim, naming no axis (`[{?}, {?}]`): the propagation's to choose. A 0-d
        tensor's `[]` is closed (replicated)."""
        return bool(self.dims) and all(self.open) and not any(self.dims) \
            and not self.unreduced and not self.replicated


def _read_axes(r: _Reader, open_dims: list[bool] | None = None) -> list[str]:
    r.take(value="{")
    axes: list[str] = []
    is_open = False
    while not r.accept("}"):
        if r.accept("?"):
            is_open = True
            r.accept(",")
            continue
        name = r.take("str")[1:-1]
        if r.accept(":"):
            raise ShardingSyntaxError(f"sub-axis \"{name}\":(...) splits a mesh axis; meshc specs shard by whole axes")
        axes.append(name)
        r.accept(",")
    if r.peek() is not None and re.fullmatch(r"p\d+", r.peek() or ""):
        r.take("word")  # priority: a propagation hint
    if open_dims is not None:
        open_dims.append(is_open)
    return axes


def parse_sdy_sharding(body: str) -> SdySharding:
    """`@mesh, [{"x"}, {}], replicated={"y"}` (the body of `#sdy.sharding<...>`)."""
    r = _Reader(body)
    inline = None
    ref: str | None = None
    if r.peek() == "mesh":
        r.take("word")
        r.take(value="<")
        inline = _read_mesh_body(r)
        r.take(value=">")
    else:
        ref = r.take("sym")[1:]
    r.take(value=",")
    r.take(value="[")
    dims: list[tuple[str, ...]] = []
    open_dims: list[bool] = []
    while not r.accept("]"):
        dims.append(tuple(_read_axes(r, open_dims)))
        r.accept(",")
    unreduced: list[str] = []
    replicated: list[str] = []
    while r.accept(","):
        key = r.take("word")
        r.take(value="=")
        axes = _read_axes(r)
        if key == "unreduced":
            unreduced += axes
        elif key == "replicated":
            replicated += axes
        else:
            raise ShardingSyntaxError(f"unknown sharding field '{key}' (expected replicated or unreduced)")
    if not r.done():
        raise ShardingSyntaxError(f"unexpected '{r.peek()}' at the end of '{body}'")
    # an axis has one role: it splits one dim, or holds partial sums, or is replicated
    roles: dict[str, str] = {}
    named = [(a, f"shards dim {d}") for d, axes in enumerate(dims) for a in axes]
    named += [(a, "is unreduced") for a in unreduced] + [(a, "is replicated") for a in replicated]
    for a, role in named:
        if a in roles:
            raise ShardingSyntaxError(f"mesh axis \"{a}\" {roles[a]} and {role} in '{body}'; an axis "
                                      f"shards one dim, is unreduced, or is replicated")
        roles[a] = role
    return SdySharding(ref, tuple(dims), tuple(unreduced), inline, tuple(replicated), tuple(open_dims))


def sdy_spec(sharding: SdySharding, mesh: SdyMesh) -> ShardingSpec:
    """The meshc spec of a Shardy sharding over `mesh` (axis k of the mesh is S<k>)."""
    def index(axis: str) -> int:
        if axis not in mesh.names:
            raise ShardingSyntaxError(f"the sharding names axis \"{axis}\", which the mesh "
                                      f"[{', '.join(mesh.names)}] does not have")
        return mesh.names.index(axis)

    dims = tuple(tuple(index(a) for a in d) for d in sharding.dims)
    partial = tuple(index(a) for a in sharding.unreduced)
    return ShardingSpec(mesh.mesh(), dims, partial)


# ---- GSPMD (mhlo.sharding) --------------------------------------------------------------------

_HLO = re.compile(r"^\{\s*devices=\[(?P<tile>[\d,\s]+)\]\s*(?P<assign>[^}]*?)\s*(?P<last>last_tile_dim_replicate)?\s*\}$")
_IOTA = re.compile(r"^<=\[(?P<reshape>[\d,\s]+)\](?:T\((?P<perm>[\d,\s]+)\))?$")


def _ints(text: str) -> list[int]:
    return [int(t) for t in text.replace(" ", "").split(",") if t]


def _tile_assignment(text: str) -> tuple[np.ndarray, bool]:
    """The device array of a `{devices=...}` sharding (tile dims [+ the replicated dim])."""
    m = _HLO.match(text.strip())
    if m is None:
        raise ShardingSyntaxError(f"cannot read the sharding '{text}' (expected {{replicated}} or {{devices=[...]...}})")
    tile = _ints(m.group("tile"))
    assign = m.group("assign").strip()
    iota = _IOTA.match(assign)
    if iota is not None:
        reshape = _ints(iota.group("reshape"))
        perm = _ints(iota.group("perm")) if iota.group("perm") else list(range(len(reshape)))
        devices = np.arange(int(np.prod(reshape))).reshape(reshape).transpose(perm)
    elif re.fullmatch(r"[\d,\s]+", assign):
        devices = np.array(_ints(assign))
    else:
        raise ShardingSyntaxError(f"cannot read the device assignment '{assign}' of '{text}'")
    if devices.size != int(np.prod(tile)):
        raise ShardingSyntaxError(f"'{text}' lists {devices.size} devices for {int(np.prod(tile))} tiles")
    return devices.reshape(tile), m.group("last") is not None


def _spec_devices(spec: ShardingSpec) -> dict[tuple[int, ...], set[int]]:
    """Tile index (one piece index a tensor dim) -> the devices holding that tile."""
    out: dict[tuple[int, ...], set[int]] = {}
    for dev, coord in enumerate(spec.mesh.coords()):
        key = tuple(spec.piece_index(coord, d) for d in range(spec.rank))
        out.setdefault(key, set()).add(dev)
    return out


def hlo_spec(text: str, rank: int, mesh_shape: tuple[int, ...]) -> ShardingSpec:
    """The meshc spec over `mesh_shape` whose devices hold the tiles the HLO sharding lists."""
    mesh = Mesh(mesh_shape)
    t = text.strip()
    if re.fullmatch(r"\{\s*replicated\s*\}", t):
        return ShardingSpec(mesh, tuple(() for _ in range(rank)))
    if "maximal" in t or "manual" in t or "last_tile_dims" in t:
        raise ShardingSyntaxError(f"the sharding '{text}' (maximal or manual) has no meshc spelling")
    devices, last_replicated = _tile_assignment(t)
    tile_rank = devices.ndim - (1 if last_replicated else 0)
    if tile_rank != rank:
        raise ShardingSyntaxError(f"'{text}' tiles {tile_rank} dims, but the tensor has rank {rank}")
    if devices.size != mesh.size:
        raise ShardingSyntaxError(f"'{text}' places the tensor on {devices.size} devices, but the mesh "
                                  f"{fmt_shape(mesh_shape)} has {mesh.size}")
    want: dict[tuple[int, ...], set[int]] = {}
    for idx in np.ndindex(*devices.shape):
        want.setdefault(idx[:tile_rank], set()).add(int(devices[idx]))
    for spec in _candidate_specs(rank, mesh, devices.shape[:tile_rank]):
        if _spec_devices(spec) == want:
            return spec
    raise ShardingSyntaxError(f"no sharding spec over the mesh {fmt_shape(mesh_shape)} puts the "
                              f"tiles of '{text}' on the devices it names")


def _candidate_specs(rank: int, mesh: Mesh, pieces: tuple[int, ...]):
    """Every spec splitting tensor dim d into pieces[d] over whole mesh axes (axis order too)."""
    for owner in product(range(-1, rank), repeat=mesh.rank):
        groups = [[a for a in range(mesh.rank) if owner[a] == d] for d in range(rank)]
        if any(int(np.prod([mesh.shape[a] for a in g])) != pieces[d] for d, g in enumerate(groups)):
            continue
        for orders in product(*[permutations(g) for g in groups]):
            yield ShardingSpec(mesh, tuple(tuple(o) for o in orders))
