"""meshc.layout.pipeline_schedule: the GPipe timeline, against GPipe's bubble figure and a
timeline worked out by hand."""

import pytest

from meshc.layout.pipeline_schedule import Call, gpipe


@pytest.mark.parametrize("stages, microbatches", [(2, 1), (2, 4), (4, 4), (4, 16), (3, 7)])
def test_equal_stages_have_gpipes_bubble(stages, microbatches):
    # a chain of S equal stages of t seconds, each reading the one before through a transfer
    # taking no time: the makespan is (M + S - 1) t and the bubble (S - 1) / (M + S - 1), GPipe's
    t = 2.0
    calls = []
    for m in range(microbatches):
        for s in range(stages):
            calls += ([Call(s, m, 0.0, source=s - 1)] if s else []) + [Call(s, m, t)]
    sched = gpipe(calls, stages)
    assert sched.makespan == pytest.approx((microbatches + stages - 1) * t)
    assert sched.bubble == pytest.approx((stages - 1) / (microbatches + stages - 1))
    assert sched.serial == pytest.approx(stages * microbatches * t)
    assert sched.throughput(8 * microbatches) == pytest.approx(8 * microbatches / sched.makespan)


def test_unequal_stages_with_transfers_by_hand():
    # stage 0 takes 1 s, the transfer 0.5 s, stage 1 2 s, three microbatches:
    #   stage 0:   [0, 1] [1, 2] [2, 3]
    #   transfer:  [1, 1.5] [2, 2.5] [3, 3.5]
    #   stage 1:   [1.5, 3.5] [3.5, 5.5] [5.5, 7.5]      (waits for itself, not for the transfers)
    calls = []
    for m in range(3):
        calls += [Call(0, m, 1.0), Call(1, m, 0.5, source=0), Call(1, m, 2.0)]
    sched = gpipe(calls, 2)
    starts = [(s.call.stage, s.call.source, s.call.microbatch, s.start) for s in sched.slots]
    assert (1, -1, 0, 1.5) in starts and (1, -1, 1, 3.5) in starts and (1, -1, 2, 5.5) in starts
    assert (1, 0, 2, 3.0) in starts
    assert sched.makespan == pytest.approx(7.5)
    assert sched.busy(0) == pytest.approx(3.0) and sched.busy(1) == pytest.approx(6.0)
    assert sched.bubble == pytest.approx(1 - 9 / (2 * 7.5))


def test_a_slow_transfer_holds_the_next_stage():
    # the transfer (3 s) is longer than either stage (1 s): transfers queue on the pair of devices
    calls = []
    for m in range(2):
        calls += [Call(0, m, 1.0), Call(1, m, 3.0, source=0), Call(1, m, 1.0)]
    sched = gpipe(calls, 2)
    # transfers [1, 4] and [4, 7]; stage 1 runs [4, 5] and [7, 8]
    assert sched.makespan == pytest.approx(8.0)


def test_a_load_waits_for_its_stage_only():
    # stage 1 writes its weights (2 s) at time 0, while stage 0 computes; its first call waits for
    # both the load and the transfer: stage 0 [0, 1], transfer [1, 1.5], load [0, 2], stage 1 [2, 3]
    calls = [Call(0, 0, 1.0), Call(1, 0, 0.5, source=0), Call(1, 0, 2.0, kind="load"), Call(1, 0, 1.0)]
    sched = gpipe(calls, 2)
    starts = {(s.call.kind, s.call.stage, s.call.source): s.start for s in sched.slots}
    assert starts[("load", 1, -1)] == 0.0 and starts[("", 1, -1)] == 2.0
    assert sched.makespan == pytest.approx(3.0) and sched.busy(1) == pytest.approx(3.0)
