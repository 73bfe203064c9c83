"""A run's figures outside the terminal tables: a one-screen summary, a JSON report and a
Chrome / Perfetto trace of the simulated timeline.

* `summary(result)`: outputs, traffic totals, peak memory and the time estimate, as text;
* `report(result)`: the same and more as plain data (`RunResult.to_json()`, `meshc-run
  --report-json`): traffic per link, NOC, DRAM bank and host link, memory per chip, the time
  model with its bandwidths, and every op with its own traffic, start and duration;
* `chrome_trace(result)`: the JSON trace event format (chrome://tracing, ui.perfetto.dev) of the
  time model (meshc.layout.timemodel): ops run one after the other in program order; inside an
  op each resource (compute, DRAM, NOC, ethernet, latency, host) is busy for its time, one
  thread a resource; the ethernet links process has a thread per link direction carrying the
  op's bytes. One process for the program's ops, one for the resources, one for the links.
"""

from __future__ import annotations

import numpy as np

from meshc.interp.pipeline_view import pipeline_lines, pipeline_trace_events
from meshc.layout.shapes import fmt_shape
from meshc.layout.timemodel import OVERLAP_MISS


def _output_info(name: str, v) -> dict:
    if isinstance(v, list):
        return {"name": name, "per_device": [_output_info(f"{name}@device{d}", x) for d, x in enumerate(v)]}
    a = np.asarray(v)
    return {"name": name, "shape": list(a.shape), "dtype": str(a.dtype)}


def _totals(t) -> dict:
    return {
        "ethernet_bytes": t.link_bytes,
        "delivered_bytes": t.delivered_bytes,
        "noc_bytes": t.noc_bytes,
        "dram_read_bytes": int(sum(t.dram_read.values())),
        "dram_write_bytes": int(sum(t.dram_write.values())),
        "host_to_device_bytes": int(sum(t.host_to_device.values())),
        "device_to_host_bytes": int(sum(t.device_to_host.values())),
    }


def _starts(result) -> list[float]:
    out, now = [], 0.0
    for o in result.ops:
        out.append(now)
        now += o.seconds
    return out


def report(result) -> dict:
    """Everything the run counted, as JSON-ready data (see the module docstring)."""
    t = result.traffic
    starts = _starts(result)
    ops = []
    for i, (o, s) in enumerate(zip(result.ops, starts)):
        ops.append({"index": i, "name": o.name, "start_s": s, "seconds": o.seconds, "time": o.time.as_dict(),
                    "totals": _totals(o.traffic), "traffic": o.traffic.as_dict()})
    system = result.system
    return {
        "mode": result.mode,
        "mesh_shape": list(result.mesh_shape),
        "chips": None if system is None else system.num_chips,
        "outputs": [_output_info(n, v) for n, v in zip(result.names, result.outputs)],
        "traffic": {"totals": _totals(t), **t.as_dict()},
        "memory": {"peak_l1_core_bytes": int(result.peak_l1_core),
                   "per_chip": {str(c): _chip_memory(m) for c, m in sorted(result.memory.items())}},
        "time_model": {
            "seconds": result.time_estimate,
            "device_seconds": sum(o.time.device_s for o in result.ops),
            "host_seconds": sum(o.time.host for o in result.ops),
            "rule": f"an op takes its latency terms + max(compute, movement) + {OVERLAP_MISS} x min(compute, "
                    "movement), movement the slowest of DRAM, NOC and ethernet; host transfers are added "
                    "apart; ops run one after the other (meshc.layout.timemodel)",
        },
        "ops": ops,
        **({"pipeline": result.pipeline} if getattr(result, "pipeline", None) else {}),
    }


def _chip_memory(m: dict) -> dict:
    """One chip's memory entry as JSON: bytes as ints, fragmentation as a fraction, and `cores`
    keyed "y,x"."""
    out = {}
    for k, v in m.items():
        if k == "cores":
            out[k] = {f"{y},{x}": {"peak": int(c["peak"]), "fragmentation": float(c["fragmentation"])}
                      for (y, x), c in sorted(v.items())}
        else:
            out[k] = float(v) if isinstance(v, float) else int(v)
    return out


