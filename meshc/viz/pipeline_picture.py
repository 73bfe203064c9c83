"""A pipelined run's GPipe schedule as a picture (matplotlib): one row a stage and one a pair of
stages a transfer joins, time along x, each stage call a box labelled with its microbatch (grey: a stage's weights written
once before its first call), the
bubble and the throughput in the title. Drawn from the `pipeline` section of a run's report
(meshc.interp.pipeline_run.pipeline_report); `meshc-run --plot DIR` writes it as pipeline.png."""

from __future__ import annotations


def pipeline_figure(p: dict):
    """The matplotlib figure of a pipelined run's timeline."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import colormaps

    us = 1e6
    n = len(p["stages"])
    pairs = sorted({(e["source"], e["stage"]) for e in p["timeline"] if e["kind"] == "transfer"})
    rows = [f"stage {s['stage']}\nchips {s['chips'][0]}-{s['chips'][-1]}" if len(s["chips"]) > 1
            else f"stage {s['stage']}\nchip {s['chips'][0]}" for s in p["stages"]]
    rows += [f"transfer\n{a} -> {b}" for a, b in pairs]
    row_of = {("stage", s["stage"]): i for i, s in enumerate(p["stages"])}
    row_of.update({("transfer", pr): n + k for k, pr in enumerate(pairs)})
    fig, ax = plt.subplots(figsize=(11, 1.0 + 0.75 * len(rows)))
    pal = colormaps["tab10"]
    for e in p["timeline"]:
        key = ("transfer", (e["source"], e["stage"])) if e["kind"] == "transfer" else ("stage", e["stage"])
        y = len(rows) - 1 - row_of[key]
        colour = "lightgrey" if e["kind"] == "load" else pal(e["microbatch"] % 10)
        alpha = 0.45 if e["kind"] == "transfer" else 0.9
        ax.barh(y, e["seconds"] * us, left=e["start_s"] * us, height=0.6, color=colour, alpha=alpha,
                edgecolor="black", linewidth=0.6)
        if e["seconds"] * us > 0.04 * p["makespan_s"] * us:
            label = "weights" if e["kind"] == "load" else f"mb{e['microbatch']}"
            ax.text((e["start_s"] + e["seconds"] / 2) * us, y, label, ha="center", va="center", fontsize=8)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(list(reversed(rows)), fontsize=8)
    ax.set_xlabel("simulated time (us)")
    ax.set_xlim(0, p["makespan_s"] * us * 1.02)
    name = {"gpipe": "GPipe"}.get(p["schedule"], p["schedule"])
    ax.set_title(f"{name} schedule: {n} stages, {p['microbatches']} microbatches; bubble "
                 f"{p['bubble_fraction']:.3f}, makespan {p['makespan_s'] * us:.1f} us, throughput "
                 f"{p['throughput_samples_per_s']:,.0f} samples/s", fontsize=9)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig
