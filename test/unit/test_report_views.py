"""meshc-run's report views read the report's fields generically: a resource the time model
adds is a CSV column and a bar colour without a change here; the summary orders links by bytes
and ops by time (meshc/tools/report_views.py). The report below is written by hand."""

from __future__ import annotations

import csv
import io

from meshc.tools.report_views import csv_text, plot_files, summary_lines


def _op(i, name, seconds, bound, **time):
    totals = {"ethernet_bytes": 100 * i, "noc_bytes": 10 * i, "dram_read_bytes": 0, "dram_write_bytes": 0,
              "host_to_device_bytes": 0, "device_to_host_bytes": 0}
    return {"index": i, "name": name, "start_s": 0.0, "seconds": seconds, "time": {**time, "bound": bound},
            "totals": totals}


REPORT = {
    "mode": "sim", "mesh_shape": [1, 3], "chips": 3,
    "traffic": {"totals": {"ethernet_bytes": 600, "noc_bytes": 60, "dram_read_bytes": 0, "dram_write_bytes": 0,
                           "host_to_device_bytes": 0, "device_to_host_bytes": 0},
                "link": {"0->1": 100, "1->2": 400, "2->1": 100}},
    "memory": {"peak_l1_core_bytes": 2048,
               "per_chip": {"0": {"peak_l1_core": 2048, "cores": {"0,0": {"peak": 2048, "fragmentation": 0.0},
                                                                   "1,1": {"peak": 1024, "fragmentation": 0.0}}},
                            "1": {"peak_l1_core": 1024}, "2": {"peak_l1_core": 0}}},
    "time_model": {"seconds": 4e-6, "device_seconds": 4e-6, "host_seconds": 0.0},
    "ops": [_op(0, "ttnn.matmul", 1e-6, "compute", compute_s=1e-6, dram_s=2e-7, optics_s=0.0, device_s=1e-6),
            _op(1, "ttnn.all_gather", 3e-6, "optics", compute_s=0.0, dram_s=0.0, optics_s=3e-6, device_s=3e-6)],
}


def test_summary_orders_links_by_bytes_and_ops_by_time():
    lines = summary_lines(REPORT)
    assert lines[0].startswith("summary: 2 ops on a 1x3 mesh (3 chips in the system), time estimate 4.000 us")
    assert "ethernet 600 B" in lines[1] and "peak L1 a core 2,048 B" in lines[1]
    assert lines[2] == ("  busiest links (3 of 3 used): chip 1 -> chip 2 400 B, chip 0 -> chip 1 100 B, "
                        "chip 2 -> chip 1 100 B")
    # 3 us of 4 us is 75%, 1 us is 25%
    assert lines[3] == ("  slowest ops: #1 ttnn.all_gather 3.000 us (75%, optics-bound); "
                        "#0 ttnn.matmul 1.000 us (25%, compute-bound)")


def test_csv_has_a_column_a_resource_and_a_counter():
    rows = list(csv.reader(io.StringIO(csv_text(REPORT))))
    assert rows[0] == ["index", "op", "start_s", "seconds", "bound", "compute_s", "dram_s", "optics_s",
                       "ethernet_bytes", "noc_bytes", "dram_read_bytes", "dram_write_bytes",
                       "host_to_device_bytes", "device_to_host_bytes"]
    assert rows[2][:5] == ["1", "ttnn.all_gather", "0.0", "3e-06", "optics"]
    assert float(rows[2][7]) == 3e-6 and rows[2][8] == "100"


def test_plots_are_pngs_without_a_system():
    files = plot_files(REPORT, None)
    assert sorted(files) == ["l1.png", "links.png", "op_time.png"]
    assert all(data.startswith(b"\x89PNG\r\n\x1a\n") for data in files.values())
