"""Training a GPT on one GPU with fuser's backward, next to torch (issue 25, item 4).

The model, data and optimizer are examples/python/train_gpt.py's (token + position
embedding, `--layers` GPT-3 layers, final LayerNorm, LM head, mean cross-entropy; the
synthetic repeated-pattern tokens; AdamW), here in mixed precision as one trains on a GPU:
float32 master weights updated by `torch.optim.AdamW`, the forward and backward in `--dtype`
(bf16 by default) on copies of them, the loss in float32.

Three runs from the same initial weights and the same batches, each `--steps` steps:

- fuser: the loss program built with `fuser.FusionDefinition` (train_gpt.build), its joint
  forward+backward program `fd.backward().vjp`, run by `fuser.torch.Rank` on torch CUDA
  tensors (one rank, d = 1); its bf16 gradients, cast to float32, are the master weights'
  `.grad` for torch's AdamW;
- torch eager: the same model written with torch.nn.functional on the bf16 copies (the casts
  are differentiable, so autograd returns float32 gradients of the master weights);
- torch.compile: the same loss function through `torch.compile` (`--no-compile` skips it).

Printed and written (`--json`, `--plot`): each run's loss per step, the largest relative
difference of fuser's losses to torch eager's, and the median times after `--warmup` steps of
the forward+backward and of the whole step (with the optimizer), with TFLOP/s (6 x parameters
x tokens plus the attention's 12 x layers x seq^2 x hidden / 2 for causal masking) as a
fraction of `--peak-tflops`.

    python3 examples/python/train_gpt_gpu.py --plot train.png --json train.json     # on a GPU
    python3 examples/python/train_gpt_gpu.py --device cpu --dtype f32 --layers 2 --hidden 32 \\
        --heads 4 --ffn 128 --seq 16 --vocab 64 --steps 5      # smoke test without a GPU

Without a GPU (`--device cpu`), fuser runs on its cpu backend through NumPy (`Backward.execute`)
and torch on the cpu: the same code path except `fuser.torch.Rank`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from typing import Callable, Dict, List, Optional

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_gpt import TrainConfig, batches, build, init_params, max_rel, param_names, pyplot, torch_loss_function  # noqa: E402

_TORCH = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}


def sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


class FuserStep:
    """fuser's forward + backward: `(ids, labels, params) -> (loss, grads)` through the joint
    program, on the GPU (`fuser.torch.Rank`) or the cpu backend (NumPy)."""

    def __init__(self, t: TrainConfig, device: torch.device) -> None:
        t0 = time.time()
        self.fd = build(t, 1)
        self.bw = self.fd.backward()
        self.device = device
        self.one = torch.ones((), dtype=torch.float32, device=device)
        if device.type == "cuda":
            import fuser.torch as ft

            self.rank = ft.Rank(device=device.index or 0)
            self.program = self.rank.compile(self.bw.vjp)
        print(f"fuser: built, differentiated and lowered the loss program in {time.time() - t0:.1f}s "
              f"({len(self.bw.saved)} saved values in the split)", flush=True)

    def __call__(self, ids: torch.Tensor, labels: torch.Tensor, params: List[torch.Tensor]):
        if self.device.type == "cuda":
            out = self.rank.execute(self.program, [ids, labels] + params + [self.one])
            return out[0], out[1:]
        inputs = [ids.numpy(), labels.numpy()] + [p.float().numpy() for p in params]
        (loss,), grads = self.bw.execute(inputs, [np.float32(1.0)], ranks=1)
        return torch.tensor(float(loss)), [torch.from_numpy(np.asarray(g)).to(params[i].dtype) for i, g in enumerate(grads)]


def train(
    label: str,
    t: TrainConfig,
    data,
    device: torch.device,
    fwd_bwd: Callable,
    warmup: int,
    initial: Dict[str, np.ndarray],
    profile: Optional[str] = None,
) -> Dict[str, object]:
    """`t.steps` mixed-precision AdamW steps with `fwd_bwd(ids, labels, master) -> (loss, grads
    or None)` (None: it called `.backward()` itself), from copies of the `initial` weights.
    Returns the losses and step times; with `profile`, the steps after `warmup` are profiled
    and their kernels written there (`write_profile`)."""
    names = param_names(t)
    master = [torch.nn.Parameter(torch.tensor(initial[n], device=device)) for n in names]
    opt = torch.optim.AdamW(master, lr=t.lr, betas=t.betas, eps=t.eps, weight_decay=t.weight_decay)
    losses, fb_ms, step_ms = [], [], []
    start = time.time()
    prof = None
    for step, (ids, labels) in enumerate(data):
        if profile and step == warmup:
            prof = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU,
                                                      torch.profiler.ProfilerActivity.CUDA])
            prof.__enter__()
        ids_t = torch.from_numpy(ids).to(device)
        labels_t = torch.from_numpy(labels).to(device)
        sync(device)
        t0 = time.perf_counter()
        loss, grads = fwd_bwd(ids_t, labels_t, master)
        if grads is not None:
            for p, g in zip(master, grads):
                p.grad = g.float()
        sync(device)
        t1 = time.perf_counter()
        opt.step()
        opt.zero_grad(set_to_none=True)
        sync(device)
        t2 = time.perf_counter()
        losses.append(float(loss))
        if step >= warmup:
            fb_ms.append((t1 - t0) * 1e3)
            step_ms.append((t2 - t0) * 1e3)
        if step % 10 == 0 or step == t.steps - 1:
            print(f"  {label}: step {step:3d}  loss {losses[-1]:.5f}  ({(t1 - t0) * 1e3:.1f} ms fwd+bwd, "
                  f"{(t2 - t0) * 1e3:.1f} ms step)", flush=True)
    print(f"  {label}: {t.steps} steps in {time.time() - start:.1f}s", flush=True)
    if prof is not None:
        prof.__exit__(None, None, None)
        write_profile(prof, profile, label, t.steps - warmup)
    med = lambda xs: statistics.median(xs) if xs else None  # noqa: E731
    return {"losses": losses, "fwd_bwd_ms": med(fb_ms), "step_ms": med(step_ms)}


def write_profile(prof, path: str, label: str, steps: int) -> None:
    """The profiled steps' CUDA kernels, by total GPU time (ms per step), to `path`."""
    rows = []
    for e in prof.key_averages():
        gpu_us = getattr(e, "self_device_time_total", None)
        if gpu_us is None:
            gpu_us = getattr(e, "self_cuda_time_total", 0)
        if gpu_us > 0:
            rows.append((gpu_us, e.count, e.key))
    rows.sort(reverse=True)
    total = sum(r[0] for r in rows)
    with open(path, "a") as f:
        f.write(f"\n{label}: {steps} profiled steps, GPU time {total / 1e3 / max(steps, 1):.2f} ms per step\n")
        f.write(f"{'ms/step':>9s} {'share':>6s} {'calls/step':>10s}  kernel\n")
        for us, n, key in rows[:60]:
            f.write(f"{us / 1e3 / max(steps, 1):9.3f} {us / total:6.1%} {n / max(steps, 1):10.1f}  {key[:150]}\n")
    print(f"wrote {path} ({label}'s kernels)", flush=True)


