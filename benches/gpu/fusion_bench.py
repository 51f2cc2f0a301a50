#!/usr/bin/env python3
"""The kernel-fusion benchmark of issue 24 (item 4): fuser-run against torch eager and
torch.compile on one GPU, bf16. Driven by benches/gpu/fusion.sh (one device call); results in
$OUT (results.json, report.md, fusion_gbps.png), rewritten after every case so that a timeout
keeps what was measured.

Parts (--parts, comma-separated):
  kernels  the memory-bound programs of fusion_programs.py (add, gelu_bias,
           bias_dropout_residual, layer_norm, rms_norm at rows x hidden; softmax over 2048-8192
           columns at ~the same bytes; the GPT-3 layer's non-GEMM part at seq 2048 x hidden
           12288, ffn 49152). For each: a small `fuser-run --check` on the backend (are the
           kernels right?), then `fuser-run --warmup W --iters K --trace` (the device time of
           the ops of each timed iteration from the trace's timing events, which include the
           host's enqueue latency where the GPU waits for the host) and `fuser-run --cuda-graph`
           (wall time per graph replay, launch and synchronization included): fuser's time is
           the smaller of the two, both upper bounds of the device time. Against torch eager
           and torch.compile (default mode, dynamic=False, compiled once per row and shape;
           CUDA events around K back-to-back calls after W warmup calls) and dst.copy_(src) of
           bytes/2 (the device-to-device copy bandwidth on the same bytes read + written). Per
           row: the ideal bytes moved (inputs read once + outputs written once), ms, GB/s, the
           fraction of the copy bandwidth, torch eager ms / fuser ms and torch.compile ms /
           fuser ms (above 1: fuser is faster).
  linear   fusion.linear with bias (x [m, k], w [n, k], bias [n]) on the GEMM shapes of the
           GPT-3 175B layer (m = 2048: 12288 -> 36864, 12288 -> 12288, 12288 -> 49152,
           49152 -> 12288) and of the Llama-3-70B layer (m = 4096: 8192 -> 10240, 8192 ->
           8192, 8192 -> 28672, 28672 -> 8192) with `--gemm auto`, `cublas` and `cublaslt`,
           against F.linear; fuser's time from --trace (GEMMs of milliseconds: the host's
           latency does not show); TFLOP/s and F.linear ms / fuser ms.
  layer    the whole GPT-3 175B and Llama-3-70B layer forward at d = 1 through
           examples/transformer/vs_torch.py (fuser-run ms against torch eager and torch.compile
           ms, and the error against torch's f32 layer; --pass-pipeline and --layer-fuser-args
           (e.g. --cuda-graph) reach its fuser-run).

--dry-run runs every program small on the cpu backend with --check (no torch, no GPU): what
test/Examples/fusion-bench.mlir and a local run check before spending device time.

  python3 benches/gpu/fusion_bench.py --fuser-run .gpu/fuser-run --out /tmp/fusion
  python3 benches/gpu/fusion_bench.py --dry-run --fuser-run target/debug/fuser-run --out /tmp/fb
"""

import argparse
import datetime
import json
import math
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import fusion_programs as fp  # noqa: E402

# The elementwise/normalization kernels timed on every (rows, hidden) shape of the grid.
ROW_KERNELS = ["add", "gelu_bias", "bias_dropout_residual", "layer_norm", "rms_norm"]
# (rows, hidden), in the order they run (the costliest last: a part over its budget drops it):
# the default grid covers every row count and every hidden size of {2048, 8192, 16384} x
# {4096, 12288, 16384} in 5 shapes; --full takes all 9.
SHAPES = [(2048, 12288), (8192, 12288), (2048, 4096), (16384, 4096), (16384, 16384)]
FULL_SHAPES = SHAPES + [(2048, 16384), (8192, 4096), (8192, 16384), (16384, 12288)]
QUICK_SHAPES = [(2048, 12288), (8192, 12288)]
# softmax: columns 2048, 4096, 8192 at 64 Mi elements (128 MiB of bf16) each.
SOFTMAX = [(32768, 2048), (16384, 4096), (8192, 8192)]
QUICK_SOFTMAX = [(16384, 4096)]
GPT3 = (2048, 12288)  # seq, hidden (ffn 4 x hidden)
# (layer, GEMM, m, n, k)
LINEARS = [
    ("gpt3", "qkv", 2048, 36864, 12288),
    ("gpt3", "proj", 2048, 12288, 12288),
    ("gpt3", "fc1", 2048, 49152, 12288),
    ("gpt3", "fc2", 2048, 12288, 49152),
    ("llama", "qkv", 4096, 10240, 8192),
    ("llama", "o", 4096, 8192, 8192),
    ("llama", "gate/up", 4096, 28672, 8192),
    ("llama", "down", 4096, 8192, 28672),
]
QUICK_LINEARS = [LINEARS[0], LINEARS[6]]
GEMM_LIBS = ["auto", "cublas", "cublaslt"]
LAYERS = {
    "gpt3": ["gpt3", "--seq", "2048", "--hidden", "12288", "--heads", "96"],
    "llama": ["llama", "--seq", "4096", "--hidden", "8192", "--heads", "64", "--kv-heads", "8", "--ffn", "28672"],
}
# The shape of the small `--check` run of each kernel on the benchmark's backend.
CHECK_SHAPE = (64, 1024)
DRY_SHAPES = [(8, 16), (4, 32)]


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


# ---------------------------------------------------------------------------------------------
# fuser-run


def text(v):
    """A captured output as text (bytes from an interrupted run)."""
    return v.decode(errors="replace") if isinstance(v, bytes) else (v or "")


def parse_csv(path):
    """The (mean, min) ms of fuser-run's --csv row, or None."""
    try:
        with open(path) as f:
            lines = [line.strip() for line in f if line.strip()]
        head, row = lines[0].split(","), lines[1].split(",")
        d = dict(zip(head, row))
        return float(d["mean_time_ms"]), float(d["min_time_ms"])
    except (OSError, IndexError, KeyError, ValueError):
        return None


