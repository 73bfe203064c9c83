"""A pipelined run's figures as people read them: the lines `meshc-run --report` and
`RunResult.summary()` print (per stage busy time, the bubble with its fraction, the throughput)
and the Perfetto / Chrome trace events of its GPipe timeline (one thread a stage, one a pair of
stages a transfer joins). The data is meshc.interp.pipeline_run.pipeline_report's."""

from __future__ import annotations

STAGES_PID = 10_003


def _chips(chips: list[int]) -> str:
    if chips == list(range(chips[0], chips[0] + len(chips))) and len(chips) > 2:
        return f"{chips[0]}-{chips[-1]}"
    return ", ".join(map(str, chips))


def pipeline_lines(p: dict) -> list[str]:
    """The pipelined run in a few lines."""
    us = 1e6
    span = p["makespan_s"]
    lines = [f"pipeline: {len(p['stages'])} stages, {p['microbatches']} microbatch"
             f"{'es' if p['microbatches'] != 1 else ''} of the batch ({p['samples']} samples), {p['schedule_note']}"]
    for s in p["stages"]:
        share = s["busy_s"] / span if span > 0 else 0.0
        lines.append(f"  stage {s['stage']} (chips {_chips(s['chips'])}, mesh {'x'.join(map(str, s['mesh_shape']))}): "
                     f"busy {s['busy_s'] * us:.3f} us ({share:.0%} of the makespan)")
    speedup = p["serial_s"] / span if span > 0 else 1.0
    lines.append(f"  makespan {span * us:.3f} us (one after the other: {p['serial_s'] * us:.3f} us, {speedup:.2f}x); "
                 f"bubble {p['bubble_fraction']:.3f} of the stages' time idle; throughput "
                 f"{p['throughput_samples_per_s']:,.0f} samples/s")
    return lines


def pipeline_trace_events(p: dict) -> list[dict]:
    """Trace events (metadata first) of the GPipe timeline, times in microseconds."""
    us = 1e6
    n = len(p["stages"])
    pairs: dict[tuple[int, int], int] = {}
    events = []
    for e in p["timeline"]:
        if e["kind"] == "transfer":
            tid = pairs.setdefault((e["source"], e["stage"]), n + len(pairs))
            name = f"transfer {e['source']}->{e['stage']} mb{e['microbatch']}"
        else:
            tid = e["stage"]
            name = f"stage {e['stage']} {'weights' if e['kind'] == 'load' else 'mb' + str(e['microbatch'])}"
        events.append({"name": name, "cat": "pipeline", "ph": "X", "pid": STAGES_PID, "tid": tid,
                       "ts": e["start_s"] * us, "dur": e["seconds"] * us, "args": {"microbatch": e["microbatch"]}})
    meta = [{"name": "process_name", "ph": "M", "pid": STAGES_PID,
             "args": {"name": f"pipeline stages ({p['schedule']}, bubble {p['bubble_fraction']:.3f})"}}]
    for s in p["stages"]:
        meta.append({"name": "thread_name", "ph": "M", "pid": STAGES_PID, "tid": s["stage"],
                     "args": {"name": f"stage {s['stage']} (chips {_chips(s['chips'])})"}})
    for (a, b), tid in pairs.items():
        meta.append({"name": "thread_name", "ph": "M", "pid": STAGES_PID, "tid": tid,
                     "args": {"name": f"transfer stage {a} -> stage {b}"}})
    return meta + events
