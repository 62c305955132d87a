#!/usr/bin/env python3
"""Plots the cpu backend's benchmark ratios (docs/cpu-benchmarks.png).

Reads bench JSON lines ({"case", "size", "backend", "baseline", "ember_s", "baseline_s",
"ratio"}) from the files given (default: bench/RESULTS.md, whose raw-output section holds
the lines of the runs it reports; any line that is a JSON object counts) or from stdin with
"-". Lines of several runs are grouped
by (case, size, baseline): each bar is the median ratio, the whisker spans min..max.
ratio = baseline time / Ember time (right of 1: Ember is faster); the issue's target for
the case is marked.

    python3 bench/plot.py [results.jsonl ... | -] [-o docs/cpu-benchmarks.png] [--series 5,6]
    python3 bench/plot.py --markdown [results.jsonl ...]   # the table in bench/RESULTS.md

--series keeps only the raw blocks headed "Series N:" with those numbers (RESULTS.md holds
every series; docs/cpu-benchmarks.png shows the latest code's).

Needs matplotlib for the PNG (pip install matplotlib); --markdown needs nothing.
"""
import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Targets from issue 4 (ratio = baseline / Ember; for scaling, 1/1.3).
TARGETS = {
    ("matmul_f32", "cblas_sgemm"): 0.97,
    ("matmul_f64", "cblas_dgemm"): 0.97,
    ("add_f32", "numpy"): 4.0,
    ("add_f32_bandwidth", "copy_bandwidth_2t"): 0.85,
    ("add_into_f32_bandwidth", "copy_bandwidth_2t"): 0.85,
    ("exp_f32", "numpy"): 5.0,
    ("log_f32", "numpy"): 5.0,
    ("tanh_f32", "numpy"): 5.0,
    ("sigmoid_f32", "numpy"): 5.0,
    ("sum_f32", "numpy"): 3.0,
    ("mean_f32", "numpy"): 3.0,
    ("softmax_f32", "numpy"): 3.0,
}


OVERHEAD_TARGET_S = 150e-9  # add of two 1-element tensors, absolute


def target_for(row):
    if row["case"] == "add_overhead_1elem":
        return None  # an absolute target (see met_overhead)
    if row["case"].startswith("scaling_"):
        return 1 / 1.3
    if row["baseline"] == "numpy" and row["size"] == "1e6":
        return None  # the NumPy targets are stated for 1e7 elements
    return TARGETS.get((row["case"], row["baseline"]))


def read_rows(paths, series=None):
    rows = []
    for p in paths:
        f = sys.stdin if p == "-" else open(p)
        current = None  # the "Series N:" block a line is in
        for line in f:
            line = line.strip()
            if line.startswith("Series ") and line.endswith(":"):
                current = line[len("Series "):-1]
            if series and current not in series:
                continue
            if line.startswith("{") and line.endswith("}"):
                try:
                    rows.append(json.loads(line))
                except ValueError:
                    pass
    # This plot is about the cpu backend's own cases (bindings' py_* cases are elsewhere).
    return [r for r in rows if r.get("backend") == "cpu" and not r["case"].startswith(("py_", "opencl"))]