def parse_trace(path, warmup, iters):
    """(device ms of each timed iteration, {op name: count} of the last one): the sum of the
    durations of rank 0's ops per iteration. The trace holds every iteration, warmup included,
    the same ops each; should the warmup hold more (one-time work), the timed iterations are the
    last iters x (events // iterations) events."""
    try:
        with open(path) as f:
            events = [e for e in json.load(f)["traceEvents"] if e.get("ph") == "X" and e.get("pid", 0) == 0]
    except (OSError, ValueError, KeyError):
        return None, None
    per = len(events) // (warmup + iters)
    if not per:
        return None, None
    events.sort(key=lambda e: e["ts"])
    timed = events[len(events) - iters * per:]
    times = [sum(e["dur"] for e in timed[i * per:(i + 1) * per]) / 1e3 for i in range(iters)]
    names = {}
    for e in timed[-per:]:
        names[e["name"]] = names.get(e["name"], 0) + 1
    return times, names


class Fuser:
    def __init__(self, a):
        self.bin = a.fuser_run
        self.backend = a.backend
        self.pipeline = a.pass_pipeline
        self.out = a.out
        self.timeout = a.case_timeout
        os.makedirs(os.path.join(self.out, "programs"), exist_ok=True)
        os.makedirs(os.path.join(self.out, "logs"), exist_ok=True)

    def write(self, name, prog):
        path = os.path.join(self.out, "programs", f"{name}.mlir")
        with open(path, "w") as f:
            f.write(prog.text)
        return path

    def run(self, name, path, extra):
        """Runs fuser-run on `path`; (ok, stdout+stderr tail, wall seconds)."""
        cmd = [self.bin, path, "--backend", self.backend] + extra
        if self.pipeline:
            cmd += ["--pass-pipeline", self.pipeline]
        logp = os.path.join(self.out, "logs", f"{name}.log")
        start = time.time()
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=self.timeout)
            out, ok = r.stdout + r.stderr, r.returncode == 0
        except subprocess.TimeoutExpired as e:
            out, ok = f"{text(e.stdout)}{text(e.stderr)}\ntimed out after {self.timeout:.0f} s", False
        secs = time.time() - start
        with open(logp, "w") as f:
            f.write("$ " + " ".join(cmd) + "\n" + out)
        return ok, out, secs

    def check(self, name, path):
        """`--check` (the unsharded f64 reference); 'PASS (max rel err ...)' or 'FAIL: ...'."""
        ok, out, _ = self.run(name + "-check", path, ["--check", "--timeout", "120"])
        m = re.search(r"check: PASS \(([^)]*)\)", out)
        if ok and m:
            return "PASS (" + m.group(1) + ")"
        tail = " ".join(line for line in out.strip().splitlines()[-3:])
        return "FAIL: " + tail[-300:]

    def time(self, name, path, warmup, iters, graph=False, gemm=None):
        """One timed run: {'wall_ms', 'wall_min_ms', 'gpu_ms', 'gpu_min_ms'} (gpu_* from the trace,
        eager runs only) or {'error': ...}."""
        csv = os.path.join(self.out, "logs", f"{name}.csv")
        extra = ["--warmup", str(max(warmup, 1)), "--iters", str(iters), "--csv", csv, "--timeout", "120"]
        trace = None
        if graph:
            extra.append("--cuda-graph")
        else:
            trace = os.path.join(self.out, "logs", f"{name}.trace.json")
            extra += ["--trace", trace]
        if gemm:
            extra += ["--gemm", gemm]
        ok, out, secs = self.run(name, path, extra)
        if not ok:
            tail = " ".join(out.strip().splitlines()[-3:])
            return {"error": tail[-400:], "run_s": secs}
        res = {"run_s": round(secs, 2)}
        c = parse_csv(csv)
        if c:
            res["wall_ms"], res["wall_min_ms"] = c
        m = re.search(r"^\s*0\s+[0-9.]+\s+[0-9.]+\s+([0-9]+)\s+([0-9]+)\s*$", out, re.M)
        if m:
            res["ops_per_it"] = int(m.group(1))
        if graph and "measured as cuda graph replays" not in out:
            notes = " ".join(line for line in out.splitlines() if "note" in line)
            res["note"] = "ran eagerly (no graph): " + notes[:300]
        if trace:
            per, names = parse_trace(trace, max(warmup, 1), iters)
            if per:
                res["gpu_ms"], res["gpu_min_ms"] = statistics.median(per), min(per)
                res["trace_ops"] = names
            try:
                os.remove(trace)  # the per-iteration times are what we keep
            except OSError:
                pass
        return res


# ---------------------------------------------------------------------------------------------
# torch (imported only when used: the dry run needs none)


