"""torch modules shared by the torch importer's tests (test_torch_import.py,
test_torch_placements.py, the torchrun workers): plain modules with random weights, no
downloads, and the TP plans the tests shard them with. Import it only after
`pytest.importorskip("torch")`."""

from __future__ import annotations

import torch

nn = torch.nn
F = torch.nn.functional


def rel_err(got: torch.Tensor, want: torch.Tensor) -> float:
    got, want = got.detach().double(), want.detach().double()
    scale = max(float(want.abs().max()), 1e-30)
    return float((got - want).abs().max()) / scale


def randomize(module: nn.Module, seed: int = 0) -> nn.Module:
    """Random weights (norm weights near 1, biases small) so that every parameter matters."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in module.named_parameters():
            noise = torch.randn(p.shape, generator=g, dtype=torch.float64).to(p.dtype)
            if "norm" in name or "ln" in name:
                p.copy_(1 + 0.1 * noise)
            else:
                p.copy_(noise / max(p.shape[-1], 1) ** 0.5)
    return module.eval()


# -- the modules -------------------------------------------------------------------------------


class MLP(nn.Module):
    def __init__(self, dim: int = 16, hidden: int = 32) -> None:
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


class GPT2Attention(nn.Module):
    def __init__(self, dim: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.c_attn = nn.Linear(dim, 3 * dim)
        self.c_proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(C, dim=2)
        q = q.view(B, T, self.heads, C // self.heads).transpose(1, 2)
        k = k.view(B, T, self.heads, C // self.heads).transpose(1, 2)
        v = v.view(B, T, self.heads, C // self.heads).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


class GPT2MLP(nn.Module):
    def __init__(self, dim: int) -> None:
        super().__init__()
        self.c_fc = nn.Linear(dim, 4 * dim)
        self.gelu = nn.GELU(approximate="tanh")
        self.c_proj = nn.Linear(4 * dim, dim)
        self.dropout = nn.Dropout(0.1)

    def forward(self, x):
        return self.dropout(self.c_proj(self.gelu(self.c_fc(x))))


class GPT2Block(nn.Module):
    def __init__(self, dim: int = 32, heads: int = 4) -> None:
        super().__init__()
        self.ln_1 = nn.LayerNorm(dim)
        self.attn = GPT2Attention(dim, heads)
        self.ln_2 = nn.LayerNorm(dim)
        self.mlp = GPT2MLP(dim)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        x = x + self.mlp(self.ln_2(x))
        return x


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def _norm(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)

    def forward(self, x):
        return self._norm(x.float()).type_as(x) * self.weight


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def repeat_kv(x, n_rep: int):
    b, h, s, d = x.shape
    return x[:, :, None, :, :].expand(b, h, n_rep, s, d).reshape(b, h * n_rep, s, d)


class LlamaAttention(nn.Module):
    def __init__(self, dim: int, heads: int, kv_heads: int, gqa: str) -> None:
        super().__init__()
        self.heads, self.kv_heads, self.head_dim, self.gqa = heads, kv_heads, dim // heads, gqa
        self.q_proj = nn.Linear(dim, heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(dim, kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(dim, kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(heads * self.head_dim, dim, bias=False)

    def forward(self, x, cos, sin):
        B, S, _ = x.shape
        q = self.q_proj(x).view(B, S, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, S, self.kv_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, S, self.kv_heads, self.head_dim).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        n_rep = self.heads // self.kv_heads
        if self.gqa == "expand":
            k, v = repeat_kv(k, n_rep), repeat_kv(v, n_rep)
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        elif self.gqa == "repeat_interleave":
            k, v = k.repeat_interleave(n_rep, dim=1), v.repeat_interleave(n_rep, dim=1)
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        return self.o_proj(y.transpose(1, 2).reshape(B, S, -1))


class LlamaMLP(nn.Module):
    def __init__(self, dim: int, hidden: int) -> None:
        super().__init__()
        self.gate_proj = nn.Linear(dim, hidden, bias=False)
        self.up_proj = nn.Linear(dim, hidden, bias=False)
        self.down_proj = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class LlamaBlock(nn.Module):
    def __init__(self, dim: int = 32, heads: int = 4, kv_heads: int = 2, hidden: int = 64, gqa: str = "expand") -> None:
        super().__init__()
        self.input_layernorm = RMSNorm(dim)
        self.self_attn = LlamaAttention(dim, heads, kv_heads, gqa)
        self.post_attention_layernorm = RMSNorm(dim)
        self.mlp = LlamaMLP(dim, hidden)

    def forward(self, x, cos, sin):
        h = x + self.self_attn(self.input_layernorm(x), cos, sin)
        return h + self.mlp(self.post_attention_layernorm(h))


def rope(seq: int, head_dim: int, dtype=torch.float32):
    inv = 1.0 / (10000 ** (torch.arange(0, head_dim, 2, dtype=torch.float64) / head_dim))
    freqs = torch.outer(torch.arange(seq, dtype=torch.float64), inv)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos().to(dtype), emb.sin().to(dtype)


def _fuser_styles():
    import fuser.torch

    return fuser.torch


def llama_plan(sp: bool, styles=None) -> dict:
    """torchtitan's Llama plan (patterns over the block's module paths)."""
    s = styles or _fuser_styles()
    plan = {
        "self_attn.[qkv]_proj": s.ColwiseParallel(),
        "self_attn.o_proj": s.RowwiseParallel(),
        "mlp.gate_proj": s.ColwiseParallel(),
        "mlp.up_proj": s.ColwiseParallel(),
        "mlp.down_proj": s.RowwiseParallel(),
    }
    if sp:
        plan.update({
            "*_layernorm": s.SequenceParallel(),
            "self_attn": s.PrepareModuleInput(
                input_layouts=(s.Shard(1), None, None), desired_input_layouts=(s.Replicate(), None, None)
            ),
            "self_attn.o_proj": s.RowwiseParallel(output_layouts=s.Shard(1)),
            "mlp": s.PrepareModuleInput(input_layouts=(s.Shard(1),), desired_input_layouts=(s.Replicate(),)),
            "mlp.down_proj": s.RowwiseParallel(output_layouts=s.Shard(1)),
        })
    return plan


def gpt2_plan(sp: bool, styles=None) -> dict:
    """Megatron's GPT-2 plan; with `sp`, sequence parallelism of the norms and the residual
    stream. The fused QKV projection stays replicated (split by columns, q/k/v would mix)."""
    s = styles or _fuser_styles()
    if not sp:
        return {"attn.c_proj": s.RowwiseParallel(), "mlp.c_fc": s.ColwiseParallel(), "mlp.c_proj": s.RowwiseParallel()}
    return {
        "ln_1": s.SequenceParallel(),
        "ln_2": s.SequenceParallel(),
        "attn": s.PrepareModuleInput(input_layouts=s.Shard(1), desired_input_layouts=s.Replicate()),
        "attn.c_proj": s.RowwiseParallel(input_layouts=s.Replicate(), output_layouts=s.Shard(1)),
        "mlp": s.PrepareModuleInput(input_layouts=(s.Shard(1),), desired_input_layouts=(s.Replicate(),)),
        "mlp.c_fc": s.ColwiseParallel(),
        "mlp.c_proj": s.RowwiseParallel(output_layouts=s.Shard(1)),
    }
