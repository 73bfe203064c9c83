"""tt devices and systems: `#tt.device`, `#tt.arch`, `#tt.chip_desc`, `#tt.system_desc`, each
converting to and from its meshc.layout model (device, system)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IntAttr
from xdsl.ir import Attribute, Data, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from meshc.dialects.syntax import AngleBody, verified
from meshc.dialects.tt.grid import GridAttr
from meshc.dialects.tt.model_cache import cached_model
from meshc.dialects.tt.parsing import (
    int_array,
    parse_dims,
    parse_int_list,
    parse_key,
    print_int_list,
    array_ints,
)
from meshc.layout.device import Device
from meshc.layout.errors import LayoutError
from meshc.layout.system import ChipDesc, SystemDesc, get_arch, system, with_named_facts
from meshc.layout.shapes import fmt_shape


@irdl_attr_definition
class DeviceAttr(ParametrizedAttribute):
    """`#tt.device<workerGrid = #tt.grid<SHAPE, MAP>, meshShape = 2x1x1, chipIds = [0, 1]>`.

    Verified without a system: mesh volume = chip count, unique ids, a 3-result map that is
    injective and whose chip index is in range with non-negative core coordinates. The
    chips' physical grids (and that the ids exist) are checked by `verify_module` against the
    module's `tt.system_desc`, or 8x8 wormhole_b0 chips when the module has none.
    """

    name = "tt.device"

    worker_grid: GridAttr
    mesh_shape: ArrayAttr[IntAttr]
    chip_ids: ArrayAttr[IntAttr]

    def __init__(self, worker_grid: GridAttr, mesh_shape: Sequence[int], chip_ids: Sequence[int]):
        super().__init__(worker_grid, int_array(mesh_shape), int_array(chip_ids))

    @classmethod
    def from_model(cls, device: Device) -> "DeviceAttr":
        return cls(GridAttr(device.grid_shape, device.mapping), device.mesh_shape, device.chip_ids)

    def model(self) -> Device:
        return cached_model(self, self._build_model)

    def _build_model(self) -> Device:
        m = self.worker_grid.affine_map
        if m is None:
            raise VerifyException("the workerGrid of a device needs a map from the logical grid to "
                                  "(chip index, y, x), e.g. #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>")
        return Device(self.worker_grid.grid_shape, m, array_ints(self.mesh_shape), array_ints(self.chip_ids))

    def verify(self) -> None:
        dev = self.model()
        # the chips' grids are the system's: checked by verify_module
        verified(lambda: dev.verify(physical=False))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            parse_key(parser, "workerGrid")
            at = parser.pos
            grid = parser.parse_attribute()
            if not isinstance(grid, GridAttr):
                parser.raise_error("workerGrid must be a #tt.grid<...>", at, parser.pos)
            parser.parse_punctuation(",")
            parse_key(parser, "meshShape")
            mesh = parse_dims(parser, "a mesh shape")
            parser.parse_punctuation(",")
            parse_key(parser, "chipIds")
            ids = parse_int_list(parser)
        return (grid, int_array(mesh), int_array(ids))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<workerGrid = ")
        printer.print_attribute(self.worker_grid)
        printer.print_string(f", meshShape = {fmt_shape(array_ints(self.mesh_shape))}, chipIds = ")
        print_int_list(printer, array_ints(self.chip_ids))
        printer.print_string(">")


# ----------------------------------------------------------------------------- system


def _parse_arch(parser: AttrParser, expected: str) -> str:
    """An architecture name, checked against meshc.layout.system's table; located error if unknown."""
    at = parser.pos
    name = parser.parse_identifier(expected)
    try:
        get_arch(name)
    except LayoutError as e:
        parser.raise_error(str(e), at, parser.pos)
    return name


@irdl_attr_definition
class ArchAttr(AngleBody, Data[str]):
    """`#tt.arch<wormhole_b0>`: a chip architecture (grayskull, wormhole_b0, blackhole)."""

    name = "tt.arch"

    @classmethod
    def parse_body(cls, parser: AttrParser) -> str:
        return _parse_arch(parser, " (an architecture)")

    def verify(self) -> None:
        verified(lambda: get_arch(self.data))


@irdl_attr_definition
class ChipDescAttr(ParametrizedAttribute):
    """`#tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 1499136, dramBanks = 12, dramBankSize = N>`."""

    name = "tt.chip_desc"

    arch: ArchAttr
    grid: ArrayAttr[IntAttr]
    l1_size: IntAttr
    dram_banks: IntAttr
    dram_bank_size: IntAttr

    def __init__(self, arch: str, grid: Sequence[int], l1_size: int, dram_banks: int, dram_bank_size: int):
        super().__init__(ArchAttr(arch), int_array(grid), IntAttr(l1_size), IntAttr(dram_banks), IntAttr(dram_bank_size))

    @property
    def arch_name(self) -> str:
        return self.arch.data

    def verify(self) -> None:
        g = array_ints(self.grid)
        if len(g) != 2 or any(v <= 0 for v in g):
            raise VerifyException(f"a chip's grid must be 2-d with positive sizes, got {fmt_shape(g)}")
        for key, v in (("l1Size", self.l1_size), ("dramBanks", self.dram_banks), ("dramBankSize", self.dram_bank_size)):
            if v.data <= 0:
                raise VerifyException(f"{key} must be positive, got {v.data}")

    def model(self, coord: Sequence[int]) -> ChipDesc:
        g = array_ints(self.grid)
        return ChipDesc(self.arch_name, (g[0], g[1]), self.l1_size.data, self.dram_banks.data,
                        self.dram_bank_size.data, tuple(coord))

    @classmethod
    def from_model(cls, chip: ChipDesc) -> "ChipDescAttr":
        return cls(chip.arch, chip.grid, chip.l1_size, chip.dram_banks, chip.dram_bank_size)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            parse_key(parser, "arch")
            arch = _parse_arch(parser, " (an architecture: grayskull, wormhole_b0 or blackhole)")
            parser.parse_punctuation(",")
            parse_key(parser, "grid")
            grid = parse_dims(parser, "a chip grid")
            values = []
            for key in ("l1Size", "dramBanks", "dramBankSize"):
                parser.parse_punctuation(",")
                parse_key(parser, key)
                values.append(IntAttr(parser.parse_integer(allow_boolean=False, allow_negative=False)))
        return (ArchAttr(arch), int_array(grid), *values)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(
            f"<arch = {self.arch_name}, grid = {fmt_shape(array_ints(self.grid))}, l1Size = {self.l1_size.data}, "
            f"dramBanks = {self.dram_banks.data}, dramBankSize = {self.dram_bank_size.data}>")


