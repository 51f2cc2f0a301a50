"""Turns benches/gpu/multi.sh's rows.csv into report.md and PNG plots.

    python3 benches/gpu/multi_report.py ROWS.csv OUTDIR

Per configuration (bench, m, k, n, d): every implementation's mean time, TFLOP/s per GPU, the
speedup over the serial implementation and % of ideal, where ideal = max(T_gemm, T_comm) from
the `gemm_alone` and `comm_alone` rows of the same configuration (measured in the same call).
FLOPs per GPU: ag_gemm 2*m*k*n (n = n_local, the gathered rows times the local weight);
gemm_rs and row_ar 2*m*(k/d)*n (k = k_global). Plots (matplotlib, skipped when missing):
ag_gemm TFLOP/s and % of ideal against n_local, one line per implementation, one file per m.
"""

import csv
import os
import sys
from collections import defaultdict

SERIAL = {"ag_gemm": "gather_then_gemm", "gemm_rs": "serial", "row_ar": "serial"}
REFS = ("gemm_alone", "comm_alone")


def flops(bench, m, k, n, d):
    return 2.0 * m * k * n if bench == "ag_gemm" else 2.0 * m * (k / d) * n


def load(path):
    configs = defaultdict(dict)
    for r in csv.DictReader(open(path)):
        key = (r["bench"], int(r["m"]), int(r["k"]), int(r["n"]), int(r["d"]))
        try:
            configs[key][r["impl"]] = float(r["mean_ms"])
        except ValueError:
            configs[key][r["impl"]] = None  # FAILED
    return configs


def rows_of(key, impls):
    bench, m, k, n, d = key
    t_gemm, t_comm = impls.get("gemm_alone"), impls.get("comm_alone")
    ideal = max(t_gemm, t_comm) if t_gemm and t_comm else None
    serial = impls.get(SERIAL.get(bench, ""))
    out = []
    for impl, t in impls.items():
        if t is None:
            out.append((impl, None, None, None, None))
            continue
        tflops = 0.0 if impl == "comm_alone" else flops(bench, m, k, n, d) / (t * 1e-3) / 1e12
        speed = serial / t if serial and impl not in REFS else None
        pct = 100.0 * ideal / t if ideal and impl not in REFS else None
        out.append((impl, t, tflops, speed, pct))
    return out


def fmt(v, spec):
    return "-" if v is None else format(v, spec)


def report(configs, outdir):
    lines = ["# Multi-GPU benchmark report (benches/gpu/multi.sh)", ""]
    lines.append("ideal = max(T_gemm, T_comm), both measured alone in the same call; "
                 "speedup is over the serial implementation.")
    for key in sorted(configs):
        bench, m, k, n, d = key
        lines += ["", f"## {bench} m={m} k={k} n={n} d={d}", "",
                  "| implementation | mean ms | TFLOP/s per GPU | speedup vs serial | % of ideal |",
                  "|---|---|---|---|---|"]
        for impl, t, tf, sp, pct in rows_of(key, configs[key]):
            if t is None:
                lines.append(f"| {impl} | FAILED | | | |")
            else:
                lines.append(f"| {impl} | {t:.3f} | {tf:.0f} | {fmt(sp, '.2f')} | {fmt(pct, '.0f')} |")
    path = os.path.join(outdir, "report.md")
    open(path, "w").write("\n".join(lines) + "\n")
    return path


def plots(configs, outdir):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("multi_report: matplotlib missing, no plots", file=sys.stderr)
        return
    by_m = defaultdict(dict)
    for key, impls in configs.items():
        if key[0] == "ag_gemm":
            by_m[key[1]][key[3]] = rows_of(key, impls)
    for m, per_n in by_m.items():
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
        impls = sorted({r[0] for rows in per_n.values() for r in rows if r[0] != "comm_alone"})
        for i, impl in enumerate(impls):
            color = f"C{i % 10}"
            pts = [(n, r) for n, rows in sorted(per_n.items()) for r in rows if r[0] == impl and r[1]]
            ax1.plot([n for n, _ in pts], [r[2] for _, r in pts], marker="o", color=color, label=impl)
            if impl not in REFS:
                ax2.plot([n for n, r in pts if r[4]], [r[4] for _, r in pts if r[4]], marker="o", color=color, label=impl)
        for ax, title in ((ax1, "TFLOP/s per GPU"), (ax2, "% of ideal max(T_gemm, T_comm)")):
            ax.set_xscale("log", base=2)
            ax.set_xlabel("n_local")
            ax.set_title(f"AG+GEMM m={m}: {title}")
            ax.grid(alpha=0.3)
        ax1.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, f"ag_gemm_m{m}.png"), dpi=110)
        plt.close(fig)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: multi_report.py ROWS.csv OUTDIR")
    configs = load(sys.argv[1])
    print(open(report(configs, sys.argv[2])).read())
    plots(configs, sys.argv[2])


if __name__ == "__main__":
    main()