class Torch:
    def __init__(self, warmup, iters, compile_=True):
        import torch
        import torch.nn.functional as F
        self.torch, self.F = torch, F
        self.dev = torch.device("cuda")
        self.warmup, self.iters, self.compile = warmup, iters, compile_
        self.copy_cache = {}
        cfg = torch._dynamo.config
        for knob in ("cache_size_limit", "recompile_limit", "accumulated_cache_size_limit",
                     "accumulated_recompile_limit"):
            if hasattr(cfg, knob):
                setattr(cfg, knob, 1024)

    def version(self):
        t = self.torch
        return {"torch": t.__version__, "cuda": t.version.cuda, "gpu": t.cuda.get_device_name(0)}

    def tensors(self, prog):
        """Device tensors for the program's arguments (seed/offset are not torch's: dropout draws
        from torch's own generator)."""
        t = {}
        g = self.torch
        dt = {"bf16": g.bfloat16, "f16": g.float16, "f32": g.float32, "f64": g.float64}
        for name, shape, elem in prog.args:
            if elem == "i64":
                continue
            v = g.randn(shape, device=self.dev, dtype=dt[elem])
            if name in ("weight", "ln1_w", "ln2_w"):
                v = 1 + 0.02 * v
            elif name.startswith("b") or name.endswith("_b"):
                v = 0.02 * v
            t[name] = v
        return t

    def fn(self, kind, cols):
        F, torch, p, eps = self.F, self.torch, fp.DROPOUT_P, fp.EPS
        if kind == "add":
            return lambda t: t["x"] + t["y"]
        if kind == "gelu_bias":
            return lambda t: F.gelu(t["x"] + t["bias"], approximate="tanh")
        if kind == "bias_dropout_residual":
            return lambda t: t["residual"] + F.dropout(t["x"] + t["bias"], p=p, training=True)
        if kind == "layer_norm":
            return lambda t: F.layer_norm(t["x"], (cols,), t["weight"], t["bias"], eps)
        if kind == "rms_norm":
            return lambda t: F.rms_norm(t["x"], (cols,), t["weight"], eps)
        if kind == "softmax":
            return lambda t: torch.softmax(t["x"], dim=-1)
        if kind == "linear":
            return lambda t: F.linear(t["x"], t["w"], t["bias"])
        if kind == "gpt3_nongemm":
            def layer(t):
                h = F.layer_norm(t["x"], (cols,), t["ln1_w"], t["ln1_b"], eps)
                qkv = t["qkv_mm"] + t["b_qkv"]
                x1 = t["x"] + F.dropout(t["proj_mm"] + t["b_o"], p=p, training=True)
                h2 = F.layer_norm(x1, (cols,), t["ln2_w"], t["ln2_b"], eps)
                g = F.gelu(t["fc1_mm"] + t["b_1"], approximate="tanh")
                y = x1 + F.dropout(t["fc2_mm"] + t["b_2"], p=p, training=True)
                return h, qkv, x1, h2, g, y
            return layer
        raise ValueError(kind)

    def events(self, call):
        """ms per call: CUDA events around `iters` back-to-back calls after `warmup` calls."""
        torch = self.torch
        for _ in range(self.warmup):
            call()
        torch.cuda.synchronize()
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        for _ in range(self.iters):
            call()
        e.record()
        e.synchronize()
        return s.elapsed_time(e) / self.iters

    def time(self, prog, kind, cols, compile_=None):
        """{'eager_ms', 'compile_ms', 'compile_s'} of the program's computation in torch."""
        torch = self.torch
        t = self.tensors(prog)
        f = self.fn(kind, cols)
        res = {}
        try:
            res["eager_ms"] = self.events(lambda: f(t))
        except Exception as e:  # noqa: BLE001
            res["eager_error"] = f"{type(e).__name__}: {e}"[:300]
        if self.compile if compile_ is None else compile_:
            try:
                torch._dynamo.reset()
                c = torch.compile(f, dynamic=False)
                start = time.time()
                c(t)
                torch.cuda.synchronize()
                res["compile_s"] = round(time.time() - start, 2)
                res["compile_ms"] = self.events(lambda: c(t))
            except Exception as e:  # noqa: BLE001
                res["compile_error"] = f"{type(e).__name__}: {e}"[:300]
        t.clear()  # free the tensors before fuser-run's next process needs the memory
        torch.cuda.empty_cache()
        return res

    def copy(self, nbytes):
        """(ms, GB/s) of dst.copy_(src) moving `nbytes` (nbytes / 2 read and nbytes / 2 written)."""
        n = nbytes // 2
        if n not in self.copy_cache:
            torch = self.torch
            src = torch.empty(n, dtype=torch.uint8, device=self.dev)
            dst = torch.empty_like(src)
            ms = self.events(lambda: dst.copy_(src))
            del src, dst
            torch.cuda.empty_cache()
            self.copy_cache[n] = ms
        ms = self.copy_cache[n]
        return ms, 2 * n / (ms * 1e-3) / 1e9


# ---------------------------------------------------------------------------------------------
# results


def gbps(nbytes, ms):
    return nbytes / (ms * 1e-3) / 1e9 if ms else None


def ratio(num, den):
    return num / den if num and den else None


def fmt(v, spec=".3f", none="—"):
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return none
    return format(v, spec)


def kernel_rows(rows):
    """The kernels part's rows by kernel, then rows, then columns."""
    ks = [r for r in rows if r["part"] == "kernels"]
    return sorted(ks, key=lambda r: (fp.KERNELS.index(r["kernel"]), r["rows"], r["cols"]))