def flops_per_step(t: TrainConfig) -> float:
    """6 x parameters x tokens (forward + backward of every weight's GEMM; the embedding
    tables' lookups excluded, the LM head included) + causal attention's 12 x layers x seq^2 x
    hidden / 2."""
    E, F_, V, S = t.hidden, t.ffn, t.vocab, t.seq
    gemm_params = t.layers * (4 * E * E + 2 * E * F_) + V * E
    return 6.0 * gemm_params * S + 12.0 * t.layers * S * S * E / 2


def plot(results: Dict[str, Dict[str, object]], t: TrainConfig, path: str, title: str) -> None:
    plt = pyplot(path)
    if plt is None:
        return
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(12, 4.2))
    styles = {"fuser": "-", "torch eager": "--", "torch.compile": ":"}
    for label, r in results.items():
        ax.plot(range(len(r["losses"])), r["losses"], styles.get(label, "-"), label=label, linewidth=1.3)
    ax.set_yscale("log")
    ax.set_xlabel("step")
    ax.set_ylabel("cross-entropy (mean over tokens)")
    ax.set_title("loss", fontsize=9)
    fig.suptitle(title, fontsize=9)
    ax.legend(fontsize=8)
    labels = list(results)
    fb = [results[k]["fwd_bwd_ms"] or 0 for k in labels]
    st = [results[k]["step_ms"] or 0 for k in labels]
    xs = np.arange(len(labels))
    ax2.bar(xs - 0.2, fb, 0.4, label="forward + backward")
    ax2.bar(xs + 0.2, st, 0.4, label="whole step (AdamW included)")
    for x, a, b in zip(xs, fb, st):
        ax2.text(x - 0.2, a, f"{a:.1f}", ha="center", va="bottom", fontsize=7)
        ax2.text(x + 0.2, b, f"{b:.1f}", ha="center", va="bottom", fontsize=7)
    ax2.set_xticks(xs, labels)
    ax2.set_ylabel("ms per step (median)")
    ax2.set_title("step time", fontsize=9)
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(f"wrote {path}")


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--device", default="cuda", help="cuda (default: fuser.torch.Rank) or cpu (smoke test)")
    p.add_argument("--dtype", choices=sorted(_TORCH), default="bf16")
    p.add_argument("--layers", type=int, default=4)
    p.add_argument("--hidden", type=int, default=4096)
    p.add_argument("--heads", type=int, default=32)
    p.add_argument("--ffn", type=int, default=16384)
    p.add_argument("--seq", type=int, default=2048)
    p.add_argument("--vocab", type=int, default=32768)
    p.add_argument("--period", type=int, default=64, help="the synthetic data's pattern length")
    p.add_argument("--steps", type=int, default=100)
    p.add_argument("--warmup", type=int, default=3, help="steps left out of the medians")
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--no-compile", action="store_true", help="skip the torch.compile run")
    p.add_argument("--only", default="", help="comma-separated runs: fuser,eager,compile (default all)")
    p.add_argument("--peak-tflops", type=float, default=0.0, help="the device's measured dense GEMM peak (TFLOP/s)")
    p.add_argument("--tolerance", type=float, default=None,
                   help="largest relative difference of fuser's losses to torch eager's (default 1e-4 for f32, "
                        "5e-2 for bf16/f16)")
    p.add_argument("--plot", metavar="PNG")
    p.add_argument("--json", metavar="PATH")
    p.add_argument("--match-steps", type=int, default=None,
                   help="steps whose losses must match torch eager's to --tolerance (default: all in f32, "
                        "the first 10 in bf16/f16, after which low-precision trajectories diverge chaotically)")
    p.add_argument("--profile", metavar="TXT",
                   help="profile fuser's and torch eager's steps after --warmup with torch.profiler (every CUDA "
                        "kernel of the process, fuser's included) and append each run's kernels by total GPU time to TXT")
    a = p.parse_args(argv)
    device = torch.device(a.device)
    if device.type == "cuda" and not torch.cuda.is_available():
        p.error("--device cuda: torch sees no GPU (use --device cpu for the smoke test)")
    if device.type == "cpu" and a.dtype != "f32":
        p.error("--device cpu runs fuser through NumPy, which has no bf16/f16: use --dtype f32")
    t = TrainConfig(vocab=a.vocab, hidden=a.hidden, heads=a.heads, ffn=a.ffn, seq=a.seq, layers=a.layers,
                    period=min(a.period, a.vocab), steps=a.steps, lr=a.lr, dtype=a.dtype)
    dt = _TORCH[a.dtype]
    names = param_names(t)
    initial = init_params(t)  # drawn once (1 B values at the default size), copied by each run
    n_params = sum(int(v.size) for v in initial.values())
    title = (f"{t.layers}-layer GPT, hidden {t.hidden}, {t.heads} heads, ffn {t.ffn}, seq {t.seq}, vocab {t.vocab} "
             f"({n_params / 1e9:.2f} B params), {a.dtype}, AdamW lr {t.lr}")
    print(title, flush=True)
    data = batches(t)
    only = set(a.only.split(",")) if a.only else {"fuser", "eager", "compile"}
    if a.no_compile:
        only.discard("compile")
    results: Dict[str, Dict[str, object]] = {}
    loss_fn = torch_loss_function(t, names)

    def torch_step(fn):
        def step(ids, labels, master):
            loss = fn(ids, labels, *[m.to(dt) for m in master])
            loss.backward()
            return loss.detach(), None

        return step

    if "fuser" in only:
        fstep = FuserStep(t, device)
        results["fuser"] = train("fuser", t, data, device,
                                 lambda ids, labels, master: fstep(ids, labels, [m.detach().to(dt) for m in master]),
                                 a.warmup, initial, a.profile)
    if "eager" in only:
        results["torch eager"] = train("torch eager", t, data, device, torch_step(loss_fn), a.warmup, initial,
                                       a.profile)
    if "compile" in only:
        results["torch.compile"] = train("torch.compile", t, data, device, torch_step(torch.compile(loss_fn)),
                                         a.warmup, initial)

    flops = flops_per_step(t)
    summary = {"config": {k: getattr(t, k) for k in t.__dataclass_fields__}, "params": n_params,
               "flops_per_step": flops, "device": torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu",
               "torch": torch.__version__, "runs": results}
    print(f"\n{'run':15s} {'fwd+bwd ms':>11s} {'step ms':>9s} {'TFLOP/s':>8s}  first loss  last loss")
    for label, r in results.items():
        tf = flops / (r["step_ms"] * 1e-3) / 1e12 if r["step_ms"] else None
        r["tflops"] = tf
        if tf and a.peak_tflops:
            r["fraction_of_peak"] = tf / a.peak_tflops
        fb = f"{r['fwd_bwd_ms']:.2f}" if r["fwd_bwd_ms"] else "-"
        sm = f"{r['step_ms']:.2f}" if r["step_ms"] else "-"
        print(f"{label:15s} {fb:>11s} {sm:>9s} {tf or 0:8.1f}  {r['losses'][0]:.5f}     {r['losses'][-1]:.5f}")
    ok = True
    if "fuser" in results and "torch eager" in results:
        tol = a.tolerance if a.tolerance is not None else (1e-4 if a.dtype == "f32" else 5e-2)
        n = a.match_steps if a.match_steps is not None else (t.steps if a.dtype == "f32" else 10)
        eager = results["torch eager"]["losses"]
        err = max_rel(results["fuser"]["losses"][:n], eager[:n])
        summary.update(fuser_vs_eager_max_rel=err, tolerance=tol, match_steps=n)
        ok = err <= tol
        print(f"fuser vs torch eager, steps 0-{n - 1}: max relative difference of the losses {err:.2e} "
              f"(tolerance {tol:g}): {'PASS' if ok else 'FAIL'}")
        if "torch.compile" in results:
            e2 = max_rel(results["torch.compile"]["losses"][:n], eager[:n])
            summary["compile_vs_eager_max_rel"] = e2
            print(f"torch.compile vs torch eager, steps 0-{n - 1}: {e2:.2e} (torch's own spread)")
        if n < t.steps:
            # After the matched steps: the level reached (mean of the last 10 losses) against
            # torch eager's, within a factor of 2 either way (bf16 trajectories diverge).
            tail = lambda xs: sum(xs[-10:]) / len(xs[-10:])  # noqa: E731
            level = tail(results["fuser"]["losses"]) / tail(eager)
            summary["final_level_vs_eager"] = level
            good = 0.5 <= level <= 2.0
            ok = ok and good
            print(f"fuser's mean loss over the last 10 steps / torch eager's: {level:.2f} (within 0.5-2): "
                  f"{'PASS' if good else 'FAIL'}")
            if "torch.compile" in results:
                summary["compile_final_level_vs_eager"] = tail(results["torch.compile"]["losses"]) / tail(eager)
                print(f"torch.compile's: {summary['compile_final_level_vs_eager']:.2f}")
        for other in ("torch eager", "torch.compile"):
            if other in results and results[other]["step_ms"] and results["fuser"]["step_ms"]:
                ratio = results["fuser"]["step_ms"] / results[other]["step_ms"]
                print(f"step time: fuser's is {ratio:.2f}x {other}'s (below 1: fuser faster)")
    first = next(iter(results.values()))["losses"] if results else []
    if first and not first[-1] < first[0]:
        print(f"FAIL: the loss did not decrease ({first[0]:.4f} -> {first[-1]:.4f})")
        ok = False
    summary["pass"] = ok
    if a.json:
        with open(a.json, "w") as f:
            json.dump(summary, f, indent=1)
        print(f"wrote {a.json}")
    if a.plot:
        plot(results, t, a.plot, title)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