@irdl_attr_definition
class SystemDescAttr(ParametrizedAttribute):
    """`#tt.system_desc<meshShape = ..., chipDescs = [...], chipDescIndices = [...], chipCoords = [...], links = [...]>`.

    `chipDescs` lists the distinct kinds of chip; chip i is `chipDescs[chipDescIndices[i]]` at
    `chipCoords[i]` of the chip mesh; `links` are the ethernet links as pairs of chip ids.
    `#tt.system_desc<t3k>` (n150, n300, t3k, galaxy) builds a named wormhole_b0 system.
    """

    name = "tt.system_desc"

    mesh_shape: ArrayAttr[IntAttr]
    chip_descs: ArrayAttr[ChipDescAttr]
    chip_desc_indices: ArrayAttr[IntAttr]
    chip_coords: ArrayAttr[ArrayAttr[IntAttr]]
    links: ArrayAttr[ArrayAttr[IntAttr]]

    @classmethod
    def from_model(cls, sysdesc: SystemDesc) -> "SystemDescAttr":
        kinds: list[ChipDescAttr] = []
        indices: list[int] = []
        for chip in sysdesc.chips:
            a = ChipDescAttr.from_model(chip)
            if a not in kinds:
                kinds.append(a)
            indices.append(kinds.index(a))
        return cls(
            int_array(sysdesc.mesh_shape),
            ArrayAttr(kinds),
            int_array(indices),
            ArrayAttr([int_array(c.coord) for c in sysdesc.chips]),
            ArrayAttr([int_array(link) for link in sysdesc.links]),
        )

    def model(self) -> SystemDesc:
        kinds = list(self.chip_descs.data)
        idx = array_ints(self.chip_desc_indices)
        coords = [array_ints(c) for c in self.chip_coords.data]
        if len(idx) != len(coords):
            raise VerifyException(f"chipDescIndices has {len(idx)} entries but chipCoords has {len(coords)}; "
                                  "both list one entry per chip")
        for i, k in enumerate(idx):
            if not 0 <= k < len(kinds):
                raise VerifyException(f"chip {i} refers to chipDescs[{k}], but there are {len(kinds)} chip descs")
        links = []
        for link in self.links.data:
            pair = array_ints(link)
            if len(pair) != 2:
                raise VerifyException(f"an ethernet link joins two chips, got [{', '.join(map(str, pair))}]")
            links.append((min(pair), max(pair)))
        chips = tuple(kinds[k].model(c) for k, c in zip(idx, coords))
        return verified(lambda: with_named_facts(SystemDesc(chips, tuple(links), array_ints(self.mesh_shape))))

    def verify(self) -> None:
        self.model()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            at = parser.pos
            named = parser.parse_optional_identifier()
            if named is not None and named != "meshShape":
                try:
                    s = system(named)
                except LayoutError as e:
                    parser.raise_error(str(e), at, parser.pos)
                return cls.from_model(s).parameters
            if named is None:
                parse_key(parser, "meshShape")
            else:
                parser.parse_punctuation("=")
            mesh = parse_dims(parser, "a chip mesh shape")
            parser.parse_punctuation(",")
            parse_key(parser, "chipDescs")

            def chip_desc() -> ChipDescAttr:
                p = parser.pos
                a = parser.parse_attribute()
                if not isinstance(a, ChipDescAttr):
                    parser.raise_error("chipDescs lists #tt.chip_desc<...> attributes", p, parser.pos)
                return a

            kinds = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, chip_desc)
            parser.parse_punctuation(",")
            parse_key(parser, "chipDescIndices")
            idx = parse_int_list(parser)
            parser.parse_punctuation(",")
            parse_key(parser, "chipCoords")
            coords = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: int_array(parse_int_list(parser)))
            parser.parse_punctuation(",")
            parse_key(parser, "links")
            links = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: int_array(parse_int_list(parser)))
        return (int_array(mesh), ArrayAttr(kinds), int_array(idx), ArrayAttr(coords), ArrayAttr(links))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<meshShape = {fmt_shape(array_ints(self.mesh_shape))}, chipDescs = [")
        for i, k in enumerate(self.chip_descs.data):
            if i:
                printer.print_string(", ")
            printer.print_attribute(k)
        printer.print_string("], chipDescIndices = ")
        print_int_list(printer, array_ints(self.chip_desc_indices))
        printer.print_string(", chipCoords = [" + ", ".join(
            "[" + ", ".join(map(str, array_ints(c))) + "]" for c in self.chip_coords.data) + "]")
        printer.print_string(", links = [" + ", ".join(
            "[" + ", ".join(map(str, array_ints(c))) + "]" for c in self.links.data) + "]>")
