"""Training a small GPT with fuser's backward (issue 25): forward and backward through the
joint program `fd.backward()` makes, AdamW in NumPy, on the cpu backend with tensor + sequence
parallelism on d = 1, 2, 4 ranks. docs/training.md explains the pieces.

The model (GPT-2/3 style, f32): token embedding (vocab-parallel: table rows over DIDx) plus a
learned position embedding, `--layers` GPT-3 layers of examples/python/transformer.py
(LayerNorm, QKV, causal attention, projection, residual, LayerNorm, tanh-GELU MLP, residual;
no dropout), a final LayerNorm, an LM head (vocab-parallel: its rows over DIDx, the logits
never gathered) and the cross-entropy loss, mean over the tokens = sum * (1/N) with fusion ops.
Placement tpsp: activations between the GEMMs split on the sequence (Megatron's sequence
parallelism); the weights as transformer.py places them.

The data is synthetic and learnable: a fixed random pattern of `period` distinct tokens
repeated, each step a window of `seq + 1` tokens from a random start (inputs: the first
`seq`, labels: the next token of each), each token replaced by a random one with probability
`noise` (default 0: the pattern alone). The loss falls from ln(vocab) towards 0 (towards the
noise's floor with noise). The learning rate (3e-3) keeps the run far from chaotic: runs that
round differently (d = 1, 2, 4; torch) stay within about 1e-6 of each other, relative.

AdamW (torch.optim.AdamW's algorithm, weight decay decoupled from the gradient), per
parameter p with gradient g at step t = 1, 2, ...:

    p <- p * (1 - lr * weight_decay)
    m <- beta1 * m + (1 - beta1) * g
    v <- beta2 * v + (1 - beta2) * g^2
    p <- p - lr * (m / (1 - beta1^t)) / (sqrt(v / (1 - beta2^t)) + eps)

in float32 like the parameters, applied to every parameter (torch's single parameter group).

References: with torch importable, the same model, initial weights and data in torch with
torch.optim.AdamW (f32, cpu), the loss curves compared to 1e-4 relative; without it the
comparison is skipped (said so). Always: each step's fuser loss against a NumPy f64 forward of
the same weights, and the curves at d = 2, 4 against d = 1.

    python examples/python/train_gpt.py                  # d = 1, 2, 4, 100 steps
    python examples/python/train_gpt.py --devices 2 --steps 10
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

import numpy as np

import fuser
from fuser import DIDx

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import transformer  # noqa: E402
from transformer import GPT3_PARAMS, gpt3_layer, gpt3_params  # noqa: E402


@dataclass
class TrainConfig:
    """Model, data and optimizer sizes."""

    vocab: int = 64
    hidden: int = 32
    heads: int = 4
    ffn: int = 128
    seq: int = 16
    layers: int = 2
    period: int = 8
    noise: float = 0.0
    steps: int = 100
    lr: float = 3e-3
    betas: Tuple[float, float] = (0.9, 0.999)
    eps: float = 1e-8
    weight_decay: float = 0.01
    seed: int = 0
    norm_eps: float = 1e-5
    #: The program's element type for the activations and parameters (the loss is f32).
    dtype: str = "f32"


def layer_config(t: TrainConfig, devices: int) -> transformer.Config:
    return transformer.Config(
        placement="tpsp", devices=devices, dtype=t.dtype, seq=t.seq, hidden=t.hidden, heads=t.heads,
        kv_heads=t.heads, ffn=t.ffn, vocab=t.vocab, dropout=0.0, eps=t.norm_eps,
    )


def param_names(t: TrainConfig) -> List[str]:
    """Every parameter, in the program's argument order (after ids and labels)."""
    names = ["table", "pos"]
    for i in range(t.layers):
        names += [f"l{i}.{n}" for n in GPT3_PARAMS]
    return names + ["lnf_w", "lnf_b", "w_lm"]


