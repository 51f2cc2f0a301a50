#!/usr/bin/env python3
"""Writes the reference transformer programs of issue 23 as fusion-dialect MLIR, at any size and
with the Megatron placements, so that the same program runs small on the cpu backend (checked
against the unsharded reference) and at real size on a GPU (checked against torch).

Programs:
  gpt3    LayerNorm, QKV linear with bias (heads interleaved [H, 3, D], as Megatron lays them
          out for column parallelism), causal attention, output projection, dropout, residual,
          LayerNorm, MLP with tanh-GELU, dropout, residual.
  llama   RMSNorm, Q/K/V linears, rotary embedding (rotate-half form, cos/sin given), grouped-
          query causal attention, output projection, residual, RMSNorm, SwiGLU MLP, residual.
  lmloss  vocab-parallel embedding, RMSNorm, LM head, vocab-parallel cross-entropy, mean loss.

Placements (the mesh is @tp = [0 .. devices-1]):
  tp      tensor parallel: column-parallel QKV/fc1 (heads and ffn split over DIDx), row-parallel
          projection/fc2 (their partial sums allreduced); activations replicated.
  tpsp    tensor + sequence parallel: norms, dropout and residuals split on the sequence;
          allgather before the column-parallel GEMMs, reduce-scatter after the row-parallel ones.

Example:
  python3 examples/transformer/gen.py gpt3 --placement tpsp --devices 4 > /tmp/gpt3.mlir
  fuser-run /tmp/gpt3.mlir --check
"""

import argparse
import sys


class Emitter:
    def __init__(self, args):
        self.a = args
        self.lines = []
        self.specs = []
        self.n = 0

    def ty(self, shape, elem=None, split=None, partial=False, stream=False):
        """A tensor type; `split` lists the axes split over DIDx; `stream` puts a `Stream(n)`
        split (--stream) outside the split of axis 0."""
        elem = elem or self.a.dtype
        dims = "x".join(str(d) for d in shape)
        body = f"{dims}x{elem}" if shape else elem
        if split is None:
            return f"tensor<{body}>"

        def axis(i):
            splits = (["Stream(%d)" % self.a.stream] if stream and i == 0 and self.a.stream > 1 else [])
            return "[" + ", ".join(splits + (["DIDx"] if i in split else [])) + "]"

        axes = ", ".join(axis(i) for i in range(len(shape)))
        part = ", partial = [DIDx]" if partial else ""
        return f"tensor<{body}, #fusion.shard<@tp, [{axes}]{part}>>"

    def arg(self, name, shape, elem=None, split=None, stream=False):
        """A function argument: (name, type); its spec is recorded for drivers (vs_torch.py)."""
        self.specs.append((name, list(shape), elem or self.a.dtype))
        return (name, self.ty(shape, elem, split, stream=stream))

    def op(self, text, result_ty, operand_tys, name=None):
        self.n += 1
        v = f"%{name or 'v'}{self.n}"
        ins = ", ".join(operand_tys)
        self.lines.append(f"  {v} = {text} : ({ins}) -> {result_ty}")
        return v