class Results:
    def __init__(self, a, meta):
        self.a = a
        self.meta = meta
        self.rows = []
        self.skipped = []

    def add(self, rec):
        self.rows.append(rec)
        self.save()

    def skip(self, what, why):
        self.skipped.append(f"{what}: {why}")
        log(f"skip {what}: {why}")
        self.save()

    def save(self):
        with open(os.path.join(self.a.out, "results.json"), "w") as f:
            json.dump({"meta": self.meta, "rows": self.rows, "skipped": self.skipped}, f, indent=1)
        with open(os.path.join(self.a.out, "report.md"), "w") as f:
            f.write(self.markdown())

    def markdown(self):
        m = self.meta
        out = [f"# Kernel fusion benchmark (issue 24, item 4){' — dry run' if self.a.dry_run else ''}", "",
               f"Command: `{m['command']}`  ",
               f"Started {m['started']}; fuser-run `{m['fuser_run']}`, backend {m['backend']}, "
               f"pipeline `{m['pipeline'] or 'default (tp-default)'}`; warmup {m['warmup']}, iters {m['iters']}.  ",
               f"Device: {m.get('torch', {}).get('gpu', '—')}; torch {m.get('torch', {}).get('torch', '—')} "
               f"(CUDA {m.get('torch', {}).get('cuda', '—')}).", ""]
        ks = kernel_rows(self.rows)
        if ks:
            out += ["## Memory-bound kernels", "",
                    "trace ms: the device time of the program's ops per iteration (`--trace`: timing events "
                    "around each op, so it includes the host's enqueue latency where the GPU waits for the "
                    "host); graph ms / eager wall ms: fuser-run's wall time per iteration with `--cuda-graph` / "
                    "eagerly (launch and synchronization included); trace ms is the median, the wall times the "
                    "mean over the timed iterations. fuser ms "
                    "= the smaller of trace ms and graph ms (both bound the device time from above; t / g says "
                    "which). torch: CUDA events around back-to-back calls. GB/s = ideal bytes moved / time; "
                    "copy = `dst.copy_(src)` on the same bytes. vs eager / vs compile = torch ms / fuser ms "
                    "(above 1: fuser faster); ops/it: the "
                    "ops fuser-run ran per iteration (kernels and copies). Goals: % copy >= 85 and vs compile >= 1.0.",
                    "",
                    "| kernel | shape | MB moved | copy GB/s | fuser ms | fuser GB/s | % copy | eager ms | eager GB/s "
                    "| compile ms | compile GB/s | vs eager | vs compile | trace ms | graph ms | eager wall ms "
                    "| ops/it | check |",
                    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
            for r in ks:
                f, t = r.get("fuser", {}), r.get("torch", {})
                g = r.get("graph", {})
                errs = (("fuser", f.get("error")), ("graph", g.get("error") or g.get("note")),
                        ("eager", t.get("eager_error")), ("compile", t.get("compile_error")))
                err = "; ".join(f"{k}: {v}" for k, v in errs if v)
                out.append("| " + " | ".join([
                    r["kernel"], r["shape"], fmt(r["bytes"] / 1e6, ".1f"), fmt(r.get("copy_gbps"), ".0f"),
                    fmt(r.get("fuser_ms"), ".4f") + (f" ({r['fuser_src'][0]})" if r.get("fuser_src") else ""),
                    fmt(r.get("fuser_gbps"), ".0f"),
                    fmt(100 * r["frac_copy"] if r.get("frac_copy") else None, ".1f"),
                    fmt(t.get("eager_ms"), ".4f"), fmt(gbps(r["bytes"], t.get("eager_ms")), ".0f"),
                    fmt(t.get("compile_ms"), ".4f"), fmt(gbps(r["bytes"], t.get("compile_ms")), ".0f"),
                    fmt(r.get("vs_eager"), ".2f"), fmt(r.get("vs_compile"), ".2f"),
                    fmt(f.get("gpu_ms"), ".4f"), fmt(g.get("wall_ms"), ".4f"), fmt(f.get("wall_ms"), ".4f"),
                    str(f.get("ops_per_it", "—")),
                    (r.get("check") or "—")[:60] + (f" ERROR: {err[:200]}" if err else "")]) + " |")
            met = [r for r in ks if (r.get("frac_copy") or 0) >= 0.85 and (r.get("vs_compile") or 0) >= 1.0]
            out += ["", f"Goal met (>= 85% of copy and >= 1.0x torch.compile) on {len(met)} of {len(ks)} rows.", ""]
        ls = [r for r in self.rows if r["part"] == "linear"]
        if ls:
            out += ["## fusion.linear with bias against F.linear", "",
                    "ms: device time per call (`--trace`); TFLOP/s = 2mnk / time; vs F.linear = F.linear ms / "
                    "fuser ms (goal >= 1.0 with the default `--gemm auto`).", "",
                    "| layer | GEMM | m x n x k | auto ms | auto TFLOP/s | cublas ms | cublaslt ms | F.linear ms "
                    "| F.linear TFLOP/s | auto vs F.linear | cublas vs F.linear | cublaslt vs F.linear |",
                    "|---|---|---|---|---|---|---|---|---|---|---|---|"]
            for r in ls:
                lib = r.get("fuser", {})
                tms = r.get("torch", {}).get("eager_ms")

                def ms(x):
                    return lib.get(x, {}).get("gpu_ms")
                errs = "; ".join(f"{k}: {v['error'][:150]}" for k, v in lib.items() if "error" in v)
                out.append("| " + " | ".join([
                    r["layer"], r["gemm"], r["shape"], fmt(ms("auto"), ".3f"),
                    fmt(r["flops"] / (ms("auto") * 1e-3) / 1e12 if ms("auto") else None, ".0f"),
                    fmt(ms("cublas"), ".3f"), fmt(ms("cublaslt"), ".3f"), fmt(tms, ".3f"),
                    fmt(r["flops"] / (tms * 1e-3) / 1e12 if tms else None, ".0f"),
                    fmt(ratio(tms, ms("auto")), ".2f"), fmt(ratio(tms, ms("cublas")), ".2f"),
                    fmt(ratio(tms, ms("cublaslt")), ".2f") + (f" ERROR {errs}" if errs else "")]) + " |")
            met = [r for r in ls if (ratio((r.get("torch") or {}).get("eager_ms"),
                                           r.get("fuser", {}).get("auto", {}).get("gpu_ms")) or 0) >= 1.0]
            out += ["", f"Goal met (auto >= 1.0x F.linear) on {len(met)} of {len(ls)} shapes.", ""]
        ys = [r for r in self.rows if r["part"] == "layer"]
        if ys:
            out += ["## Layer forward (d = 1, examples/transformer/vs_torch.py)", "",
                    "fuser ms: fuser-run's mean wall time per iteration; torch: wall time over back-to-back "
                    "calls. compile / fuser above 1: fuser faster (goal: fuser ms <= torch.compile ms).", "",
                    "| layer | fuser ms | torch eager ms | torch.compile ms | eager / fuser | compile / fuser "
                    "| rel err | torch bf16 rel err |", "|---|---|---|---|---|---|---|---|"]
            for r in ys:
                j = r.get("result", {})
                c = j.get("torch_compile_ms") if isinstance(j.get("torch_compile_ms"), float) else None
                out.append("| " + " | ".join([
                    r["layer"], fmt(r.get("fuser_ms"), ".2f"), fmt(j.get("torch_eager_ms"), ".2f"),
                    fmt(c, ".2f") if c else str(j.get("torch_compile_ms", "—")),
                    fmt(ratio(j.get("torch_eager_ms"), r.get("fuser_ms")), ".2f"),
                    fmt(ratio(c, r.get("fuser_ms")), ".2f"), fmt(j.get("rel_err"), ".2e"),
                    fmt(j.get("torch_bf16_rel_err"), ".2e") + (f" ERROR {r['error'][:300]}" if r.get("error") else "")])
                    + " |")
            out.append("")
            for r in ys:
                c = r.get("result", {}).get("torch_compile_ms")
                if isinstance(c, float) and r.get("fuser_ms"):
                    out.append(f"- {r['layer']}: fuser {r['fuser_ms']:.2f} ms vs torch.compile {c:.2f} ms: goal "
                               f"{'met' if r['fuser_ms'] <= c else 'not met'} ({r['fuser_ms'] / c:.2f}x its time)")
            out.append("")
        if self.skipped:
            out += ["## Skipped", ""] + [f"- {s}" for s in self.skipped] + [""]
        return "\n".join(out) + "\n"

    def plot(self):
        ks = kernel_rows(self.rows)
        if not ks:
            return
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            self.skipped.append("fusion_gbps.png: matplotlib is not importable here")
            self.save()
            return
        kernels = [k for k in fp.KERNELS if any(r["kernel"] == k for r in ks)]
        cols = min(4, len(kernels))
        nrows = (len(kernels) + cols - 1) // cols
        fig, axes = plt.subplots(nrows, cols, figsize=(4.5 * cols, 3.6 * nrows), squeeze=False)
        for ax, k in zip(axes.flat, kernels):
            rs = [r for r in ks if r["kernel"] == k]
            xs = list(range(len(rs)))
            w = 0.27
            series = [("fuser", [r.get("fuser_gbps") for r in rs]),
                      ("torch eager", [gbps(r["bytes"], r.get("torch", {}).get("eager_ms")) for r in rs]),
                      ("torch.compile", [gbps(r["bytes"], r.get("torch", {}).get("compile_ms")) for r in rs])]
            for i, (label, ys) in enumerate(series):
                ax.bar([x + (i - 1) * w for x in xs], [y or 0 for y in ys], w, label=label)
            ax.plot(xs, [r.get("copy_gbps") or 0 for r in rs], "k_-", markersize=18, label="copy_ bandwidth")
            ax.set_xticks(xs)
            ax.set_xticklabels([r["shape"] for r in rs], rotation=30, fontsize=7)
            ax.set_title(k, fontsize=9)
            ax.set_ylabel("GB/s")
        for ax in list(axes.flat)[len(kernels):]:
            ax.axis("off")
        axes.flat[0].legend(fontsize=7)
        fig.suptitle(f"GB/s per kernel ({self.meta.get('torch', {}).get('gpu', self.meta['backend'])}, bf16)")
        fig.tight_layout()
        fig.savefig(os.path.join(self.a.out, "fusion_gbps.png"), dpi=110)
        plt.close(fig)


# ---------------------------------------------------------------------------------------------
# parts


class Budget:
    def __init__(self, seconds, deadline):
        self.end = min(time.time() + seconds, deadline)

    def left(self):
        return self.end - time.time()


def kernel_cases(a):
    if a.dry_run:
        shapes, soft, gpt = DRY_SHAPES, [DRY_SHAPES[0]], [(4, 16)]
    elif a.quick:
        shapes, soft, gpt = QUICK_SHAPES, QUICK_SOFTMAX, [GPT3]
    else:
        shapes, soft, gpt = (FULL_SHAPES if a.full else SHAPES), SOFTMAX, [GPT3]
    # The GPT-3 layer's part and softmax first: a part over its budget skips the last shapes
    # of the grid rather than a whole kernel.
    cases = [("gpt3_nongemm", r, c) for r, c in gpt] + [("softmax", r, c) for r, c in soft]
    for r, c in shapes:
        cases += [(k, r, c) for k in ROW_KERNELS]
    return [c for c in cases if not a.filter or a.filter in f"{c[0]}-{c[1]}x{c[2]}"]


def part_kernels(a, fuser, torch_, res, budget):
    cases = kernel_cases(a)
    if not a.dry_run:
        # Is every kernel right on this backend? (small, against the f64 reference)
        for k in fp.KERNELS:
            if not any(c[0] == k for c in cases):
                continue
            r, c = CHECK_SHAPE
            if k == "gpt3_nongemm":
                r, c = 16, 256
            path = fuser.write(f"{k}-check", fp.build(k, r, c, a.dtype))
            res.checks[k] = fuser.check(f"{k}-{r}x{c}", path)
            log(f"check {k} {r}x{c}: {res.checks[k]}")
    for kind, rows, cols in cases:
        name = f"{kind}-{rows}x{cols}"
        if budget.left() <= 0:
            res.skip(name, "over the kernels part's time budget")
            continue
        t0 = time.time()
        prog = fp.build(kind, rows, cols, a.dtype)
        path = fuser.write(name, prog)
        rec = {"part": "kernels", "kernel": kind, "rows": rows, "cols": cols, "shape": f"{rows}x{cols}",
               "dtype": a.dtype, "bytes": prog.bytes}
        if a.dry_run:
            rec["check"] = fuser.check(name, path)
        else:
            rec["check"] = res.checks.get(kind)
        rec["fuser"] = fuser.time(name, path, a.warmup, a.iters)
        if a.backend == "cuda" and not a.no_graph:
            rec["graph"] = fuser.time(name + "-graph", path, a.warmup, a.iters, graph=True)
        # Both are upper bounds of the device time of an iteration: the trace's op times hold the
        # host's enqueue latency where the GPU waits for it (small kernels), the graph replay's
        # wall time its launch and synchronization. The smaller one is fuser's time.
        cands = [(v, src) for v, src in ((rec["fuser"].get("gpu_ms"), "trace"),
                                         (rec.get("graph", {}).get("wall_ms"), "graph")) if v]
        ms, rec["fuser_src"] = min(cands) if cands else (None, None)
        rec["fuser_ms"] = ms
        rec["fuser_gbps"] = gbps(prog.bytes, ms)
        if torch_:
            rec["torch"] = torch_.time(prog, kind, cols)
            rec["copy_ms"], rec["copy_gbps"] = torch_.copy(prog.bytes)
            rec["frac_copy"] = ratio(rec["fuser_gbps"], rec["copy_gbps"])
            rec["vs_eager"] = ratio(rec["torch"].get("eager_ms"), ms)
            rec["vs_compile"] = ratio(rec["torch"].get("compile_ms"), ms)
        rec["case_s"] = round(time.time() - t0, 1)
        log(f"{name}: fuser {fmt(ms, '.4f')} ms ({fmt(rec['fuser_gbps'], '.0f')} GB/s, "
            f"{fmt(100 * rec['frac_copy'] if rec.get('frac_copy') else None, '.1f')}% of copy), "
            f"eager {fmt(rec.get('torch', {}).get('eager_ms'), '.4f')}, "
            f"compile {fmt(rec.get('torch', {}).get('compile_ms'), '.4f')} ms"
            + f" [{rec['case_s']} s]" + (f"; ERROR {rec['fuser']['error']}" if "error" in rec["fuser"] else ""))
        res.add(rec)


def part_linear(a, fuser, torch_, res, budget):
    shapes = QUICK_LINEARS if a.quick else LINEARS
    if a.dry_run:
        shapes = [("tiny", "qkv", 8, 24, 16), ("tiny", "fc2", 4, 8, 32)]
    libs = ["auto"] if a.dry_run else GEMM_LIBS
    for layer, gemm, m, n, k in shapes:
        name = f"linear-{layer}-{gemm.replace('/', '_')}-{m}x{n}x{k}"
        if a.filter and a.filter not in name:
            continue
        if budget.left() <= 0:
            res.skip(name, "over the linear part's time budget")
            continue
        t0 = time.time()
        prog = fp.build("linear", m, n, a.dtype, k=k)
        path = fuser.write(name, prog)
        rec = {"part": "linear", "layer": layer, "gemm": gemm, "shape": f"{m}x{n}x{k}", "m": m, "n": n, "k": k,
               "flops": prog.flops, "fuser": {}}
        if a.dry_run:
            rec["check"] = fuser.check(name, path)
        for lib in libs:
            rec["fuser"][lib] = fuser.time(f"{name}-{lib}", path, a.linear_warmup, a.linear_iters,
                                           gemm=None if a.dry_run else lib)
        if torch_:
            rec["torch"] = torch_.time(prog, "linear", n, compile_=False)  # F.linear is one cuBLAS(Lt) call
        rec["case_s"] = round(time.time() - t0, 1)
        auto = rec["fuser"].get("auto", {}).get("gpu_ms")
        tms = (rec.get("torch") or {}).get("eager_ms")
        log(f"{name}: fuser auto {fmt(auto, '.3f')} ms, cublas "
            f"{fmt(rec['fuser'].get('cublas', {}).get('gpu_ms'), '.3f')}, cublaslt "
            f"{fmt(rec['fuser'].get('cublaslt', {}).get('gpu_ms'), '.3f')}, F.linear {fmt(tms, '.3f')} ms "
            f"[{rec['case_s']} s]")
        res.add(rec)


def part_layer(a, res, budget):
    layers = ["gpt3"] if a.quick else ["gpt3", "llama"]
    for layer in layers:
        if a.filter and a.filter not in layer:
            continue
        if budget.left() < a.layer_min:
            res.skip(f"layer {layer}", f"less than {a.layer_min:.0f} s left of the layer part's time budget")
            continue
        cmd = [sys.executable, os.path.join(ROOT, "examples", "transformer", "vs_torch.py"),
               "--fuser-run", os.path.abspath(a.fuser_run)] + LAYERS[layer]
        extra = a.layer_fuser_args + (f" --pass-pipeline {shlex.quote(a.pass_pipeline)}" if a.pass_pipeline else "")
        if extra.strip():
            cmd.append("--fuser-args=" + extra.strip())  # with "=": the value starts with "--"
        rec = {"part": "layer", "layer": layer, "command": shlex.join(cmd)}
        start = time.time()
        try:
            limit = max(30, min(a.layer_timeout, budget.left()))
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
            with open(os.path.join(a.out, "logs", f"layer-{layer}.log"), "w") as f:
                f.write(r.stdout + "\n--- stderr\n" + r.stderr)
            line = next((s for s in reversed(r.stdout.splitlines()) if s.startswith("{")), None)
            if line:
                j = json.loads(line)
                rec["result"] = j
                m = re.search(r"^\s*0\s+([0-9.]+)\s+([0-9.]+)", j.get("fuser_stdout_tail", ""), re.M)
                if m:
                    rec["fuser_ms"] = float(m.group(1))
                if "error" in j:
                    rec["error"] = j["error"][-400:]
            else:
                rec["error"] = (r.stderr or r.stdout)[-400:]
        except subprocess.TimeoutExpired:
            rec["error"] = f"timed out after {round(time.time() - start)} s"
        rec["run_s"] = round(time.time() - start, 1)
        j = rec.get("result", {})
        log(f"layer {layer}: fuser {fmt(rec.get('fuser_ms'), '.2f')} ms, eager {fmt(j.get('torch_eager_ms'), '.2f')}, "
            f"compile {j.get('torch_compile_ms')}, rel err {j.get('rel_err')}"
            + (f"; ERROR {rec['error']}" if rec.get("error") else ""))
        res.add(rec)


def row_ok(r):
    """No failed check and no failed run in a result row."""
    if (r.get("check") or "PASS").startswith("FAIL") or r.get("error"):
        return False
    runs = [r.get("fuser", {}), r.get("graph", {})]
    if r["part"] == "linear":
        runs = list(r.get("fuser", {}).values())
    return all("error" not in x for x in runs)


def default_binary():
    for b in (os.environ.get("FUSER_RUN"), ".gpu/fuser-run", "target/release/fuser-run", "target/debug/fuser-run"):
        if b and os.path.isfile(b) and os.access(b, os.X_OK):
            return b
    return shutil.which("fuser-run")


def self_test():
    """Checks the parsing of fuser-run's CSV and trace and the report on made-up numbers (no
    fuser-run, no torch): test/Examples/fusion-bench.mlir runs it. Returns the failures."""
    import tempfile
    import types
    bad = []

    def expect(what, got, want):
        if got != want:
            bad.append(f"{what}: got {got!r}, want {want!r}")

    with tempfile.TemporaryDirectory() as d:
        csv = os.path.join(d, "r.csv")
        with open(csv, "w") as f:
            f.write("m,n,k,dtype,implementation,option,mean_time_ms,std_time_ms,min_time_ms,max_time_ms,"
                    "throughput_tflops,world_size\n0,0,0,bf16,fuser-cuda,x,0.25,0.01,0.2,0.3,0,1\n")
        expect("csv", parse_csv(csv), (0.25, 0.2))
        # 1 warmup + 2 timed iterations of 2 ops (and one more op in the warmup: one-time work);
        # durations in microseconds, out of order in the file.
        ev = [("init", 0, 50), ("a", 60, 10), ("b", 70, 30),
              ("a", 200, 20), ("b", 220, 40), ("a", 300, 10), ("b", 310, 20)]
        trace = os.path.join(d, "t.json")
        with open(trace, "w") as f:
            json.dump({"traceEvents": [{"name": "process_name", "ph": "M", "pid": 0, "tid": 0}]
                       + [{"name": n, "ph": "X", "pid": 0, "tid": 0, "ts": ts, "dur": du} for n, ts, du in reversed(ev)]
                       + [{"name": "a", "ph": "X", "pid": 1, "tid": 0, "ts": 1, "dur": 999}]}, f)
        times, names = parse_trace(trace, 1, 2)
        expect("trace times", [round(t, 6) for t in times or []], [0.06, 0.03])
        expect("trace ops", names, {"a": 1, "b": 1})
        a = types.SimpleNamespace(out=d, dry_run=False)
        meta = {"command": "c", "started": "s", "fuser_run": "f", "backend": "cuda", "pipeline": "", "warmup": 5,
                "iters": 50, "torch": {"gpu": "G", "torch": "T", "cuda": "C"}}
        res = Results(a, meta)
        res.rows = [
            {"part": "kernels", "kernel": "add", "rows": 2, "cols": 4, "shape": "2x4", "bytes": 4e9,
             "fuser": {"gpu_ms": 1.1, "wall_ms": 1.3, "ops_per_it": 1}, "graph": {"wall_ms": 1.0},
             "fuser_ms": 1.0, "fuser_src": "graph", "fuser_gbps": 4000.0, "copy_gbps": 4500.0,
             "frac_copy": 4000 / 4500, "torch": {"eager_ms": 1.2, "compile_ms": 1.05}, "vs_eager": 1.2,
             "vs_compile": 1.05, "check": "PASS (max rel err 0)"},
            {"part": "linear", "layer": "gpt3", "gemm": "qkv", "shape": "2x3x4", "flops": 2e12,
             "fuser": {"auto": {"gpu_ms": 2.0}, "cublas": {"error": "boom"}}, "torch": {"eager_ms": 2.2}},
            {"part": "layer", "layer": "gpt3", "fuser_ms": 12.0,
             "result": {"torch_eager_ms": 10.0, "torch_compile_ms": 11.0, "rel_err": 0.01}},
        ]
        md = res.markdown()
        for want in ("| add | 2x4 | 4000.0 | 4500 | 1.0000 (g) | 4000 | 88.9 | 1.2000 | 3333 | 1.0500 | 3810 | 1.20 "
                     "| 1.05 | 1.1000 | 1.0000 | 1.3000 | 1 | PASS",
                     "Goal met (>= 85% of copy and >= 1.0x torch.compile) on 1 of 1 rows.",
                     "| gpt3 | qkv | 2x3x4 | 2.000 | 1000 | — | — | 2.200 | 909 | 1.10 | — | — ERROR cublas: boom |",
                     "Goal met (auto >= 1.0x F.linear) on 1 of 1 shapes.",
                     "| gpt3 | 12.00 | 10.00 | 11.00 | 0.83 | 0.92 | 1.00e-02 |",
                     "fuser 12.00 ms vs torch.compile 11.00 ms: goal not met (1.09x its time)"):
            if want not in md:
                bad.append(f"report lacks {want!r}")
    return bad


def replot(a):
    """Merges the results of several calls (`--replot DIR...`) into one report and plot in `a.out`:
    the rows of every folder, the later folder's row replacing an earlier one of the same case, and
    the skipped cases that no folder measured."""
    merged, skipped, metas = {}, [], []
    for d in a.replot:
        with open(os.path.join(d, "results.json")) as f:
            r = json.load(f)
        metas.append(r["meta"])
        for row in r["rows"]:
            key = [row.get(k) for k in ("part", "kernel", "layer", "gemm", "model", "shape")]
            merged[json.dumps(key)] = row
        skipped += r.get("skipped", [])
    meta = dict(metas[0])
    meta["command"] = "; ".join(m["command"] for m in metas)
    for m in metas:
        meta.setdefault("torch", m.get("torch"))
    a.dry_run = False
    os.makedirs(a.out, exist_ok=True)
    res = Results(a, meta)
    res.rows = list(merged.values())
    names = {f"{r.get('kernel')}-{r.get('shape')}" for r in res.rows}
    res.skipped = [s for s in dict.fromkeys(skipped)
                   if s.split(":")[0] not in names and not s.startswith("fusion_gbps.png")]
    res.save()
    res.plot()
    print(f"replot: {len(res.rows)} rows from {len(a.replot)} folder(s) -> {a.out}")
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--fuser-run", default=None, help="binary (default $FUSER_RUN, .gpu/fuser-run, target/*/fuser-run)")
    p.add_argument("--out", default=os.environ.get("OUT", "/tmp/fusion"), help="results folder (default $OUT)")
    p.add_argument("--parts", default="kernels,linear,layer")
    p.add_argument("--quick", action="store_true",
                   help="2 shapes per kernel (2048 and 8192 x 12288), 1 softmax, 2 GEMMs, the GPT-3 layer only, "
                        "20 iters")
    p.add_argument("--full", action="store_true", help="all 9 (rows, hidden) shapes")
    p.add_argument("--dry-run", action="store_true", help="tiny shapes on the cpu backend with --check; no torch")
    p.add_argument("--backend", default=None, help="fuser-run backend (default cuda; cpu with --dry-run)")
    p.add_argument("--dtype", default="bf16")
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--iters", type=int, default=50)
    p.add_argument("--linear-iters", type=int, default=20)
    p.add_argument("--linear-warmup", type=int, default=100,
                   help="warmup calls of each GEMM before timing, on both sides (fuser-run --warmup and F.linear): "
                        "~0.3 s of sustained GEMMs brings the GPU to its power-limited steady clocks, so that "
                        "neither side is timed on boost clocks the other did not get (session 31: 5 warmups "
                        "made the same cuBLASLt algorithm 2.40 or 2.71 ms depending on what ran before)")
    p.add_argument("--pass-pipeline", default="", help="fuser-run --pass-pipeline (default: fuser-run's)")
    p.add_argument("--filter", default="", help="only cases whose name contains this")
    p.add_argument("--no-compile", action="store_true", help="skip torch.compile")
    p.add_argument("--no-graph", action="store_true", help="skip the --cuda-graph runs")
    p.add_argument("--budget", default="kernels=210,linear=100,layer=250",
                   help="seconds per part (plus what the parts before left); cases past a part's budget are "
                        "skipped and listed in the report")
    p.add_argument("--deadline", type=float, default=570, help="seconds from the start after which nothing starts")
    p.add_argument("--layer-fuser-args", default="", help="more fuser-run arguments of the layer runs (vs_torch.py "
                   "--fuser-args), e.g. --layer-fuser-args=--cuda-graph (with =)")
    p.add_argument("--layer-min", type=float, default=60, help="seconds a layer run needs left to start")
    p.add_argument("--case-timeout", type=float, default=180, help="seconds per fuser-run")
    p.add_argument("--layer-timeout", type=float, default=240, help="seconds per vs_torch.py run")
    p.add_argument("--self-test", action="store_true", help="check the CSV/trace parsing and the report (no runs)")
    p.add_argument("--replot", nargs="+", metavar="DIR", default=None,
                   help="no runs: merge the results.json of these output folders (parts measured in separate "
                        "calls) into --out's report.md, results.json and fusion_gbps.png")
    a = p.parse_args(argv)
    if a.self_test:
        bad = self_test()
        print("\n".join(bad + [f"self-test: {'FAIL' if bad else 'PASS'}"]))
        return 1 if bad else 0
    if a.replot:
        return replot(a)
    a.backend = a.backend or ("cpu" if a.dry_run else "cuda")
    a.fuser_run = a.fuser_run or default_binary()
    if not a.fuser_run:
        p.error("no fuser-run binary (--fuser-run or FUSER_RUN)")
    if a.quick:
        a.iters = min(a.iters, 20)
        a.linear_iters = min(a.linear_iters, 10)
        a.linear_warmup = min(a.linear_warmup, 20)
    if a.dry_run:
        a.warmup, a.iters, a.linear_iters, a.linear_warmup = 1, 2, 2, 1
    os.makedirs(a.out, exist_ok=True)
    start = time.time()
    deadline = start + a.deadline
    budgets = dict(kv.split("=") for kv in a.budget.split(",") if kv)
    parts = [s for s in a.parts.split(",") if s]
    for s in parts:
        if s not in ("kernels", "linear", "layer"):
            p.error(f"unknown part {s!r} (kernels, linear, layer)")
    meta = {"command": " ".join([os.path.relpath(__file__, ROOT)] + (argv if argv is not None else sys.argv[1:])),
            "started": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "fuser_run": a.fuser_run, "backend": a.backend, "pipeline": a.pass_pipeline, "warmup": a.warmup,
            "iters": a.iters, "linear_iters": a.linear_iters, "linear_warmup": a.linear_warmup, "dtype": a.dtype}
    torch_ = None
    if not a.dry_run and ("kernels" in parts or "linear" in parts):
        torch_ = Torch(a.warmup, a.iters, compile_=not a.no_compile)
        meta["torch"] = torch_.version()
    res = Results(a, meta)
    res.checks = {}
    fuser = Fuser(a)
    log(f"fusion bench: parts {parts}, out {a.out}, binary {a.fuser_run}, backend {a.backend}")
    carry = 0.0  # what the parts before left of their budgets
    for part in parts:
        budget = Budget(float(budgets.get(part, 1e9)) + carry, deadline)
        t0 = time.time()
        if part == "kernels":
            part_kernels(a, fuser, torch_, res, budget)
        elif part == "linear":
            if torch_:
                torch_.iters, torch_.warmup = a.linear_iters, a.linear_warmup
            part_linear(a, fuser, torch_, res, budget)
            if torch_:
                torch_.iters, torch_.warmup = a.iters, a.warmup
        else:
            if a.dry_run:
                res.skip("layer", "the dry run does not run vs_torch.py (torch)")
                continue
            part_layer(a, res, budget)
        carry = max(0.0, budget.left())
        log(f"part {part}: {time.time() - t0:.0f} s")
    res.plot()
    res.save()
    log(f"done in {time.time() - start:.0f} s: {a.out}/report.md")
    bad = [r for r in res.rows if not row_ok(r)]
    bad += [k for k, v in res.checks.items() if v.startswith("FAIL")]
    if a.dry_run:
        for r in res.rows:
            name = r.get("kernel") or f"linear {r.get('layer')} {r.get('gemm')}"
            ok = row_ok(r) and (r.get("check") or "").startswith("PASS")
            print(f"{'PASS' if ok else 'FAIL'} {name} {r['shape']}: {r.get('check')}")
    print(f"fusion bench: {len(res.rows)} rows, {len(bad)} with errors, {len(res.skipped)} skipped")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