def build(t: TrainConfig, devices: int) -> fuser.FusionDefinition:
    """The loss program: `(ids, labels, *params) -> mean loss` on a mesh of `devices`."""
    c = layer_config(t, devices)
    S, E, V = t.seq, t.hidden, t.vocab
    seq = [DIDx] if devices > 1 else []
    dt = t.dtype
    c.specs.clear()
    with fuser.FusionDefinition(mesh=fuser.Mesh(list(range(devices))), name="gpt") as fd:
        ids = fd.define_tensor([S], "i64")
        labels = fd.define_tensor([S], "i64")
        table = fd.define_tensor([V, E], dt, splits=[DIDx, []])  # vocab-parallel rows
        pos = fd.define_tensor([S, E], dt, splits=[seq, []])
        layers = [gpt3_params(fd, c, f"l{i}.") for i in range(t.layers)]
        lnf_w = fd.define_tensor([E], dt)
        lnf_b = fd.define_tensor([E], dt)
        w_lm = fd.define_tensor([V, E], dt, splits=[DIDx, []])  # vocab-parallel LM head
        x = fd.ops.embedding(table, ids, splits=[seq, []]) + pos
        for p in layers:
            x = gpt3_layer(fd, c, x, p)
        h = fd.ops.layer_norm(x, lnf_w, lnf_b, dims=[1], epsilon=t.norm_eps)
        logits = fd.ops.linear(h, w_lm, splits=[[], DIDx])  # [S, V], V over the ranks
        # [S] in f32 (from bf16 logits: torch's F.cross_entropy(logits.float())), never gathering V
        loss = fd.ops.cross_entropy(logits, labels, dtype=None if dt == "f32" else "f32", splits=[[]])
        total = fd.ops.sum(loss, [0], splits=[])
        fd.add_output(total * fd.ops.full([], 1.0 / S, "f32", splits=[]))
    return fd


def init_params(t: TrainConfig) -> Dict[str, np.ndarray]:
    """GPT-2's initialization (normal(0, 0.02) weights, the residual projections scaled by
    1/sqrt(2 * layers), zero biases, unit norm weights), float32, fixed seed."""
    rng = np.random.default_rng(t.seed)
    E, F, V, S = t.hidden, t.ffn, t.vocab, t.seq
    shapes = {"table": (V, E), "pos": (S, E), "lnf_w": (E,), "lnf_b": (E,), "w_lm": (V, E)}
    for i in range(t.layers):
        shapes.update({
            f"l{i}.ln1_w": (E,), f"l{i}.ln1_b": (E,), f"l{i}.w_qkv": (3 * E, E), f"l{i}.b_qkv": (3 * E,),
            f"l{i}.w_o": (E, E), f"l{i}.b_o": (E,), f"l{i}.ln2_w": (E,), f"l{i}.ln2_b": (E,),
            f"l{i}.w_1": (F, E), f"l{i}.b_1": (F,), f"l{i}.w_2": (E, F), f"l{i}.b_2": (E,),
        })
    out = {}
    for name in param_names(t):
        short = name.split(".")[-1]
        if short.endswith("_w") and short.startswith("ln"):
            a = np.ones(shapes[name])
        elif short.startswith("b_") or short.endswith("_b"):
            a = np.zeros(shapes[name])
        else:
            std = 0.02 / math.sqrt(2 * t.layers) if short in ("w_o", "w_2") else 0.02
            a = rng.normal(0.0, std, shapes[name])
        out[name] = a.astype(np.float32)
    return out


def batches(t: TrainConfig) -> List[Tuple[np.ndarray, np.ndarray]]:
    """`steps` windows of the repeated pattern, each token replaced by a random one with
    probability `noise`: (ids [S], labels [S]) each (fixed seed)."""
    rng = np.random.default_rng(t.seed + 1)
    pattern = rng.permutation(t.vocab)[: t.period]
    stream = np.tile(pattern, (t.seq + 1) // t.period + 2)
    out = []
    for _ in range(t.steps):
        s = int(rng.integers(t.period))
        w = stream[s : s + t.seq + 1].astype(np.int64)
        w = np.where(rng.random(w.shape) < t.noise, rng.integers(t.vocab, size=w.shape), w)
        out.append((w[:-1], w[1:]))
    return out


class AdamW:
    """torch.optim.AdamW's update in NumPy (see the module docstring), float32."""

    def __init__(self, params: Dict[str, np.ndarray], lr: float, betas: Tuple[float, float], eps: float, weight_decay: float):
        self.lr, (self.b1, self.b2), self.eps, self.wd = lr, betas, eps, weight_decay
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    def step(self, params: Dict[str, np.ndarray], grads: Dict[str, np.ndarray]) -> None:
        self.t += 1
        c1 = 1.0 - self.b1**self.t
        c2 = 1.0 - self.b2**self.t
        for k, p in params.items():
            g = grads[k].astype(np.float32)
            p *= np.float32(1.0 - self.lr * self.wd)
            self.m[k] = np.float32(self.b1) * self.m[k] + np.float32(1.0 - self.b1) * g
            self.v[k] = np.float32(self.b2) * self.v[k] + np.float32(1.0 - self.b2) * g * g
            denom = np.sqrt(self.v[k]) / np.float32(math.sqrt(c2)) + np.float32(self.eps)
            p -= np.float32(self.lr / c1) * self.m[k] / denom


def numpy_loss(t: TrainConfig, p: Dict[str, np.ndarray], ids: np.ndarray, labels: np.ndarray) -> float:
    """The model's loss in NumPy, float64 (the forward only: a check of each step's loss)."""
    S, E, H = t.seq, t.hidden, t.heads
    D = E // H
    P = {k: v.astype(np.float64) for k, v in p.items()}

    def ln(x, w, b):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + t.norm_eps) * w + b

    def gelu(a):
        return 0.5 * a * (1 + np.tanh(math.sqrt(2 / math.pi) * (a + 0.044715 * a**3)))

    x = P["table"][ids] + P["pos"]
    mask = np.tril(np.ones((S, S), dtype=bool))
    for i in range(t.layers):
        q_ = lambda n: P[f"l{i}.{n}"]  # noqa: E731
        h = ln(x, q_("ln1_w"), q_("ln1_b"))
        qkv = (h @ q_("w_qkv").T + q_("b_qkv")).reshape(S, H, 3, D)
        q, k, v = (qkv[:, :, j, :].transpose(1, 0, 2) for j in range(3))
        s = np.where(mask, q @ k.transpose(0, 2, 1) / math.sqrt(D), -np.inf)
        a = np.exp(s - s.max(-1, keepdims=True))
        a /= a.sum(-1, keepdims=True)
        att = (a @ v).transpose(1, 0, 2).reshape(S, E)
        x = x + att @ q_("w_o").T + q_("b_o")
        h2 = ln(x, q_("ln2_w"), q_("ln2_b"))
        x = x + gelu(h2 @ q_("w_1").T + q_("b_1")) @ q_("w_2").T + q_("b_2")
    logits = ln(x, P["lnf_w"], P["lnf_b"]) @ P["w_lm"].T
    m = logits.max(-1, keepdims=True)
    lse = (m + np.log(np.exp(logits - m).sum(-1, keepdims=True)))[:, 0]
    return float(np.mean(lse - logits[np.arange(S), labels]))