def gpt3(a, e):
    S, E, H = a.seq, a.hidden, a.heads
    D = E // H
    F = a.ffn or 4 * E
    sp = a.placement == "tpsp"
    dt = a.dtype
    seq = [0] if sp else []
    args = [
        e.arg("x", [S, E], split=seq, stream=True),
        e.arg("ln1_w", [E], split=[]),
        e.arg("ln1_b", [E], split=[]),
        e.arg("w_qkv", [3 * E, E], split=[0]),
        e.arg("b_qkv", [3 * E], split=[0]),
        e.arg("w_o", [E, E], split=[1]),
        e.arg("b_o", [E], split=[]),
        e.arg("ln2_w", [E], split=[]),
        e.arg("ln2_b", [E], split=[]),
        e.arg("w_1", [F, E], split=[0]),
        e.arg("b_1", [F], split=[0]),
        e.arg("w_2", [E, F], split=[1]),
        e.arg("b_2", [E], split=[]),
        e.arg("seed", [], "i64", split=[]),
        e.arg("offset", [], "i64", split=[]),
    ]
    T = dict(args)
    x_t = T["x"]
    h = e.op(f"fusion.layer_norm %x weight %ln1_w bias %ln1_b dims = [1] {{epsilon = {a.eps:e} : f64}}",
             x_t, [x_t, T["ln1_w"], T["ln1_b"]])
    qkv_t = e.ty([S, 3 * E], split=[1])
    qkv = e.op(f"fusion.linear {h}, %w_qkv, %b_qkv", qkv_t, [x_t, T["w_qkv"], T["b_qkv"]])
    r_t = e.ty([S, H, 3, D], split=[1])
    r = e.op(f"fusion.reshape {qkv}", r_t, [qkv_t])
    heads = []
    for j in range(3):
        s_t = e.ty([S, H, 1, D], split=[1])
        s = e.op(f"fusion.slice {r} offsets = [0, 0, {j}, 0] sizes = [{S}, {H}, 1, {D}]", s_t, [r_t])
        s3_t = e.ty([S, H, D], split=[1])
        s3 = e.op(f"fusion.reshape {s}", s3_t, [s_t])
        p_t = e.ty([H, S, D], split=[0])
        p = e.op(f"fusion.permute {s3} dims = [1, 0, 2]", p_t, [s3_t])
        b_t = e.ty([1, H, S, D], split=[1])
        heads.append((e.op(f"fusion.reshape {p}", b_t, [p_t]), b_t))
    (q, q_t), (k, k_t), (v, v_t) = heads
    o_t = e.ty([1, H, S, D], split=[1])
    att = e.op(f"fusion.sdpa {q}, {k}, {v} causal", o_t, [q_t, k_t, v_t])
    a3_t = e.ty([H, S, D], split=[0])
    a3 = e.op(f"fusion.reshape {att}", a3_t, [o_t])
    ap_t = e.ty([S, H, D], split=[1])
    ap = e.op(f"fusion.permute {a3} dims = [1, 0, 2]", ap_t, [a3_t])
    a2_t = e.ty([S, E], split=[1])
    a2 = e.op(f"fusion.reshape {ap}", a2_t, [ap_t])
    proj = e.op(f"fusion.linear {a2}, %w_o, %b_o", x_t, [a2_t, T["w_o"], T["b_o"]])
    drop1 = e.op(f"fusion.dropout {proj}, %seed, %offset p = {a.dropout}", x_t, [x_t, T["seed"], T["offset"]])
    x1 = e.op(f"fusion.add %x, {drop1}", x_t, [x_t, x_t])
    h2 = e.op(f"fusion.layer_norm {x1} weight %ln2_w bias %ln2_b dims = [1] {{epsilon = {a.eps:e} : f64}}",
              x_t, [x_t, T["ln2_w"], T["ln2_b"]])
    f_t = e.ty([S, F], split=[1])
    f1 = e.op(f"fusion.linear {h2}, %w_1, %b_1", f_t, [x_t, T["w_1"], T["b_1"]])
    g = e.op(f"fusion.gelu {f1} {{approximate = \"tanh\"}}", f_t, [f_t])
    f2 = e.op(f"fusion.linear {g}, %w_2, %b_2", x_t, [f_t, T["w_2"], T["b_2"]])
    # The second dropout draws from the counters after the first one's.
    drop2 = e.op(f"fusion.dropout {f2}, %seed, %offset2 p = {a.dropout}", x_t, [x_t, T["seed"], T["offset"]])
    y = e.op(f"fusion.add {x1}, {drop2}", x_t, [x_t, x_t])
    args.append(e.arg("offset2", [], "i64", split=[]))
    return args, [(y, x_t)]


