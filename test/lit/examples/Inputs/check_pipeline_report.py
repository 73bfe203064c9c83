"""Read a pipelined run's --report-json and --trace and print what the lit test checks."""

import json
import sys

report = json.load(open(sys.argv[1]))
trace = json.load(open(sys.argv[2]))
p = report["pipeline"]
print("stages", len(p["stages"]), "microbatches", p["microbatches"], "samples", p["samples"])
busy = sum(s["busy_s"] for s in p["stages"])
bubble = 1 - busy / (len(p["stages"]) * p["makespan_s"])
print("bubble_fraction", "consistent" if abs(bubble - p["bubble_fraction"]) < 1e-12 and 0 < bubble < 1 else "WRONG")
ok = True
for s in range(len(p["stages"])):
    runs = [e for e in p["timeline"] if e["kind"] == "stage" and e["stage"] == s]
    ok &= [e["microbatch"] for e in runs] == list(range(p["microbatches"]))
    ok &= all(a["start_s"] + a["seconds"] <= b["start_s"] + 1e-15 for a, b in zip(runs, runs[1:]))
loads = [e for e in p["timeline"] if e["kind"] == "load"]
ok &= all(x["start_s"] >= e["start_s"] + e["seconds"] - 1e-15 for e in loads for x in p["timeline"]
          if x["kind"] == "stage" and x["stage"] == e["stage"])  # weights before the stage's calls
for e in p["timeline"]:
    if e["kind"] == "transfer":
        after = [x for x in p["timeline"] if x["kind"] == "stage" and x["stage"] == e["stage"]
                 and x["microbatch"] == e["microbatch"]][0]
        ok &= after["start_s"] >= e["start_s"] + e["seconds"] - 1e-15
print("timeline", "ordered" if ok else "WRONG")
threads = [m for m in trace["traceEvents"] if m.get("ph") == "M" and m["name"] == "thread_name"
           and m["args"]["name"].startswith("stage ")]
print("trace stage threads", len(threads))
