"""tt dialect attributes: conversion to and from the layout models, module helpers, type checks."""

import pytest
from xdsl.dialects.builtin import Float32Type, ModuleOp, TensorType
from xdsl.utils.exceptions import VerifyException

from meshc.errors import LocatedError
from meshc.dialects.tt import (
    DeviceAttr,
    GridAttr,
    MetalLayoutAttr,
    SystemDescAttr,
    TileType,
    check_tensor_layout,
    module_device,
    module_system,
    set_module_device,
    verify_module,
)
from meshc.driver import make_context, parse_source, print_module
from meshc.layout import build_metal_layout, derive_device
from meshc.layout.metal_layout import Tile
from meshc.layout.system import mesh_system, system


def _round_trip(module: ModuleOp) -> ModuleOp:
    return parse_source(make_context(), print_module(module), "<test>")


@pytest.mark.parametrize("mesh, ids", [(1, None), ((2, 1, 1), None), ((1, 2), None), ((2, 4), None),
                                       ((2, 2), [4, 5, 6, 7]), ((3, 3, 1), None)])
def test_device_attr_model_round_trip(mesh, ids):
    dev = derive_device(mesh, chip_ids=ids)
    attr = DeviceAttr.from_model(dev)
    assert attr.model() == dev
    module = ModuleOp([], attributes={"tt.device": attr})
    assert module_device(_round_trip(module)) == dev


@pytest.mark.parametrize("name", ["n150", "n300", "t3k", "galaxy"])
def test_system_desc_attr_model_round_trip(name):
    s = system(name)
    attr = SystemDescAttr.from_model(s)
    assert len(attr.chip_descs.data) == 1  # one kind of chip, listed once
    assert attr.model() == s
    module = ModuleOp([], attributes={"tt.system_desc": attr})
    assert module_system(_round_trip(module)) == s


def test_metal_layout_attr_model_round_trip():
    for lay in [
        build_metal_layout((2, 3, 64, 128), (2, 4)),
        build_metal_layout((2, 3, 64, 128), (2, 4), tile=(32, 32), dtype="bfp_bf8"),
        build_metal_layout((100, 64), (3, 1), memory_space="dram", dtype="u16", oob="zero"),
        build_metal_layout((64, 64), (2, 2), dtype="si32", tile=(16, 32)),
    ]:
        attr = MetalLayoutAttr.from_model(lay)
        assert attr.model() == lay


def test_tile_type_model():
    t = TileType((32, 32), "bfp_bf8")
    assert t.model() == Tile((32, 32), "bfp_bf8")
    with pytest.raises(VerifyException, match="tile shape 32x8 is not supported"):
        TileType((32, 8), "bf16")


def test_device_attr_verifies_on_construction():
    with pytest.raises(VerifyException, match="chipIds has 1 chips, but meshShape 1x2 needs 2"):
        DeviceAttr(GridAttr((8, 16), "(d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)"), (1, 2), (0,))


def test_verify_module_checks_the_device_against_the_system():
    dev = derive_device((2, 4))
    module = ModuleOp([], attributes={"tt.device": DeviceAttr.from_model(dev),
                                      "tt.system_desc": SystemDescAttr.from_model(system("n300"))})
    with pytest.raises(LocatedError, match="not a legal device on the module's #tt.system_desc: chip id 2 is not in "
                                           "the system, which has 2 chips"):
        verify_module(module)
    module.attributes["tt.system_desc"] = SystemDescAttr.from_model(system("t3k"))
    verify_module(module)


def test_verify_module_without_a_system_uses_8x8_chips():
    # a 9x9 single-chip grid is legal on its own but not on 8x8 chips
    attr = DeviceAttr(GridAttr((9, 9), "(d0, d1) -> (0, d0, d1)"), (1,), (0,))
    module = ModuleOp([], attributes={"tt.device": attr})
    with pytest.raises(LocatedError, match=r"on 8x8 chips \(no tt.system_desc\): logical core \(0, 8\) maps to core "
                                           r"\(0, 8\) of chip 0, outside its 8x8 grid"):
        verify_module(module)


def test_set_module_device():
    module = ModuleOp([])
    s = mesh_system((2, 2))
    dev = derive_device((2, 2), system=s)
    set_module_device(module, dev, s)
    assert module_device(module) == dev and module_system(module) == s
    with pytest.raises(LocatedError, match="chip id 4 is not in the system"):
        set_module_device(module, derive_device((2, 4)))


def test_module_attribute_of_the_wrong_kind():
    module = ModuleOp([], attributes={"tt.device": GridAttr((8, 8))})
    with pytest.raises(LocatedError, match="module attribute 'tt.device' must be a #tt.device"):
        module_device(module)
    assert module_system(module) is None


def test_type_checker():
    lay = MetalLayoutAttr.from_model(build_metal_layout((64, 64), (2, 2)))
    check_tensor_layout(TensorType(Float32Type(), (64, 64), lay))
    check_tensor_layout(TensorType(Float32Type(), (64, 64)))  # no encoding: nothing to check
    with pytest.raises(VerifyException, match="tensor<65x64xf32> does not match its #tt.metal_layout"):
        check_tensor_layout(TensorType(Float32Type(), (65, 64), lay))



_TEXTS = [
    "func.func private @f() attributes {d = #tt.device<workerGrid = #tt.grid<2x8x16, (d0, d1, d2) -> (d0 * 2 + "
    "(d1 floordiv 8) * 2 + d2 floordiv 8, d1, d2 mod 8)>, meshShape = 2x1x2, chipIds = [0, 1, 2, 3]>}",
    "func.func @g(%arg0: tensor<16x3x64x128xf32, #tt.metal_layout<(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3), "
    "undef, <2x2x4>, memref<8x3x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>) {\n  func.return\n}",
    "module attributes {tt.system_desc = #tt.system_desc<meshShape = 1x2, chipDescs = [#tt.chip_desc<arch = "
    "wormhole_b0, grid = 8x8, l1Size = 1499136, dramBanks = 12, dramBankSize = 1073741824>], chipDescIndices = "
    "[0, 0], chipCoords = [[0, 0], [0, 1]], links = [[0, 1]]>} {\n}",
]


@pytest.mark.parametrize("text", _TEXTS)
def test_malformed_tt_text_is_a_located_error_never_a_crash(text):
    """Every truncation and every one-character deletion parses or fails with a located diagnostic."""
    from meshc.errors import DiagnosticError
    from meshc.driver import verify_or_raise

    ctx = make_context()
    for i in range(len(text)):
        for case in (text[:i], text[:i] + text[i + 1 :]):
            try:
                verify_or_raise(parse_source(ctx, case, "<case>"), "<case>")
            except DiagnosticError as e:
                assert all(d.line >= 1 for d in e.diagnostics), (case, e)
