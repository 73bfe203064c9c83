"""The ttnn memory attributes convert to and from the placement model without loss."""

import pytest
from xdsl.utils.exceptions import VerifyException

from meshc.dialects.ttnn import CoreRangeSetAttr, MemoryConfigAttr, ShardSpecAttr, TTNNLayoutAttr
from meshc.layout import CoreRange, CoreRangeSet, MemoryConfig

CONFIGS = [
    MemoryConfig("dram", "interleaved"),
    MemoryConfig("l1", "interleaved"),
    MemoryConfig("l1", "block_sharded", (2, 2), (64, 64)),
    MemoryConfig("l1", "height_sharded", CoreRangeSet((CoreRange((0, 0), (0, 1)), CoreRange((3, 4), (3, 5)))),
                 (32, 64), "col_major"),
    MemoryConfig("l1", "nd_sharded", (1, 3), (1, 64, 32)),
]


@pytest.mark.parametrize("cfg", CONFIGS)
def test_memory_config_attr_round_trip(cfg):
    attr = MemoryConfigAttr.from_model(cfg)
    assert attr.model() == cfg
    assert MemoryConfigAttr.from_model(attr.model()) == attr


def test_ttnn_layout_places_the_seed_figure4_tensor():
    attr = TTNNLayoutAttr.from_model((32, 32), "bf16", CONFIGS[2])
    assert attr.model() == ((32, 32), "bf16", CONFIGS[2])
    assert attr.place((128, 128)).pages_by_owner()[(0, 1)] == [2, 3, 6, 7]


def test_shard_spec_needs_a_shape_and_core_ranges_stay_in_order():
    crs = CoreRangeSetAttr.from_model(CONFIGS[3].grid)
    assert [r.model() for r in crs.ranges.data] == [CoreRange((0, 0), (0, 1)), CoreRange((3, 4), (3, 5))]
    with pytest.raises(ValueError, match="needs a shard shape"):
        ShardSpecAttr.from_model(MemoryConfig("l1", "height_sharded", (2, 2)).shard_spec)


def test_system_memory_has_no_device_model():
    attr = MemoryConfigAttr("system_memory", "interleaved")
    with pytest.raises(VerifyException, match="system_memory is host memory"):
        attr.model()
