#!/usr/bin/env python3
"""Per-pass, per-layer cost of a lowering pipeline as the program grows.

For each size N, writes an N-layer stack of sequence-parallel MLP layers with `gen-layers`
(benches/layers.rs; with `--chain`, a chain of N stream-chunked linears), lowers it with each given `fuser-opt` binary and `--mlir-timing`, several
times, and keeps the fastest wall time of every pass (the minimum is the least disturbed by
other load on the machine). Prints, per binary, a markdown table of microseconds per layer and
the ratio of the largest size to the smallest (1.0 = linear).

    benches/lowering_scaling.py --gen target/release/gen-layers \
        --opt before=/path/to/old/fuser-opt --opt after=target/release/fuser-opt \
        --sizes 1000,3000,10000,30000 --reps 5 --csv out.csv --plot out.png

`--plot` needs matplotlib; the CSV holds every repetition (binary, layers, pass, rep, seconds).
"""

import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile

# `    0.0178 ( 18.9%)    0.0178 ( 18.9%)    FusionToHost`: user time, wall time, name.
TIMING_LINE = re.compile(r"^\s*([0-9.]+) \(\s*[0-9.]+%\)\s+([0-9.]+) \(\s*[0-9.]+%\)\s+(.+?)\s*$")


def parse_timing(report):
    """Wall seconds per entry of a --mlir-timing report, in report order."""
    times = {}
    for line in report.splitlines():
        m = TIMING_LINE.match(line)
        if m:
            times[m.group(3)] = times.get(m.group(3), 0.0) + float(m.group(2))
    if "Total" not in times:
        raise RuntimeError("no --mlir-timing report in the output:\n" + report[-2000:])
    return times


def lower_once(opt, path, pipeline):
    cmd = [opt, path, f"--pass-pipeline=builtin.module({pipeline})", "--mlir-timing", "-o", os.devnull]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stderr[-2000:]}")
    return parse_timing(done.stderr)


def measure(args, workdir):
    """rows of (binary, layers, pass, rep, seconds); pass order as in the first report."""
    rows, order = [], []
    for n in args.sizes:
        path = os.path.join(workdir, f"layers{n}.mlir")
        subprocess.run([args.gen] + (["--chain"] if args.chain else []) + [str(n), path], check=True)
        for rep in range(args.reps):
            for name, opt in args.opt:
                times = lower_once(opt, path, args.pipeline)
                for p, s in times.items():
                    if p not in order:
                        order.append(p)
                    rows.append((name, n, p, rep, s))
                print(f"  {name} {n} layers rep {rep}: total {times['Total']:.3f} s", file=sys.stderr)
        os.remove(path)
    return rows, order


def fastest(rows):
    best = {}
    for name, n, p, _, s in rows:
        key = (name, n, p)
        best[key] = min(s, best.get(key, s))
    return best


def table(name, sizes, order, best):
    head = "| pass | " + " | ".join(f"{n:,} layers" for n in sizes) + f" | ratio {sizes[-1]:,}/{sizes[0]:,} |"
    lines = [f"`{name}`: microseconds per layer (fastest of the repetitions)", "", head,
             "|" + "---|" * (len(sizes) + 2)]
    for p in order:
        per_layer = [best.get((name, n, p), 0.0) / n * 1e6 for n in sizes]
        ratio = per_layer[-1] / per_layer[0] if per_layer[0] > 0 else float("nan")
        lines.append(f"| {p} | " + " | ".join(f"{t:.2f}" for t in per_layer) + f" | {ratio:.2f} |")
    return "\n".join(lines)


def plot(path, sizes, names, best, passes):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(passes), figsize=(5.5 * len(passes), 4.2), squeeze=False)
    for ax, p in zip(axes[0], passes):
        for name in names:
            ys = [best.get((name, n, p), 0.0) / n * 1e6 for n in sizes]
            ax.plot(sizes, ys, marker="o", label=name)
        ax.set_xscale("log")
        ax.set_ylim(bottom=0)
        ax.set_xlabel("layers")
        ax.set_ylabel("microseconds per layer")
        ax.set_title(p)
        ax.grid(True, alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gen", required=True, help="the gen-layers binary")
    ap.add_argument("--opt", action="append", required=True, metavar="NAME=PATH", help="a fuser-opt binary")
    ap.add_argument("--sizes", default="1000,3000,10000,30000")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--pipeline", default="tp-default")
    ap.add_argument("--chain", action="store_true", help="a chain of stream-chunked linears instead of MLP layers")
    ap.add_argument("--csv")
    ap.add_argument("--plot")
    ap.add_argument("--plot-passes", default="FusionToHost,Total")
    args = ap.parse_args()
    args.opt = [tuple(o.split("=", 1)) if "=" in o else (o, o) for o in args.opt]
    args.sizes = [int(s.replace("_", "")) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as workdir:
        rows, order = measure(args, workdir)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["binary", "layers", "pass", "rep", "seconds"])
            w.writerows(rows)
    best = fastest(rows)
    for name, _ in args.opt:
        print(table(name, args.sizes, order, best))
        print()
    if args.plot:
        plot(args.plot, args.sizes, [n for n, _ in args.opt], best, args.plot_passes.split(","))


if __name__ == "__main__":
    main()
