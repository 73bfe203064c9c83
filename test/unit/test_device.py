"""Devices: derivation from mesh shapes (docs/design.md, tt-mlir's Device spec), locate / inverse, verification."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meshc.layout import derive_device
from meshc.layout.system import system
from meshc.layout.affine import grid_points, maps_equal_on_grid
from meshc.layout.device import Device
from meshc.layout.errors import LayoutError

# mesh shape -> (grid, map) as docs/design.md lists them, text for text
DESIGN_DEVICES = {
    (2, 1, 1): ((2, 8, 8), "(d0, d1, d2) -> (d0, d1, d2)"),
    (1, 2): ((8, 16), "(d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)"),
    (2, 4): ((16, 32), "(d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)"),
}


@pytest.mark.parametrize("mesh", list(DESIGN_DEVICES))
def test_derived_devices_match_design(mesh):
    grid, text = DESIGN_DEVICES[mesh]
    dev = derive_device(mesh)
    assert dev.grid_shape == grid
    assert str(dev.mapping) == text
    assert dev.chip_ids == tuple(range(int(np.prod(mesh))))


# mesh shape, chip ids -> grid and map of tt-mlir's Device spec (compared by evaluating every grid point)
SEED_DEVICES = [
    (1, None, (8, 8), "(d0, d1) -> (0, d0, d1)"),
    ((2, 1, 1), None, (2, 8, 8), "(d0, d1, d2) -> (d0, d1, d2)"),
    ((1, 2), None, (8, 16), "(d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0, d1 mod 8)"),
    ((2, 1, 2), None, (2, 8, 16), "(d0, d1, d2) -> (d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1, d2 mod 8)"),
    ((2, 2), [4, 5, 6, 7], (16, 16), "(d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)"),
]


@pytest.mark.parametrize("mesh, ids, grid, seed_map", SEED_DEVICES)
def test_derived_devices_match_seed_by_evaluation(mesh, ids, grid, seed_map):
    dev = derive_device(mesh, chip_ids=ids)
    assert dev.grid_shape == grid
    assert maps_equal_on_grid(dev.mapping, seed_map, grid)
    if ids is not None:
        assert dev.chip_ids == tuple(ids)


def test_single_chip_prints_as_the_seed():
    dev = derive_device(1)
    assert dev.mesh_shape == (1,) and dev.chip_ids == (0,)
    assert str(dev.mapping) == "(d0, d1) -> (0, d0, d1)"


@pytest.mark.parametrize(
    "mesh, core, expected",
    [
        # t3k 2x4: core (9, 17) is in mesh row 9 // 8 = 1, column 17 // 8 = 2 -> chip 1*4 + 2 = 6, at (1, 1)
        ((2, 4), (9, 17), (6, 1, 1)),
        # 4x2: grid 32x16; core (20, 9) -> mesh (2, 1) -> chip 2*2 + 1 = 5, at (4, 1)
        ((4, 2), (20, 9), (5, 4, 1)),
        # 3x3x1: grid 3x24x8; core (2, 17, 5) -> mesh (2, 2, 0) -> chip 2*3 + 2 = 8, at (1, 5)
        ((3, 3, 1), (2, 17, 5), (8, 1, 5)),
        # 2x1x2: grid 2x8x16; core (1, 3, 12) -> mesh (1, 0, 1) -> chip 1*2 + 1 = 3, at (3, 4)
        ((2, 1, 2), (1, 3, 12), (3, 3, 4)),
        # 2x2: grid 16x16; core (15, 0) -> mesh (1, 0) -> chip 2, at (7, 0)
        ((2, 2), (15, 0), (2, 7, 0)),
    ],
)
def test_locate_by_hand(mesh, core, expected):
    dev = derive_device(mesh)
    np.testing.assert_array_equal(dev.locate(np.array([core])), [expected])


def test_pipeline_parallel_device_on_chips_4_to_7_of_t3k():
    t3k = system("t3k")
    first = derive_device((2, 1, 2), chip_ids=[0, 1, 2, 3], system=t3k)
    second = derive_device((2, 2), chip_ids=[4, 5, 6, 7], system=t3k)
    chips_first = set(first.locate_all()[:, 0].tolist())
    chips_second = set(second.locate_all()[:, 0].tolist())
    assert chips_first == {0, 1, 2, 3} and chips_second == {4, 5, 6, 7}
    # chip index 3 of the second device is chip id 7: core (8, 8) -> mesh (1, 1)
    np.testing.assert_array_equal(second.locate([[8, 8]]), [[7, 0, 0]])


def test_inverse_round_trip_and_missing_core():
    dev = derive_device((2, 4))
    pts = grid_points(dev.grid_shape)
    np.testing.assert_array_equal(dev.inverse(dev.locate(pts)), pts)
    # chip 6 core (1, 1) is logical (9, 17) (see test_locate_by_hand)
    np.testing.assert_array_equal(dev.inverse([[6, 1, 1]]), [[9, 17]])
    with pytest.raises(LayoutError, match=r"no logical core of the device maps to chip 8 core \(0, 0\)"):
        dev.inverse([[8, 0, 0]])


def test_transposed_and_reinterpreted_grids_are_legal():
    for shape, text in [
        ((8, 8), "(d0, d1) -> (0, d1, d0)"),
        ((1, 64), "(d0, d1) -> (0, d0 * 8 + d1 floordiv 8, d1 mod 8)"),
        ((64, 1), "(d0, d1) -> (0, d1 * 8 + d0 floordiv 8, d0 mod 8)"),
        ((8, 8), "(d0, d1) -> (0, d0, (d0 + d1) mod 8)"),
    ]:
        dev = Device(shape, text, (1,), (0,))
        dev.verify()
        assert dev.is_bijective_onto_chips()
    # extra wide: logical (0, 21) is physical row 21 // 8 = 2, column 21 % 8 = 5
    wide = Device((1, 64), "(d0, d1) -> (0, d0 * 8 + d1 floordiv 8, d1 mod 8)", (1,), (0,))
    np.testing.assert_array_equal(wide.locate([[0, 21]]), [[0, 2, 5]])


@pytest.mark.parametrize(
    "device, message",
    [
        (Device((1, 64), "(d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)", (4,), (0, 1, 2, 3)),
         "logical core (0, 32) maps to chip index 4, but the device has 4 chips"),
        (Device((8, 16), "(d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)", (1, 2), (0, 1, 2)),
         "chipIds has 3 chips, but meshShape 1x2 needs 2"),
        (Device((8, 16), "(d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)", (1, 2), (3, 3)),
         "chip id 3 appears twice in chipIds"),
        (Device((8, 8), "(d0, d1) -> (d0, d1)", (1,), (0,)),
         "has 2 results; expected 3: (chip index, y, x)"),
        (Device((8, 8), "(d0, d1, d2) -> (0, d0, d1)", (1,), (0,)),
         "takes 3 dims, but the worker grid 8x8 has rank 2"),
        (Device((8, 9), "(d0, d1) -> (0, d0, d1)", (1,), (0,)),
         "logical core (0, 8) maps to core (0, 8) of chip 0, outside its 8x8 grid"),
        (Device((8, 8), "(d0, d1) -> (0, d0, d1 - 1)", (1,), (0,)),
         "logical core (0, 0) maps to core (0, -1) of chip 0, outside its 8x8 grid"),
        (Device((8, 8), "(d0, d1) -> (0, d0, d1 floordiv 2)", (1,), (0,)),
         "not injective: logical cores (0, 0) and (0, 1) both map to core (0, 0) of chip 0"),
    ],
)
def test_verify_names_the_offending_point(device, message):
    with pytest.raises(LayoutError) as e:
        device.verify()
    assert message in str(e.value)


def test_verify_against_a_system():
    n300 = system("n300")
    dev = Device((8, 16), "(d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)", (1, 2), (1, 2))
    with pytest.raises(LayoutError, match="chip id 2 is not in the system, which has 2 chips"):
        dev.verify(system=n300)
    with pytest.raises(LayoutError, match="chip id 2 is not in the system"):
        derive_device((2, 4), system=n300)


def test_derive_device_errors():
    with pytest.raises(LayoutError, match="3 chip ids given, but mesh shape 2x2 needs 4"):
        derive_device((2, 2), chip_ids=[0, 1, 2])
    with pytest.raises(LayoutError, match="mesh shape 0x2 must have positive sizes"):
        derive_device((0, 2))


def test_locate_rejects_cores_outside_the_grid():
    dev = derive_device((1, 2))
    with pytest.raises(LayoutError, match=r"logical core \(8, 0\) lies outside the 8x16 worker grid"):
        dev.locate([[8, 0]])


@settings(max_examples=60, deadline=None)
@given(
    mesh=st.lists(st.integers(1, 4), min_size=1, max_size=3).filter(lambda m: int(np.prod(m)) <= 16),
    grid=st.tuples(st.integers(1, 8), st.integers(1, 8)),
    offset=st.integers(0, 4),
)
def test_every_derived_device_is_a_bijection_onto_its_chips_cores(mesh, grid, offset):
    n = int(np.prod(mesh))
    ids = list(range(offset, offset + n))
    dev = derive_device(tuple(mesh), chip_grid=grid, chip_ids=ids)
    phys = dev.locate_all()
    assert phys.shape == (n * grid[0] * grid[1], 3)
    # every (chip, y, x) appears exactly once, and all of them appear
    assert len({tuple(p) for p in phys.tolist()}) == len(phys)
    assert set(phys[:, 0].tolist()) == set(ids)
    assert phys[:, 1].min() == 0 and phys[:, 1].max() == grid[0] - 1
    assert phys[:, 2].min() == 0 and phys[:, 2].max() == grid[1] - 1
    np.testing.assert_array_equal(dev.inverse(phys), grid_points(dev.grid_shape))
