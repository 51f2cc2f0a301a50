"""The torch side of vs_torch.py and grad_vs_torch.py: the GPT-3 and Llama layers and the LM
loss of gen.py written with torch.nn.functional, how their arguments are drawn, and a timer.

Arguments are drawn as: weights ~ N(0, 0.02), activations ~ N(0, 1), norm weights
~ 1 + N(0, 0.02), biases ~ N(0, 0.02), ids/labels uniform in [0, vocab), seed 7, offsets 0,
cos/sin of the rotary embedding (base 10000).
"""

import time

import torch
import torch.nn.functional as F


def draw(name, shape, dtype, gen_, vocab):
    if name in ("seed", "offset", "offset2"):
        return torch.tensor(7 if name == "seed" else 0, dtype=torch.int64)
    if name in ("ids", "labels"):
        return torch.randint(0, vocab, shape, generator=gen_, dtype=torch.int64)
    if name.endswith("_b") or name.startswith("b_"):
        return (torch.randn(shape, generator=gen_) * 0.02).to(dtype)
    if name in ("ln1_w", "ln2_w", "n1_w", "n2_w", "n_w"):
        return (1 + torch.randn(shape, generator=gen_) * 0.02).to(dtype)
    if name in ("x",):
        return torch.randn(shape, generator=gen_).to(dtype)
    if name in ("cos", "sin"):
        return None  # filled by rope()
    return (torch.randn(shape, generator=gen_) * 0.02).to(dtype)


def rope(seq, d):
    inv = 1.0 / (10000 ** (torch.arange(0, d, 2).float() / d))
    t = torch.arange(seq).float()
    freqs = torch.outer(t, inv)
    emb = torch.cat([freqs, freqs], dim=-1)
    return emb.cos(), emb.sin()


def rotate_half(v):
    d = v.shape[-1] // 2
    return torch.cat([-v[..., d:], v[..., :d]], dim=-1)


def reference(model, a, t):
    S, E, H = a.seq, a.hidden, a.heads
    D = E // H
    if model == "gpt3":
        x = t["x"]
        h = F.layer_norm(x, (E,), t["ln1_w"], t["ln1_b"], a.eps)
        qkv = F.linear(h, t["w_qkv"], t["b_qkv"]).view(S, H, 3, D)
        q, k, v = (qkv[:, :, j].permute(1, 0, 2).unsqueeze(0) for j in range(3))
        o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        o = o[0].permute(1, 0, 2).reshape(S, E)
        x1 = x + F.linear(o, t["w_o"], t["b_o"])
        h2 = F.layer_norm(x1, (E,), t["ln2_w"], t["ln2_b"], a.eps)
        m = F.linear(F.gelu(F.linear(h2, t["w_1"], t["b_1"]), approximate="tanh"), t["w_2"], t["b_2"])
        return x1 + m
    if model == "llama":
        Hkv = a.kv_heads or H
        x = t["x"]
        h = F.rms_norm(x, (E,), t["n1_w"], a.eps)
        q = F.linear(h, t["w_q"]).view(S, H, D)
        k = F.linear(h, t["w_k"]).view(S, Hkv, D)
        v = F.linear(h, t["w_v"]).view(S, Hkv, D)
        cos, sin = t["cos"][:, None, :], t["sin"][:, None, :]
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        q, k, v = (z.permute(1, 0, 2).unsqueeze(0) for z in (q, k, v))
        o = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=Hkv != H)
        o = o[0].permute(1, 0, 2).reshape(S, E)
        x1 = x + F.linear(o, t["w_o"])
        h2 = F.rms_norm(x1, (E,), t["n2_w"], a.eps)
        m = F.silu(F.linear(h2, t["w_g"])) * F.linear(h2, t["w_u"])
        return x1 + F.linear(m, t["w_d"])
    if model == "lmloss":
        x = F.embedding(t["ids"], t["table"])
        h = F.rms_norm(x, (E,), t["n_w"], a.eps)
        logits = F.linear(h, t["w_lm"])
        # bf16/f16 logits: the loss in f32, as fuser's program keeps it (an f32 result).
        logits = logits.float() if logits.dtype in (torch.bfloat16, torch.float16) else logits
        return F.cross_entropy(logits, t["labels"], reduction="none")
    raise SystemExit(f"no torch reference for {model}")


def sync():
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def timed(fn, iters=10):
    """Milliseconds per call of `fn` (one untimed call first), the GPU synchronized around."""
    fn()
    sync()
    start = time.perf_counter()
    for _ in range(iters):
        fn()
    sync()
    return (time.perf_counter() - start) / iters * 1e3


def draw_all(specs, a, dtype, seed=0):
    """A tensor per argument of gen.py's program (`specs`: its (name, shape, element type)),
    drawn on the cpu as `draw` says, floats in `dtype`; cos/sin of the rotary embedding."""
    g = torch.Generator().manual_seed(seed)
    tensors = {}
    for name, shape, elem in specs:
        tensors[name] = draw(name, shape, torch.int64 if elem == "i64" else dtype, g, a.vocab)
    if "cos" in tensors:
        c, s = rope(a.seq, a.hidden // a.heads)
        tensors["cos"], tensors["sin"] = c.to(dtype), s.to(dtype)
    return tensors