def llama(a, e):
    S, E, H = a.seq, a.hidden, a.heads
    D = E // H
    Hkv = a.kv_heads or H
    F = a.ffn or 4 * E
    sp = a.placement == "tpsp"
    seq = [0] if sp else []
    args = [
        e.arg("x", [S, E], split=seq, stream=True),
        e.arg("n1_w", [E], split=[]),
        e.arg("w_q", [H * D, E], split=[0]),
        e.arg("w_k", [Hkv * D, E], split=[0]),
        e.arg("w_v", [Hkv * D, E], split=[0]),
        e.arg("cos", [S, D], split=[]),
        e.arg("sin", [S, D], split=[]),
        e.arg("w_o", [E, H * D], split=[1]),
        e.arg("n2_w", [E], split=[]),
        e.arg("w_g", [F, E], split=[0]),
        e.arg("w_u", [F, E], split=[0]),
        e.arg("w_d", [E, F], split=[1]),
    ]
    T = dict(args)
    x_t = T["x"]
    h = e.op(f"fusion.rms_norm %x weight %n1_w dims = [1] {{epsilon = {a.eps:e} : f64}}", x_t, [x_t, T["n1_w"]])
    half = D // 2

    def rotary(v, v_t, heads):
        """v [S, heads, D] (heads over DIDx): v * cos + rotate_half(v) * sin."""
        c_t = e.ty([S, heads, D], split=[])
        cos_b = e.op(f"fusion.broadcast %cos dims = [1]", c_t, [T["cos"]])
        sin_b = e.op(f"fusion.broadcast %sin dims = [1]", c_t, [T["sin"]])
        h_t = e.ty([S, heads, half], split=[1])
        lo = e.op(f"fusion.slice {v} offsets = [0, 0, 0] sizes = [{S}, {heads}, {half}]", h_t, [v_t])
        hi = e.op(f"fusion.slice {v} offsets = [0, 0, {half}] sizes = [{S}, {heads}, {half}]", h_t, [v_t])
        nhi = e.op(f"fusion.neg {hi}", h_t, [h_t])
        rot = e.op(f"fusion.concat {nhi}, {lo} dim = 2", v_t, [h_t, h_t])
        vc = e.op(f"fusion.mul {v}, {cos_b}", v_t, [v_t, c_t])
        rs = e.op(f"fusion.mul {rot}, {sin_b}", v_t, [v_t, c_t])
        return e.op(f"fusion.add {vc}, {rs}", v_t, [v_t, v_t])

    def project(w, heads, rope):
        p_t = e.ty([S, heads * D], split=[1])
        p = e.op(f"fusion.linear {h}, {w}", p_t, [x_t, T[w[1:]]])
        r_t = e.ty([S, heads, D], split=[1])
        r = e.op(f"fusion.reshape {p}", r_t, [p_t])
        if rope:
            r = rotary(r, r_t, heads)
        t_t = e.ty([heads, S, D], split=[0])
        t = e.op(f"fusion.permute {r} dims = [1, 0, 2]", t_t, [r_t])
        b_t = e.ty([1, heads, S, D], split=[1])
        return e.op(f"fusion.reshape {t}", b_t, [t_t]), b_t

    q, q_t = project("%w_q", H, True)
    k, k_t = project("%w_k", Hkv, True)
    v, v_t = project("%w_v", Hkv, False)
    o_t = e.ty([1, H, S, D], split=[1])
    att = e.op(f"fusion.sdpa {q}, {k}, {v} causal", o_t, [q_t, k_t, v_t])
    a3_t = e.ty([H, S, D], split=[0])
    a3 = e.op(f"fusion.reshape {att}", a3_t, [o_t])
    ap_t = e.ty([S, H, D], split=[1])
    ap = e.op(f"fusion.permute {a3} dims = [1, 0, 2]", ap_t, [a3_t])
    a2_t = e.ty([S, H * D], split=[1])
    a2 = e.op(f"fusion.reshape {ap}", a2_t, [ap_t])
    proj = e.op(f"fusion.linear {a2}, %w_o", x_t, [a2_t, T["w_o"]])
    x1 = e.op(f"fusion.add %x, {proj}", x_t, [x_t, x_t])
    h2 = e.op(f"fusion.rms_norm {x1} weight %n2_w dims = [1] {{epsilon = {a.eps:e} : f64}}", x_t, [x_t, T["n2_w"]])
    f_t = e.ty([S, F], split=[1])
    g = e.op(f"fusion.linear {h2}, %w_g", f_t, [x_t, T["w_g"]])
    u = e.op(f"fusion.linear {h2}, %w_u", f_t, [x_t, T["w_u"]])
    sg = e.op(f"fusion.silu {g}", f_t, [f_t])
    m = e.op(f"fusion.mul {sg}, {u}", f_t, [f_t, f_t])
    d = e.op(f"fusion.linear {m}, %w_d", x_t, [f_t, T["w_d"]])
    y = e.op(f"fusion.add {x1}, {d}", x_t, [x_t, x_t])
    return args, [(y, x_t)]


