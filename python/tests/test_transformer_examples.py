"""examples/python/transformer.py: the GPT-3 and Llama layers and the LM-head loss as
FusionDefinitions are the very programs examples/transformer/gen.py writes, run on 1, 2 and 4
cpu ranks with the reference check, match NumPy, and lower to Megatron's collectives."""

from __future__ import annotations

import math
import os
import re
import runpy
import sys

import fuser
import numpy as np
import pytest
from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "examples", "python"))
sys.path.insert(0, os.path.join(ROOT, "examples", "transformer"))
import gen  # noqa: E402
import transformer  # noqa: E402

MODELS = ["gpt3", "llama", "lmloss"]
PLACEMENTS = ["tp", "tpsp"]


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("placement", PLACEMENTS)
@pytest.mark.parametrize("devices", [1, 2, 4])
def test_the_program_is_gen_py_s(model, placement, devices):
    c = transformer.Config(placement=placement, devices=devices)
    fd = transformer.BUILDERS[model](c)
    args = gen.main_args([model, "--placement", placement, "--devices", str(devices), "--seq", str(c.seq),
                          "--hidden", str(c.hidden), "--heads", str(c.heads), "--kv-heads", str(c.kv_heads),
                          "--ffn", str(c.ffn), "--vocab", str(c.vocab), "--dropout", str(c.dropout)])
    text, specs = gen.render(args)
    assert fd.module().print() == fuser.parse(text).print()
    assert [tuple(s) for s in specs] == c.specs


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("placement", PLACEMENTS)
@pytest.mark.parametrize("devices", [1, 2, 4])
def test_runs_sharded_and_passes_the_reference_check(model, placement, devices):
    c = transformer.Config(placement=placement, devices=devices)
    fd, xs, outs = transformer.run_cpu(model, c)
    assert len(fd.last_check) == len(outs)
    assert all(err <= tol for err, tol in fd.last_check)
    assert all(np.all(np.isfinite(o)) for o in outs)


@pytest.mark.parametrize("model", MODELS)
def test_bf16_runs_with_the_check(model):
    c = transformer.Config(placement="tpsp", devices=2, dtype="bf16")
    fd, _, outs = transformer.run_cpu(model, c)
    assert fd.module().print().count("bf16") > 0
    assert all(err <= tol for err, tol in fd.last_check) and all(o.dtype == np.float32 for o in outs)


@pytest.mark.parametrize("model, placement, collectives", [
    ("gpt3", "tp", {"allreduce"}), ("gpt3", "tpsp", {"allgather", "reduce_scatter"}),
    ("llama", "tp", {"allreduce"}), ("llama", "tpsp", {"allgather", "reduce_scatter"}),
    ("lmloss", "tp", {"allreduce"}), ("lmloss", "tpsp", {"allgather", "reduce_scatter", "allreduce"}),
])
def test_lowers_to_megatron_s_collectives(model, placement, collectives):
    text = transformer.BUILDERS[model](transformer.Config(placement=placement, devices=4)).lower().print()
    assert set(re.findall(r"comm\.(\w+)", text)) - {"wait"} == collectives


# -- NumPy references (f32 programs, checked at f32 precision) -----------------------------------


def layer_norm(x, w, b, eps):
    mu, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def rms_norm(x, w, eps):
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + eps) * w