def upper_median(values):
    v = sorted(values)
    return v[len(v) // 2]


def group(rows):
    """Median / min / max ratio per (case, size, baseline), in first-seen order, and the
    median of Ember's and of the baseline's times, each over all runs: the times of the
    run with the median ratio showed a slow run's times (the 1-element add's target is a
    time)."""
    order, by = [], {}
    for r in rows:
        k = (r["case"], r["size"], r["baseline"])
        if k not in by:
            order.append(k)
            by[k] = []
        by[k].append(r)
    out = []
    for k in order:
        rs = sorted(by[k], key=lambda r: r["ratio"])
        med = rs[len(rs) // 2]
        out.append(dict(med, min=rs[0]["ratio"], max=rs[-1]["ratio"], runs=len(rs),
                        ember_med=upper_median(r["ember_s"] for r in rs),
                        baseline_med=upper_median(r["baseline_s"] for r in rs)))
    return out


def fmt_time(s):
    if s >= 1e-3:
        return "%.3g ms" % (s * 1e3)
    if s >= 1e-6:
        return "%.3g us" % (s * 1e6)
    return "%.3g ns" % (s * 1e9)


def print_markdown(rows):
    print("| case | size | baseline | Ember | baseline | ratio (median) | min..max | target | met |")
    print("|---|---|---|---:|---:|---:|---:|---:|:---:|")
    for r in rows:
        t = target_for(r)
        met = "" if t is None else ("yes" if r["ratio"] >= t else "no")
        target = "" if t is None else ">= %.2f" % t
        if r["case"] == "add_overhead_1elem":
            target = "Ember <= 150 ns"
            met = "yes" if r["ember_med"] <= OVERHEAD_TARGET_S else "no"
        print("| %s | %s | %s | %s | %s | %.2f | %.2f..%.2f | %s | %s |" % (
            r["case"], r["size"], r["baseline"], fmt_time(r["ember_med"]), fmt_time(r["baseline_med"]), r["ratio"],
            r["min"], r["max"], target, met))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("inputs", nargs="*", default=[os.path.join(ROOT, "bench", "RESULTS.md")])
    ap.add_argument("-o", "--output", default=os.path.join(ROOT, "docs", "cpu-benchmarks.png"))
    ap.add_argument("--markdown", action="store_true", help="print the median table instead of plotting")
    ap.add_argument("--series", help="comma-separated series numbers of the raw blocks to use (default: all lines)")
    args = ap.parse_args()
    rows = group(read_rows(args.inputs, args.series.split(",") if args.series else None))
    if not rows:
        sys.exit("plot.py: no cpu-backend JSON lines found in " + ", ".join(args.inputs))
    if args.markdown:
        print_markdown(rows)
        return
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot.py: needs matplotlib (pip install matplotlib)")

    labels = ["%s  %s  vs %s" % (r["case"], r["size"], r["baseline"]) for r in rows]
    labels = [l + ("  (Ember %.0f ns; target <= 150 ns)" % (r["ember_med"] * 1e9) if r["case"] == "add_overhead_1elem" else "")
              for l, r in zip(labels, rows)]
    ratios = [r["ratio"] for r in rows]
    lo = [r["ratio"] - r["min"] for r in rows]
    hi = [r["max"] - r["ratio"] for r in rows]
    targets = [target_for(r) for r in rows]
    colors = []
    for row, r, t in zip(rows, ratios, targets):
        if row["case"] == "add_overhead_1elem":  # absolute target: Ember's time
            colors.append("#2ca02c" if row["ember_med"] <= OVERHEAD_TARGET_S else "#d62728")
        elif t is None:
            colors.append("#7f7f7f")
        elif r >= t:
            colors.append("#2ca02c")
        else:
            colors.append("#d62728")

    fig, ax = plt.subplots(figsize=(12, 0.32 * len(rows) + 1.8))
    y = list(range(len(rows)))[::-1]
    ax.barh(y, ratios, color=colors, height=0.7, xerr=[lo, hi], error_kw={"elinewidth": 0.8, "capsize": 2})
    for yi, t in zip(y, targets):
        if t is not None:
            ax.plot([t, t], [yi - 0.45, yi + 0.45], color="black", linewidth=2)
    for yi, r in zip(y, ratios):
        ax.text(r * 1.04, yi + 0.18, "%.2f" % r, va="center", fontsize=7)
    ax.axvline(1.0, color="#555555", linewidth=0.8, linestyle="--")
    ax.set_xscale("log")
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=8)
    ax.set_xlabel("ratio = baseline time / Ember time (log scale; right of 1: Ember faster)")
    fig.suptitle("Ember cpu backend vs baselines: median of %d runs (whiskers: min..max); | marks the issue-4 target,\n"
                 "green bars meet it, red bars miss it, grey: no target" % max(r["runs"] for r in rows), fontsize=9)
    ax.set_xlim(min(0.1, min(ratios) * 0.8), max(10, max(ratios) * 1.5))
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    fig.savefig(args.output, dpi=110)
    print("plot.py: wrote %s (%d cases)" % (args.output, len(rows)))


if __name__ == "__main__":
    main()
