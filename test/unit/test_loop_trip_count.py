"""The trip count the importer reads from a while's counter (meshc/importers/stablehlo_loops.py):
how many times `counter <direction> bound` holds for counter = start, start + step, ...; each
case counted by hand in its comment."""

import pytest

from meshc.importers.stablehlo_loops import count_trips


@pytest.mark.parametrize("start, bound, step, direction, trips", [
    (0, 4, 1, "LT", 4),    # 0 1 2 3
    (0, 4, 1, "LE", 5),    # 0 1 2 3 4
    (0, 10, 3, "LT", 4),   # 0 3 6 9
    (5, 4, 1, "LT", 0),    # 5 < 4 fails at once
    (10, 0, -3, "GT", 4),  # 10 7 4 1
    (10, 1, -3, "GE", 4),  # 10 7 4 1
    (0, 9, 3, "NE", 3),    # 0 3 6, then 9
    (3, 3, 1, "NE", 0),    # 3 != 3 fails at once
    (2, 2, 5, "EQ", 1),    # 2, then 7
])
def test_the_trip_count_of_a_counter(start, bound, step, direction, trips):
    assert count_trips(start, bound, step, direction) == trips


@pytest.mark.parametrize("start, bound, step, direction", [
    (0, 4, 0, "LT"),   # never moves
    (0, 4, -1, "LT"),  # moves away
    (0, 10, 3, "NE"),  # 0 3 6 9 12 ...: steps over 10
    (4, 0, 1, "GT"),   # moves away
])
def test_a_counter_that_never_reaches_its_bound_has_no_count(start, bound, step, direction):
    assert count_trips(start, bound, step, direction) is None
