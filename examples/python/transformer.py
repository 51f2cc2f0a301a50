"""The reference transformer programs of issue 23 as `FusionDefinition`s, with the Megatron
placements: the same programs as examples/transformer/gen.py (same structure, same argument
order), built from Python instead of written as MLIR.

Programs:
  gpt3    LayerNorm, QKV linear with bias (heads interleaved [H, 3, D]), causal attention,
          output projection, dropout, residual, LayerNorm, MLP with tanh-GELU, dropout, residual.
  llama   RMSNorm, Q/K/V linears, rotary embedding (rotate-half form, cos/sin given), grouped-
          query causal attention, output projection, residual, RMSNorm, SwiGLU MLP, residual.
  lmloss  vocab-parallel embedding, RMSNorm, LM head, vocab-parallel cross-entropy, mean loss.

Placements (the mesh is [0 .. devices-1]):
  tp      tensor parallel: column-parallel QKV/fc1 (heads and ffn split over DIDx), row-parallel
          projection/fc2 (their partial sums allreduced); activations replicated.
  tpsp    tensor + sequence parallel: norms, dropout and residuals split on the sequence;
          allgather before the column-parallel GEMMs, reduce-scatter after the row-parallel ones.

Run on the cpu backend (NumPy), checked against the unsharded reference evaluation:
    python examples/python/transformer.py gpt3 --placement tpsp --devices 4
On GPUs, one process per rank (torch CUDA tensors, each rank its pieces):
    torchrun --nproc_per_node 2 examples/python/transformer.py llama --cuda
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from typing import Any, Dict, List, Tuple

import numpy as np

import fuser
from fuser import DIDx


@dataclass
class Config:
    """Sizes and placement (gen.py's options and defaults, smaller)."""

    placement: str = "tp"
    devices: int = 1
    dtype: str = "f32"
    seq: int = 8
    hidden: int = 32
    heads: int = 8
    kv_heads: int = 4
    ffn: int = 64
    vocab: int = 64
    dropout: float = 0.1
    eps: float = 1e-5
    #: (name, global shape, element type) of every argument, in order (filled by the builders).
    specs: List[Tuple[str, List[int], str]] = field(default_factory=list)


def _mesh(c: Config) -> fuser.Mesh:
    return fuser.Mesh(list(range(c.devices)))


def _splits(rank: int, split: List[int]) -> list:
    """`splits=` of a rank-`rank` tensor split over DIDx on the axes `split`."""
    return [[DIDx] if i in split else [] for i in range(rank)]


def _arg(fd: fuser.FusionDefinition, c: Config, name: str, shape: List[int], dtype: str = "", split=()) -> fuser.Tensor:
    dtype = dtype or c.dtype
    c.specs.append((name, list(shape), dtype))
    return fd.define_tensor(shape, dtype, splits=_splits(len(shape), list(split)))


def _heads_back(fd: fuser.FusionDefinition, att: fuser.Tensor, S: int, H: int, D: int) -> fuser.Tensor:
    """[1, H, S, D] (heads over DIDx) -> [S, H * D] (columns over DIDx)."""
    a3 = fd.ops.reshape(att, [H, S, D], splits=_splits(3, [0]))
    ap = fd.ops.permute(a3, [1, 0, 2], splits=_splits(3, [1]))
    return fd.ops.reshape(ap, [S, H * D], splits=_splits(2, [1]))


GPT3_PARAMS = ["ln1_w", "ln1_b", "w_qkv", "b_qkv", "w_o", "b_o", "ln2_w", "ln2_b", "w_1", "b_1", "w_2", "b_2"]


def gpt3_params(fd: fuser.FusionDefinition, c: Config, prefix: str = "") -> Dict[str, fuser.Tensor]:
    """The weights of one GPT-3 layer as inputs of `fd` (in `GPT3_PARAMS` order, named
    `prefix + name`): column-parallel QKV and fc1 (rows over DIDx), row-parallel projection
    and fc2 (columns over DIDx), norms and row-parallel biases replicated."""
    E, F = c.hidden, c.ffn
    shapes = {
        "ln1_w": ([E], []), "ln1_b": ([E], []), "w_qkv": ([3 * E, E], [0]), "b_qkv": ([3 * E], [0]),
        "w_o": ([E, E], [1]), "b_o": ([E], []), "ln2_w": ([E], []), "ln2_b": ([E], []),
        "w_1": ([F, E], [0]), "b_1": ([F], [0]), "w_2": ([E, F], [1]), "b_2": ([E], []),
    }
    return {n: _arg(fd, c, prefix + n, shapes[n][0], split=shapes[n][1]) for n in GPT3_PARAMS}


def gpt3_layer(
    fd: fuser.FusionDefinition, c: Config, x: fuser.Tensor, p: Dict[str, fuser.Tensor], dropout: Any = None
) -> fuser.Tensor:
    """One GPT-3 layer on `x [S, E]` (split on the sequence under tpsp) with the weights `p`
    (`gpt3_params`): LayerNorm, QKV linear with bias (heads interleaved [H, 3, D]), causal
    attention, output projection, [dropout], residual, LayerNorm, MLP with tanh-GELU,
    [dropout], residual. `dropout`: `(seed, offset, offset2)` tensors, or None for none."""
    S, E, H = c.seq, c.hidden, c.heads
    D = E // H
    seq = [0] if c.placement == "tpsp" else []
    x_s = _splits(2, seq)
    h = fd.ops.layer_norm(x, p["ln1_w"], p["ln1_b"], dims=[1], epsilon=c.eps)
    qkv = fd.ops.linear(h, p["w_qkv"], p["b_qkv"], splits=_splits(2, [1]))
    r = fd.ops.reshape(qkv, [S, H, 3, D], splits=_splits(4, [1]))
    heads = []
    for j in range(3):
        s = fd.ops.slice(r, [0, 0, j, 0], [S, H, 1, D], splits=_splits(4, [1]))
        s3 = fd.ops.reshape(s, [S, H, D], splits=_splits(3, [1]))
        t = fd.ops.permute(s3, [1, 0, 2], splits=_splits(3, [0]))
        heads.append(fd.ops.reshape(t, [1, H, S, D], splits=_splits(4, [1])))
    q, k, v = heads
    att = fd.ops.sdpa(q, k, v, causal=True, splits=_splits(4, [1]))
    a2 = _heads_back(fd, att, S, H, D)
    proj = fd.ops.linear(a2, p["w_o"], p["b_o"], splits=x_s)
    if dropout is not None:
        proj = fd.ops.dropout(proj, dropout[0], dropout[1], c.dropout, splits=x_s)
    x1 = fd.ops.add(x, proj, splits=x_s)
    h2 = fd.ops.layer_norm(x1, p["ln2_w"], p["ln2_b"], dims=[1], epsilon=c.eps)
    f1 = fd.ops.linear(h2, p["w_1"], p["b_1"], splits=_splits(2, [1]))
    g = fd.ops.gelu(f1, approximate="tanh")
    f2 = fd.ops.linear(g, p["w_2"], p["b_2"], splits=x_s)
    if dropout is not None:
        # The second dropout draws from the counters after the first one's (gen.py's offset2).
        f2 = fd.ops.dropout(f2, dropout[0], dropout[2], c.dropout, splits=x_s)
    return fd.ops.add(x1, f2, splits=x_s)


def gpt3(c: Config) -> fuser.FusionDefinition:
    """gen.py's gpt3 layer."""
    S, E = c.seq, c.hidden
    seq = [0] if c.placement == "tpsp" else []
    c.specs.clear()
    with fuser.FusionDefinition(mesh=_mesh(c), name="gpt3") as fd:
        x = _arg(fd, c, "x", [S, E], split=seq)
        p = gpt3_params(fd, c)
        seed, offset = _arg(fd, c, "seed", [], "i64"), _arg(fd, c, "offset", [], "i64")
        offset2 = _arg(fd, c, "offset2", [], "i64")
        fd.add_output(gpt3_layer(fd, c, x, p, (seed, offset, offset2)))
    return fd


def llama(c: Config) -> fuser.FusionDefinition:
    """gen.py's llama layer (grouped-query attention with `kv_heads` key/value heads)."""
    S, E, H = c.seq, c.hidden, c.heads
    D, Hkv, F = E // H, c.kv_heads or H, c.ffn
    half = D // 2
    seq = [0] if c.placement == "tpsp" else []
    c.specs.clear()
    with fuser.FusionDefinition(mesh=_mesh(c), name="llama") as fd:
        x = _arg(fd, c, "x", [S, E], split=seq)
        n1_w = _arg(fd, c, "n1_w", [E])
        w_q = _arg(fd, c, "w_q", [H * D, E], split=[0])
        w_k = _arg(fd, c, "w_k", [Hkv * D, E], split=[0])
        w_v = _arg(fd, c, "w_v", [Hkv * D, E], split=[0])
        cos, sin = _arg(fd, c, "cos", [S, D]), _arg(fd, c, "sin", [S, D])
        w_o = _arg(fd, c, "w_o", [E, H * D], split=[1])
        n2_w = _arg(fd, c, "n2_w", [E])
        w_g, w_u = _arg(fd, c, "w_g", [F, E], split=[0]), _arg(fd, c, "w_u", [F, E], split=[0])
        w_d = _arg(fd, c, "w_d", [E, F], split=[1])
        x_s = _splits(2, seq)
        h = fd.ops.rms_norm(x, n1_w, dims=[1], epsilon=c.eps)

        def rotary(v: fuser.Tensor, heads: int) -> fuser.Tensor:
            """v [S, heads, D] (heads over DIDx): v * cos + rotate_half(v) * sin."""
            cos_b = fd.ops.broadcast(cos, [(1, heads)])
            sin_b = fd.ops.broadcast(sin, [(1, heads)])
            hs = _splits(3, [1])
            lo = fd.ops.slice(v, [0, 0, 0], [S, heads, half], splits=hs)
            hi = fd.ops.slice(v, [0, 0, half], [S, heads, half], splits=hs)
            rot = fd.ops.concat([-hi, lo], 2, splits=hs)
            return v * cos_b + rot * sin_b

        def project(w: fuser.Tensor, heads: int, rope: bool) -> fuser.Tensor:
            p = fd.ops.linear(h, w, splits=_splits(2, [1]))
            r = fd.ops.reshape(p, [S, heads, D], splits=_splits(3, [1]))
            if rope:
                r = rotary(r, heads)
            t = fd.ops.permute(r, [1, 0, 2], splits=_splits(3, [0]))
            return fd.ops.reshape(t, [1, heads, S, D], splits=_splits(4, [1]))

        q, k, v = project(w_q, H, True), project(w_k, Hkv, True), project(w_v, Hkv, False)
        att = fd.ops.sdpa(q, k, v, causal=True, splits=_splits(4, [1]))
        a2 = _heads_back(fd, att, S, H, D)
        proj = fd.ops.linear(a2, w_o, splits=x_s)
        x1 = fd.ops.add(x, proj, splits=x_s)
        h2 = fd.ops.rms_norm(x1, n2_w, dims=[1], epsilon=c.eps)
        g = fd.ops.linear(h2, w_g, splits=_splits(2, [1]))
        u = fd.ops.linear(h2, w_u, splits=_splits(2, [1]))
        m = fd.ops.silu(g) * u
        d = fd.ops.linear(m, w_d, splits=x_s)
        y = fd.ops.add(x1, d, splits=x_s)
        fd.add_output(y)
    return fd


def lmloss(c: Config) -> fuser.FusionDefinition:
    """gen.py's lmloss: vocab-parallel embedding, RMSNorm, LM head, vocab-parallel
    cross-entropy (an f32 loss), mean loss."""
    S, E, V = c.seq, c.hidden, c.vocab
    seq = [0] if c.placement == "tpsp" else []
    c.specs.clear()
    with fuser.FusionDefinition(mesh=_mesh(c), name="lmloss") as fd:
        ids = _arg(fd, c, "ids", [S], "i64")
        table = _arg(fd, c, "table", [V, E], split=[0])
        n_w = _arg(fd, c, "n_w", [E])
        w_lm = _arg(fd, c, "w_lm", [V, E], split=[0])
        labels = _arg(fd, c, "labels", [S], "i64")
        x = fd.ops.embedding(table, ids, splits=_splits(2, seq))
        h = fd.ops.rms_norm(x, n_w, dims=[1], epsilon=c.eps)
        logits = fd.ops.linear(h, w_lm, splits=_splits(2, [1]))
        loss = fd.ops.cross_entropy(logits, labels, dtype="f32", splits=[[]])
        mean = fd.ops.mean(loss, [0], splits=[])
        fd.add_output(loss)
        fd.add_output(mean)
    return fd


BUILDERS = {"gpt3": gpt3, "llama": llama, "lmloss": lmloss}


def inputs(c: Config, rng: np.random.Generator) -> List[np.ndarray]:
    """Global inputs for the arguments `c.specs` lists: small normal weights (norm weights
    near 1), token ids and labels in [0, vocab), rotary cos/sin tables, seed and offsets."""
    out: List[np.ndarray] = []
    named: Dict[str, np.ndarray] = {}
    D = c.hidden // c.heads
    for name, shape, dtype in c.specs:
        if name in ("ids", "labels"):
            a = rng.integers(0, c.vocab, size=shape, dtype=np.int64)
        elif name == "seed":
            a = np.array(1234, dtype=np.int64)
        elif name.startswith("offset"):
            a = np.array(0 if name == "offset" else c.seq * c.hidden, dtype=np.int64)
        elif name in ("cos", "sin"):
            pos = np.arange(c.seq)[:, None]
            freq = 10000.0 ** (-np.arange(D // 2) * 2.0 / D)
            ang = np.concatenate([pos * freq, pos * freq], axis=1)
            a = np.cos(ang) if name == "cos" else np.sin(ang)
        elif name.endswith("_w"):
            a = 1.0 + 0.1 * rng.standard_normal(shape)
        elif name.startswith("w") or name == "table":
            a = rng.standard_normal(shape) / np.sqrt(shape[-1])
        else:
            a = rng.standard_normal(shape) * (0.1 if name.startswith(("b", "ln")) else 1.0)
        named[name] = a
        out.append(a)
    return out


def run_cpu(model: str, c: Config, seed: int = 0) -> Tuple[fuser.FusionDefinition, List[np.ndarray], List[np.ndarray]]:
    """Builds `model`, runs it on `c.devices` cpu ranks with the reference check; the
    definition, the inputs and the outputs."""
    fd = BUILDERS[model](c)
    xs = inputs(c, np.random.default_rng(seed))
    outs = fd.execute(xs, check=True)
    return fd, xs, outs


def pieces(c: Config, xs: List[np.ndarray], arg_types: List[Tuple[List[int], str]], rank: int) -> List[Any]:
    """Rank `rank`'s pieces of the global inputs `xs` as torch CUDA tensors: each argument's
    local shape (`arg_types`, a `CudaProgram`'s) says which axes are split over the 1-D mesh."""
    import torch

    import fuser.torch

    out = []
    for (name, shape, dtype), a, (local, local_dtype) in zip(c.specs, xs, arg_types):
        t = torch.from_numpy(np.asarray(a, dtype=np.int64 if dtype == "i64" else np.float64))
        t = t.to(fuser.torch._TORCH_DTYPES[local_dtype])
        for axis, (g, n) in enumerate(zip(shape, local)):
            if g != n:
                t = t.narrow(axis, rank * n, n)
        out.append(t.contiguous().cuda())
    return out


def main_cuda(model: str, c: Config) -> None:
    """One rank of a torchrun run: the same global inputs on every rank (one seed), each rank
    passing its pieces; prints the outputs' pieces and, on rank 0 of a one-rank run, the
    largest difference from the cpu backend's outputs."""
    import torch

    import fuser.torch

    rank = fuser.torch.Rank()
    c.devices = rank.world
    fd = BUILDERS[model](c)
    program = rank.compile(fd)
    xs = inputs(c, np.random.default_rng(0))
    outs = rank.execute(program, pieces(c, xs, program.arg_types(), rank.rank))
    torch.cuda.synchronize()
    print(f"{model} rank {rank.rank}/{rank.world}: outputs {[tuple(o.shape) for o in outs]}", flush=True)
    if rank.world == 1:
        want = fd.execute(xs, check=True)
        err = max(float(np.max(np.abs(o.double().cpu().numpy() - w))) for o, w in zip(outs, want))
        print(f"{model}: max |cuda - cpu| {err:.2e}", flush=True)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model", choices=sorted(BUILDERS))
    p.add_argument("--placement", choices=["tp", "tpsp"], default="tp")
    p.add_argument("--devices", type=int, default=2)
    p.add_argument("--dtype", default="f32", help="activations and weights (f32, bf16, ...)")
    p.add_argument("--cuda", action="store_true", help="one rank of a torchrun run on GPUs")
    a = p.parse_args(argv)
    c = Config(placement=a.placement, devices=a.devices, dtype=a.dtype)
    if a.cuda:
        main_cuda(a.model, c)
        return
    fd, _, outs = run_cpu(a.model, c)
    print(
        f"{a.model} ({a.placement}) on {a.devices} cpu ranks: outputs {[o.shape for o in outs]}, "
        f"reference check (rel err, tolerance) {fd.last_check}"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