def train(t: TrainConfig, devices: int, log: bool = True) -> List[float]:
    """`t.steps` AdamW steps on `devices` cpu ranks; the loss of every step (before its
    update). Each step's loss is checked against the NumPy forward."""
    fd = build(t, devices)
    bw = fd.backward()  # every float input: the parameters (ids and labels are i64)
    names = param_names(t)
    assert [fd.inputs.index(w) for w in bw.wrt] == list(range(2, 2 + len(names)))
    params = init_params(t)
    opt = AdamW(params, t.lr, t.betas, t.eps, t.weight_decay)
    losses = []
    start = time.time()
    for step, (ids, labels) in enumerate(batches(t)):
        inputs = [ids, labels] + [params[n] for n in names]
        (loss,), grads = bw.execute(inputs, [np.float32(1.0)], ranks=devices)
        loss = float(loss)
        ref = numpy_loss(t, params, ids, labels)
        if abs(loss - ref) > 1e-4 * max(1.0, abs(ref)):
            raise AssertionError(f"step {step}: fuser loss {loss} differs from NumPy's {ref}")
        losses.append(loss)
        opt.step(params, dict(zip(names, grads)))
        if log and (step % 10 == 0 or step == t.steps - 1):
            print(f"  d={devices} step {step:3d}  loss {loss:.6f}", flush=True)
    if log:
        print(f"  d={devices}: {t.steps} steps in {time.time() - start:.1f}s", flush=True)
    return losses


def torch_losses(t: TrainConfig) -> Optional[List[float]]:
    """The same model, initial weights and data in torch (f32, cpu) with torch.optim.AdamW;
    None when torch is not importable."""
    try:
        import torch
    except ImportError:
        return None
    torch.manual_seed(0)
    names = param_names(t)
    params = {k: torch.nn.Parameter(torch.from_numpy(v.copy())) for k, v in init_params(t).items()}
    opt = torch.optim.AdamW([params[n] for n in names], lr=t.lr, betas=t.betas, eps=t.eps, weight_decay=t.weight_decay)
    loss_fn = torch_loss_function(t, names)
    losses = []
    for ids, labels in batches(t):
        loss = loss_fn(torch.from_numpy(ids), torch.from_numpy(labels), *[params[n] for n in names])
        losses.append(loss.item())
        opt.zero_grad()
        loss.backward()
        opt.step()
    return losses


def torch_loss_function(t: TrainConfig, names: List[str]):
    """The model's mean cross-entropy in torch.nn.functional: `(ids, labels, *params) -> loss`
    (params in `names` order, in any float type; the loss in float32). Also
    train_gpt_gpu.py's torch runs."""
    import torch.nn.functional as F

    S, E, H = t.seq, t.hidden, t.heads
    D = E // H

    def loss_fn(ids, labels, *ps):
        P = dict(zip(names, ps))
        x = F.embedding(ids, P["table"]) + P["pos"]
        for i in range(t.layers):
            g = lambda n: P[f"l{i}.{n}"]  # noqa: E731
            h = F.layer_norm(x, (E,), g("ln1_w"), g("ln1_b"), eps=t.norm_eps)
            qkv = F.linear(h, g("w_qkv"), g("b_qkv")).view(S, H, 3, D)
            q, k, v = (qkv[:, :, j, :].permute(1, 0, 2).unsqueeze(0) for j in range(3))
            att = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + F.linear(att[0].permute(1, 0, 2).reshape(S, E), g("w_o"), g("b_o"))
            h2 = F.layer_norm(x, (E,), g("ln2_w"), g("ln2_b"), eps=t.norm_eps)
            x = x + F.linear(F.gelu(F.linear(h2, g("w_1"), g("b_1")), approximate="tanh"), g("w_2"), g("b_2"))
        logits = F.linear(F.layer_norm(x, (E,), P["lnf_w"], P["lnf_b"], eps=t.norm_eps), P["w_lm"])
        return F.cross_entropy(logits.float(), labels)

    return loss_fn


def max_rel(a: List[float], b: List[float]) -> float:
    return max(abs(x - y) / max(abs(y), 1e-30) for x, y in zip(a, b))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--devices", type=int, nargs="+", default=[1, 2, 4], help="ranks to train on (each a run)")
    p.add_argument("--steps", type=int, default=100)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--plot", default=None, metavar="PNG", help="draw the loss curves (fuser per d, torch) into PNG")
    p.add_argument("--json", default=None, metavar="PATH", help="write the loss curves as JSON")
    a = p.parse_args(argv)
    t = TrainConfig(steps=a.steps, layers=a.layers, lr=a.lr)
    print(f"GPT: vocab {t.vocab}, hidden {t.hidden}, {t.heads} heads, ffn {t.ffn}, seq {t.seq}, {t.layers} layers; "
          f"AdamW lr {t.lr}, betas {t.betas}, weight decay {t.weight_decay}; {t.steps} steps, tp+sp")
    curves = {}
    for d in a.devices:
        curves[d] = train(t, d)
    first = curves[a.devices[0]]
    print("loss curve (every 10th step): " + ", ".join(f"{first[i]:.4f}" for i in range(0, t.steps, 10)) + f", last {first[-1]:.4f}")
    ok = True
    if not first[-1] < first[0]:
        print(f"FAIL: the loss did not decrease ({first[0]:.4f} -> {first[-1]:.4f})")
        ok = False
    for d in a.devices[1:]:
        err = max_rel(curves[d], first)
        print(f"d={d} vs d={a.devices[0]}: max relative difference of the losses {err:.2e}")
    ref = torch_losses(t)
    if ref is None:
        print("torch is not importable: the comparison with torch.optim.AdamW is skipped")
    else:
        for d, c in curves.items():
            err = max_rel(c, ref)
            print(f"d={d} vs torch: max relative difference of the losses {err:.2e} (tolerance 1e-4)")
            ok = ok and err <= 1e-4
    if a.json:
        import json
        with open(a.json, "w") as f:
            json.dump({"config": vars(t) if hasattr(t, "__dict__") else str(t),
                       "fuser": {str(d): c for d, c in curves.items()}, "torch": ref}, f, default=str)
    if a.plot:
        plot(curves, ref, t, a.plot)
    return 0 if ok else 1


def pyplot(path):
    """matplotlib's pyplot on the file backend, or None (saying `path` is not drawn)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"matplotlib is not importable: {path} not drawn")
        return None
    return plt


def plot(curves, ref, t, path):
    """The loss curves of fuser (one per d) and torch side by side, and their relative difference."""
    plt = pyplot(path)
    if plt is None:
        return
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    for d, c in curves.items():
        ax.plot(range(len(c)), c, label=f"fuser, tp+sp d={d}", linewidth=1.2)
    if ref is not None:
        ax.plot(range(len(ref)), ref, "k--", label="torch + torch.optim.AdamW", linewidth=1)
        for d, c in curves.items():
            ax2.semilogy(range(len(c)), [abs(a - b) / abs(b) + 1e-12 for a, b in zip(c, ref)], label=f"d={d}")
        ax2.axhline(1e-4, color="r", linestyle=":", label="tolerance 1e-4")
        ax2.set_title("relative difference to torch")
        ax2.set_xlabel("step")
        ax2.legend(fontsize=8)
    else:
        ax2.axis("off")
    ax.set_yscale("log")
    ax.set_xlabel("step")
    ax.set_ylabel("cross-entropy (mean over tokens)")
    ax.set_title(f"{t.layers}-layer GPT, vocab {t.vocab}, hidden {t.hidden}, f32, cpu backend")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(f"wrote {path}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
