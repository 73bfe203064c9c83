"""One chip's picture (meshc.viz.chip_picture): every page and owner labelled, no label over
another, at 64 cores and with interleaved DRAM banks (where labels are densest)."""

from __future__ import annotations

import pytest

from meshc.layout.memory_config import MemoryConfig
from meshc.layout.placement import place
from meshc.viz.chip_picture import chip_figure
from meshc.viz.palette import colours, fit_font

from test_viz_mesh import _overlaps


@pytest.mark.parametrize("shape, cfg", [
    ((256, 256), MemoryConfig("l1", "block_sharded", (8, 8), (32, 32))),  # 64 cores, a page each
    ((256, 256), MemoryConfig("dram", "interleaved")),                    # 64 pages over 12 banks
    ((1024, 1024), MemoryConfig("l1", "block_sharded", (8, 8), (128, 128))),
])
def test_labels_do_not_overlap(shape, cfg):
    fig = chip_figure(place(shape, "bf16", cfg), "t")
    assert _overlaps(fig) == []


def test_every_page_names_its_core_at_64_cores():
    p = place((256, 256), "bf16", MemoryConfig("l1", "block_sharded", (8, 8), (32, 32)))
    fig = chip_figure(p, "t")
    texts = {t.get_text() for t in fig.axes[0].texts}
    assert "P63\n(7,7)" in texts and "P9\n(1,1)" in texts  # page 9 = row 1, col 1 of the 8x8 page grid


def test_palette_distinct_up_to_60_and_fit_font():
    assert len(set(colours(60))) == 60
    assert fit_font((10.0, 10.0), 1, 1, "P100") is None  # 10 pt a unit cannot hold 4 letters readably
    assert fit_font((100.0, 100.0), 1, 1, "P1") == 11.0