def causal_attention(q, k, v):
    """q [H, S, D], k/v [Hkv, S, D]: softmax(q k^T / sqrt(D), causal) v, [S, H * D]."""
    H, S, D = q.shape
    k, v = np.repeat(k, H // k.shape[0], 0), np.repeat(v, H // v.shape[0], 0)
    s = np.einsum("hid,hjd->hij", q, k) / math.sqrt(D)
    s = np.where(np.tril(np.ones((S, S), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    o = np.einsum("hij,hjd->hid", p / p.sum(-1, keepdims=True), v)
    return o.transpose(1, 0, 2).reshape(S, H * D)


def gpt3_ref(c, x, ln1_w, ln1_b, w_qkv, b_qkv, w_o, b_o, ln2_w, ln2_b, w_1, b_1, w_2, b_2, seed, offset, offset2):
    S, E, H = c.seq, c.hidden, c.heads
    D = E // H
    qkv = (layer_norm(x, ln1_w, ln1_b, c.eps) @ w_qkv.T + b_qkv).reshape(S, H, 3, D)
    q, k, v = (qkv[:, :, j].transpose(1, 0, 2) for j in range(3))
    x1 = x + causal_attention(q, k, v) @ w_o.T + b_o
    f = layer_norm(x1, ln2_w, ln2_b, c.eps) @ w_1.T + b_1
    g = f * (1 + np.tanh(math.sqrt(2 / math.pi) * (f + 0.044715 * f**3))) / 2
    return [x1 + g @ w_2.T + b_2]


def llama_ref(c, x, n1_w, w_q, w_k, w_v, cos, sin, w_o, n2_w, w_g, w_u, w_d):
    S, E, H = c.seq, c.hidden, c.heads
    D, Hkv = E // H, c.kv_heads
    h = rms_norm(x, n1_w, c.eps)

    def rope(t):  # [S, heads, D]
        half = D // 2
        rot = np.concatenate([-t[..., half:], t[..., :half]], -1)
        return t * cos[:, None] + rot * sin[:, None]

    q = rope((h @ w_q.T).reshape(S, H, D)).transpose(1, 0, 2)
    k = rope((h @ w_k.T).reshape(S, Hkv, D)).transpose(1, 0, 2)
    v = (h @ w_v.T).reshape(S, Hkv, D).transpose(1, 0, 2)
    x1 = x + causal_attention(q, k, v) @ w_o.T
    h2 = rms_norm(x1, n2_w, c.eps)
    g, u = h2 @ w_g.T, h2 @ w_u.T
    return [x1 + (g / (1 + np.exp(-g)) * u) @ w_d.T]


def lmloss_ref(c, ids, table, n_w, w_lm, labels):
    logits = rms_norm(table[ids], n_w, c.eps) @ w_lm.T
    m = logits.max(-1)
    loss = np.log(np.exp(logits - m[:, None]).sum(-1)) + m - logits[np.arange(len(labels)), labels]
    return [loss, loss.mean()]


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("devices", [1, 2, 4])
def test_matches_numpy(model, devices):
    # gpt3 without dropout here (p = 0 is the identity); its masks are checked by the reference.
    c = transformer.Config(placement="tpsp", devices=devices, dropout=0.0)
    fd, xs, outs = transformer.run_cpu(model, c, seed=3)
    ref = {"gpt3": gpt3_ref, "llama": llama_ref, "lmloss": lmloss_ref}[model]
    for got, want in zip(outs, ref(c, *xs)):
        np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-4 * float(np.max(np.abs(want))))


def test_the_example_script_runs(capsys, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["transformer.py", "llama", "--placement", "tpsp", "--devices", "2"])
    runpy.run_path(os.path.join(ROOT, "examples", "python", "transformer.py"), run_name="__main__")
    assert "llama (tpsp) on 2 cpu ranks" in capsys.readouterr().out


# -- the cuda path (fuser.torch) -----------------------------------------------------------------


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("placement", PLACEMENTS)
def test_prepares_for_the_cuda_backend_with_each_rank_s_pieces(model, placement):
    """What `fuser.torch.Rank.compile` does, without a GPU: lowered and prepared for the cuda
    backend; the local argument shapes are the global ones divided along the split axes."""
    cuda_program = getattr(fuser._fuser, "CudaProgram", None)
    if cuda_program is None:
        pytest.skip("built without the cuda feature: no fuser._fuser.CudaProgram")
    c = transformer.Config(placement=placement, devices=2)
    fd = transformer.BUILDERS[model](c)
    p = cuda_program(fd.module())
    assert p.ranks() == 2
    split = {"w_qkv": 0, "b_qkv": 0, "w_o": 1, "w_1": 0, "b_1": 0, "w_2": 1, "w_q": 0, "w_k": 0, "w_v": 0,
             "w_g": 0, "w_u": 0, "w_d": 1, "table": 0, "w_lm": 0}
    if placement == "tpsp":
        split["x"] = 0
    for (name, shape, dtype), (local, local_dtype) in zip(c.specs, p.arg_types()):
        want = [n // 2 if split.get(name) == axis else n for axis, n in enumerate(shape)]
        assert (local, local_dtype) == (want, dtype), name
    assert [d for _, d in p.result_types()] == ["f32"] * len(fd.outputs)


def _torch_cuda():
    try:
        import torch
    except ImportError:
        return None, "torch is not installed"
    if not torch.cuda.is_available():
        return None, "no CUDA device"
    return torch, ""


@pytest.mark.parametrize("model", MODELS)
def test_one_rank_on_the_gpu_matches_the_cpu_backend(model):
    torch, why = _torch_cuda()
    if torch is None:
        pytest.skip(f"GPU test skipped: {why} (runs with torch and a CUDA device)")
    import fuser.torch

    c = transformer.Config(devices=1)
    fd = transformer.BUILDERS[model](c)
    xs = transformer.inputs(c, np.random.default_rng(0))
    rank = fuser.torch.Rank()
    program = rank.compile(fd)
    outs = rank.execute(program, transformer.pieces(c, xs, program.arg_types(), 0))
    want = fd.execute(xs, check=True)
    for got, w in zip(outs, want):
        np.testing.assert_allclose(got.double().cpu().numpy(), w, rtol=1e-4, atol=1e-4 * float(np.max(np.abs(w))))
