"""Turns the CSVs of benches/gpu/run.sh into report.md (one table per section) and PNG plots.

    python3 benches/gpu/run_report.py OUTDIR

Sections (each optional): gemm.csv, chunks.csv, hostcost.csv, contention.csv. Plots:
chunks.png (time against stream chunks, one line per size and mode) and hostcost.png (host
cost per chunk against the chunk count, eager and CUDA graph). matplotlib missing: no plots.
"""

import csv
import os
import sys
from collections import defaultdict

TITLES = {
    "gemm": "GEMMs: ours (cuBLAS / cuBLASLt) against torch on the same shapes",
    "chunks": "A GEMM in S stream chunks: eager against CUDA graph replay",
    "hostcost": "Host cost per chunk: eager against CUDA graph replay",
    "contention": "A GEMM beside a transfer on another stream: T(both) / max(T_gemm, T_transfer)",
}


def read(outdir, name):
    path = os.path.join(outdir, f"{name}.csv")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return list(csv.DictReader(f))


def table(rows):
    if not rows:
        return ["(no rows)"]
    cols = list(rows[0].keys())
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    out += ["| " + " | ".join(str(r.get(c, "")) for c in cols) + " |" for r in rows]
    return out


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def plot_lines(path, series, xlabel, ylabel, title, logx=True):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("run_report: matplotlib missing, no plots", file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for label, pts in sorted(series.items()):
        pts = sorted(p for p in pts if p[1] is not None)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
    if logx:
        ax.set_xscale("log", base=2)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: run_report.py OUTDIR")
    outdir = sys.argv[1]
    lines = ["# One H200: GEMMs, stream chunks, host cost, contention (benches/gpu/run.sh)"]
    gpu = os.path.join(outdir, "gpu.txt")
    if os.path.exists(gpu):
        lines += ["", "GPU: " + open(gpu).read().strip()]
    data = {}
    for name, title in TITLES.items():
        rows = read(outdir, name)
        if rows is None:
            continue
        data[name] = rows
        lines += ["", f"## {title}", ""] + table(rows)
    report = "\n".join(lines) + "\n"
    open(os.path.join(outdir, "report.md"), "w").write(report)
    print(report)
    if "chunks" in data:
        series = defaultdict(list)
        for r in data["chunks"]:
            series[f"{r['size']}^3 {r['mode']}"].append((int(r["chunks"]), num(r["mean_ms"])))
        plot_lines(os.path.join(outdir, "chunks.png"), series, "stream chunks S", "ms per iteration",
                   "bf16 GEMM in S stream chunks, one H200")
    if "hostcost" in data:
        series = defaultdict(list)
        for r in data["hostcost"]:
            series[r["mode"]].append((int(r["chunks"]), num(r["us_per_chunk"])))
        plot_lines(os.path.join(outdir, "hostcost.png"), series, "chunks per iteration", "µs per chunk",
                   "Host cost per chunk (64x64x64 GEMM chunks), one H200")


if __name__ == "__main__":
    main()