def lmloss(a, e):
    S, E, V = a.seq, a.hidden, a.vocab
    sp = a.placement == "tpsp"
    seq = [0] if sp else []
    args = [
        e.arg("ids", [S], "i64", split=[]),
        e.arg("table", [V, E], split=[0]),
        e.arg("n_w", [E], split=[]),
        e.arg("w_lm", [V, E], split=[0]),
        e.arg("labels", [S], "i64", split=[]),
    ]
    T = dict(args)
    x_t = e.ty([S, E], split=seq)
    x = e.op("fusion.embedding %table, %ids", x_t, [T["table"], T["ids"]])
    h = e.op(f"fusion.rms_norm {x} weight %n_w dims = [1] {{epsilon = {a.eps:e} : f64}}", x_t, [x_t, T["n_w"]])
    l_t = e.ty([S, V], split=[1])
    logits = e.op(f"fusion.linear {h}, %w_lm", l_t, [x_t, T["w_lm"]])
    loss_t = e.ty([S], "f32", split=[])
    loss = e.op(f"fusion.cross_entropy {logits}, %labels", loss_t, [l_t, T["labels"]])
    mean_t = e.ty([], "f32", split=[])
    mean = e.op(f"fusion.mean {loss} dims = [0]", mean_t, [loss_t])
    return args, [(loss, loss_t), (mean, mean_t)]


def main_args(argv=None):
    """The parsed command line."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model", choices=["gpt3", "llama", "lmloss"])
    p.add_argument("--placement", choices=["tp", "tpsp"], default="tp")
    p.add_argument("--devices", type=int, default=1)
    p.add_argument("--dtype", default="f32", help="element type of activations and weights (f32, bf16, ...)")
    p.add_argument("--seq", type=int, default=16)
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--heads", type=int, default=8)
    p.add_argument("--kv-heads", type=int, default=0, help="llama: key/value heads (default: --heads)")
    p.add_argument("--ffn", type=int, default=0, help="MLP width (default 4 x hidden)")
    p.add_argument("--vocab", type=int, default=256)
    p.add_argument("--dropout", type=float, default=0.1)
    p.add_argument("--eps", type=float, default=1e-5)
    p.add_argument("--stream", type=int, default=0,
                   help="gpt3/llama: split the sequence of x and of the residual stream in N stream chunks "
                        "(outside the device split: [Stream(N), DIDx]), so that the overlap pipelines pipeline "
                        "each chunk's communication with the other chunk's GEMMs")
    return p.parse_args(argv)


def render(a):
    """The program's MLIR text and its arguments' (name, shape, element type), in order."""
    e = Emitter(a)
    args, results = {"gpt3": gpt3, "llama": llama, "lmloss": lmloss}[a.model](a, e)
    devices = ", ".join(str(i) for i in range(a.devices))
    out = [f"// {a.model} ({a.placement}, {a.devices} devices, {a.dtype}, seq {a.seq}, hidden {a.hidden}, "
           f"heads {a.heads}): generated by examples/transformer/gen.py",
           f"fusion.mesh @tp = [{devices}]", ""]
    sig = ", ".join(f"%{n}: {t}" for n, t in args)
    res_t = ", ".join(t for _, t in results)
    out.append(f"func.func @{a.model}({sig}) -> ({res_t}) {{")
    out.extend(e.lines)
    out.append(f"  return {', '.join(v for v, _ in results)} : {res_t}")
    out.append("}")
    order = [n for n, _ in args]
    specs = sorted(e.specs, key=lambda s: order.index(s[0]))
    return "\n".join(out) + "\n", specs


def result_types(a):
    """The element type of each result of the program."""
    import re
    _, results = {"gpt3": gpt3, "llama": llama, "lmloss": lmloss}[a.model](a, Emitter(a))
    return [re.match(r"tensor<(?:[0-9]+x)*([a-z0-9]+)", t).group(1) for _, t in results]


def main(argv=None):
    text, _ = render(main_args(argv))
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
