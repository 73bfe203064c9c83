"""What a mesh view shows: the blocks of a global tensor and the chips holding each.

`mesh_view(shape, spec, mesh, ...)` asks the placement model (`meshc.layout`) every question
and keeps the answers in a `MeshView`, which the terminal tables (`meshc.viz.mesh_text`) and
the pictures (`meshc.viz.mesh_picture`) draw. Nothing here decides a placement:

* which slice of the tensor a device holds: `ShardingSpec.piece_index` / `local_bounds`
  (`meshc.layout.mesh`, torch.chunk pieces, row-major device order);
* which chip a device is: the program's `#tt.device` chip ids, else
  `meshc.layout.system.mesh_view_chips` on the system the program runs on (as the simulator
  maps them);
* inside a chip, which core or DRAM bank holds which page of the local block: a
  `meshc.layout.placement.Placement` of the local tensor, when its memory layout is known.

A block is one distinct piece of the tensor: devices with the same piece index along every
tensor dim hold the same block (replicas, or addends of a partial sum along the spec's
partial axes). Blocks are numbered B0, B1, ... row-major over their piece indices.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from meshc.layout.errors import LayoutError
from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.sharding_spec import format_spec, parse_spec
from meshc.layout.system import SystemDesc, default_system, mesh_view_chips
from meshc.layout.shapes import fmt_shape


@dataclass(frozen=True)
class Block:
    """One distinct piece of the global tensor."""

    index: int
    """The block's number: its label is B<index>."""
    piece: tuple[int, ...]
    """Piece index along every tensor dim."""
    bounds: tuple[tuple[int, int], ...]
    """Per tensor dim, the [start, stop) of the global tensor it covers."""
    devices: tuple[tuple[int, ...], ...]
    """Mesh coordinates of the devices holding it, in device order."""
    chips: tuple[int, ...]
    """The chip of each of those devices."""

    @property
    def label(self) -> str:
        return f"B{self.index}"

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(b - a for a, b in self.bounds)

    @property
    def is_empty(self) -> bool:
        return any(b <= a for a, b in self.bounds)

    def ranges(self) -> str:
        """The block's slice of the global tensor, numpy style: `[0:32, 0:64]`."""
        return "[" + ", ".join(f"{a}:{b}" for a, b in self.bounds) + "]"


@dataclass
class MeshView:
    """A global tensor over a device mesh, block by block (see the module docstring)."""

    shape: tuple[int, ...]
    spec: ShardingSpec
    chips: tuple[int, ...]
    """Chip id of every device, in device (row-major mesh) order."""
    label: str = ""
    """What the tensor is, e.g. `%x: tensor<64x64xf32>`."""
    dtype: str | None = None
    local: object = None
    """The `Placement` of the local block on one chip (cores / banks), when known."""
    blocks: list[Block] = field(default_factory=list)
    device_block: dict[tuple[int, ...], int] = field(default_factory=dict)
    """Mesh coordinate -> index of the block the device holds."""

    @property
    def mesh(self) -> Mesh:
        return self.spec.mesh

    @property
    def spec_text(self) -> str:
        return format_spec(self.spec, include_mesh=False)

    def pieces(self) -> tuple[int, ...]:
        """Number of pieces along every tensor dim."""
        return tuple(self.spec.num_pieces(d) for d in range(self.spec.rank))

    def chip_of(self, coord: tuple[int, ...]) -> int:
        return self.chips[self.mesh.device_id(coord)]

    def partial_part(self, coord: tuple[int, ...]) -> tuple[int, int] | None:
        """(k, n): the device holds addend k of n along the spec's partial axes; None if not partial."""
        if not self.spec.partial:
            return None
        k, n = 0, 1
        for a in self.spec.partial:
            k, n = k * self.mesh.shape[a] + coord[a], n * self.mesh.shape[a]
        return k, n

    def title(self) -> str:
        t = f"{self.label or 'tensor ' + fmt_shape(self.shape)}  {self.spec_text} on mesh {self.mesh}"
        nrep = self.mesh.size // max(len(self.blocks), 1)
        what = f"{len(self.blocks)} block{'s' if len(self.blocks) != 1 else ''} on {self.mesh.size} devices"
        if self.spec.partial:
            what += f", partial sums over mesh axes {list(self.spec.partial)}"
        elif nrep > 1:
            what += f", each held {nrep} times"
        return f"{t}\n{what}"


def _as_mesh(mesh) -> Mesh:
    if isinstance(mesh, Mesh):
        return mesh
    if isinstance(mesh, int):
        return Mesh((mesh,))
    return Mesh(tuple(int(n) for n in mesh))


def default_chips(mesh_shape: tuple[int, ...], system: SystemDesc | None = None) -> tuple[int, ...]:
    """The chips a program on `mesh_shape` runs on, as the simulator maps them."""
    sysdesc = system if system is not None else default_system(tuple(mesh_shape))
    return tuple(mesh_view_chips(sysdesc, tuple(mesh_shape)))


def mesh_view(shape: Sequence[int], spec: ShardingSpec | str, mesh=None, *, chips: Sequence[int] | None = None,
              system: SystemDesc | None = None, label: str = "", dtype: str | None = None,
              local=None) -> MeshView:
    """The blocks of a `shape` tensor placed by `spec` on `mesh` (a Mesh or a shape tuple), and
    the chips holding each. `chips` (device order) defaults to the simulator's chips for the
    mesh on `system` (default: the smallest named system that holds it)."""
    shape = tuple(int(n) for n in shape)
    if isinstance(spec, ShardingSpec):
        if mesh is not None and _as_mesh(mesh).shape != spec.mesh.shape:
            raise LayoutError(f"spec {format_spec(spec)} is for mesh {spec.mesh}, not {_as_mesh(mesh)}")
    else:
        spec = parse_spec(spec, None if mesh is None else _as_mesh(mesh))
    if len(shape) != spec.rank:
        raise LayoutError(f"sharding spec {format_spec(spec, include_mesh=False)} has {spec.rank} dims but "
                          f"the tensor {fmt_shape(shape)} has rank {len(shape)}")
    m = spec.mesh
    chips = tuple(int(c) for c in chips) if chips is not None else default_chips(m.shape, system)
    if len(chips) != m.size:
        raise LayoutError(f"{len(chips)} chip ids for the {m.size} devices of mesh {m}")
    by_piece: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for coord in m.coords():
        piece = tuple(spec.piece_index(coord, d) for d in range(spec.rank))
        by_piece.setdefault(piece, []).append(coord)
    view = MeshView(shape, spec, chips, label, dtype, local)
    for i, piece in enumerate(sorted(by_piece)):
        devs = by_piece[piece]
        view.blocks.append(Block(i, piece, spec.local_bounds(shape, devs[0]), tuple(devs),
                                 tuple(chips[m.device_id(c)] for c in devs)))
        for c in devs:
            view.device_block[c] = i
    return view


def grid_of(n: int) -> tuple[int, int]:
    """A near-square rows x cols arrangement of n cells (for small multiples and bank rows)."""
    cols = math.ceil(math.sqrt(n))
    return math.ceil(n / cols), cols