def summary(result) -> str:
    """A few lines: outputs, traffic totals, peak memory, time estimate."""
    tot = _totals(result.traffic)
    outs = ", ".join(
        f"{o['name']} {fmt_shape(o['shape']) or 'scalar'} {o['dtype']}" if "shape" in o
        else f"{o['name']} (on {len(o['per_device'])} devices)"
        for o in (_output_info(n, v) for n, v in zip(result.names, result.outputs)))
    mesh = fmt_shape(result.mesh_shape)
    lines = [
        f"{result.mode} run on a {mesh} mesh: {len(result.ops)} ops, outputs: {outs or 'none'}",
        f"ethernet {tot['ethernet_bytes']:,} B (delivered {tot['delivered_bytes']:,} B), NOC {tot['noc_bytes']:,} B, "
        f"DRAM {tot['dram_read_bytes']:,} B read / {tot['dram_write_bytes']:,} B written, "
        f"host {tot['host_to_device_bytes']:,} B in / {tot['device_to_host_bytes']:,} B out",
        f"peak L1 a core: {int(result.peak_l1_core):,} B; time estimate: {result.time_estimate * 1e6:.3f} us "
        f"(device {sum(o.time.device_s for o in result.ops) * 1e6:.3f} us, "
        f"host transfers {sum(o.time.host for o in result.ops) * 1e6:.3f} us)",
    ]
    if getattr(result, "pipeline", None):
        lines += pipeline_lines(result.pipeline)
    return "\n".join(lines)


LINKS_PID = 10_000
PROGRAM_PID = 10_001
RESOURCES_PID = 10_002
_THREADS = {"compute": 1, "dram": 2, "noc": 3, "ethernet": 4, "latency": 5, "host": 6}


def chrome_trace(result) -> dict:
    """The simulated timeline in the Chrome trace event format (times in microseconds)."""
    events: list[dict] = []
    link_tid: dict = {}
    us = 1e6
    for i, (o, start) in enumerate(zip(result.ops, _starts(result))):
        t = o.time
        events.append({"name": o.name, "cat": "op", "ph": "X", "pid": PROGRAM_PID, "tid": 0,
                       "ts": start * us, "dur": o.seconds * us,
                       "args": {"index": i, "bound": t.bound, **_totals(o.traffic)}})
        for what, tid in _THREADS.items():
            sec = getattr(t, what)
            if sec > 0:
                events.append({"name": o.name, "cat": what, "ph": "X", "pid": RESOURCES_PID, "tid": tid,
                               "ts": start * us, "dur": sec * us, "args": {"op": i}})
        for (a, b), n in sorted(o.traffic.link.items()):
            tid = link_tid.setdefault((a, b), len(link_tid) + 1)
            events.append({"name": o.name, "cat": "ethernet", "ph": "X", "pid": LINKS_PID, "tid": tid,
                           "ts": start * us, "dur": t.ethernet * us, "args": {"op": i, "bytes": int(n)}})
    meta = [{"name": "process_name", "ph": "M", "pid": PROGRAM_PID, "args": {"name": "program (ops)"}},
            {"name": "thread_name", "ph": "M", "pid": PROGRAM_PID, "tid": 0, "args": {"name": "ops"}},
            {"name": "process_name", "ph": "M", "pid": RESOURCES_PID, "args": {"name": "resources"}},
            {"name": "process_name", "ph": "M", "pid": LINKS_PID, "args": {"name": "ethernet links"}}]
    for what, tid in _THREADS.items():
        meta.append({"name": "thread_name", "ph": "M", "pid": RESOURCES_PID, "tid": tid, "args": {"name": what}})
    for (a, b), tid in link_tid.items():
        meta.append({"name": "thread_name", "ph": "M", "pid": LINKS_PID, "tid": tid,
                     "args": {"name": f"chip {a} -> chip {b}"}})
    if getattr(result, "pipeline", None):  # the stages' GPipe timeline, one thread a stage
        events += pipeline_trace_events(result.pipeline)
    return {"traceEvents": meta + events, "displayTimeUnit": "ns",
            "otherData": {"source": "meshc-run time model (meshc/layout/timemodel.py)",
                          "total_us": result.time_estimate * us}}
