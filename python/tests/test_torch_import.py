"""Importing torch modules (`fuser.torch.compile`, issue 26's first slice): plain torch modules
written here (random weights, no downloads) are captured by torch.export, translated through
the ATen op table, run on the cpu backend and compared with torch."""

from __future__ import annotations

import inspect
import os
import re

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch is not installed: the torch importer is not tested")
nn = torch.nn
F = torch.nn.functional

import fuser  # noqa: E402
import fuser.torch  # noqa: E402
from fuser._torch_import import ATEN_OPS  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


from torch_modules import (  # noqa: E402
    MLP, GPT2Attention, GPT2Block, GPT2MLP, LlamaAttention, LlamaBlock, LlamaMLP, RMSNorm, randomize, rel_err, repeat_kv,
    rope, rotate_half,
)


# -- imports checked against torch ------------------------------------------------------------

TOL = {torch.float32: 1e-5, torch.float64: 1e-10, torch.bfloat16: 2e-2}


def check(module: nn.Module, args, dtype=torch.float32, tol=None) -> "fuser._torch_import.ImportedModule":
    module = module.to(dtype)
    args = tuple(a.to(dtype) if a.is_floating_point() else a for a in args)
    program = fuser.torch.compile(module, args)
    with torch.no_grad():
        want = module(*args)
    want = want if isinstance(want, tuple) else (want,)
    got = program(*args)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        assert rel_err(g, w) < (tol or TOL[dtype]), rel_err(g, w)
    return program


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16])
def test_mlp(dtype):
    torch.manual_seed(0)
    program = check(randomize(MLP()), (torch.randn(2, 4, 16),), dtype)
    assert program.input_names == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias", "x"]
    assert [s.kind for s in program.inputs] == ["parameter"] * 4 + ["user"]
    text = program.fd.mlir()
    assert "fusion.linear" in text and "fusion.gelu" in text


def test_mlp_decomposed_to_core_aten():
    torch.manual_seed(0)
    module = randomize(MLP())
    x = torch.randn(8, 16)
    program = fuser.torch.compile(module, (x,), decompose=True)
    with torch.no_grad():
        want = module(x)
    assert rel_err(program(x)[0], want) < 1e-5
    assert "fusion.matmul" in program.fd.mlir()  # addmm, not linear


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16])
def test_gpt2_block(dtype):
    torch.manual_seed(1)
    program = check(randomize(GPT2Block(), seed=1), (torch.randn(2, 8, 32),), dtype)
    text = program.fd.mlir()
    assert "fusion.sdpa" in text and "causal" in text and "fusion.layer_norm" in text
    assert "ln_1.weight" in program.input_names and "attn.c_attn.weight" in program.input_names


@pytest.mark.parametrize("gqa", ["expand", "repeat_interleave", "enable_gqa"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_llama_block(gqa, dtype):
    torch.manual_seed(2)
    cos, sin = rope(8, 8)
    # RMSNorm computes in f32 (`x.float()`) also in the f64 module: f32's tolerance there.
    program = check(randomize(LlamaBlock(gqa=gqa), seed=2), (torch.randn(2, 8, 32), cos, sin), dtype, tol=1e-5)
    assert program.input_names[-3:] == ["x", "cos", "sin"]
    assert "fusion.rsqrt" in program.fd.mlir()


class LMHead(nn.Module):
    def __init__(self, vocab: int = 24, dim: int = 16, loss: str = "cross_entropy") -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)
        self.loss = loss

    def forward(self, ids, labels):
        logits = self.head(self.norm(self.embed(ids))).view(-1, self.head.out_features)
        if self.loss == "cross_entropy":
            return F.cross_entropy(logits, labels.view(-1))
        if self.loss == "sum":
            return F.cross_entropy(logits, labels.view(-1), reduction="sum", ignore_index=3)
        return F.nll_loss(F.log_softmax(logits, dim=-1), labels.view(-1))


@pytest.mark.parametrize("loss", ["cross_entropy", "sum", "nll"])
def test_embedding_and_losses(loss):
    torch.manual_seed(3)
    ids = torch.randint(0, 24, (2, 6))
    labels = torch.randint(0, 24, (2, 6))
    labels[0, 1] = 3 if loss == "sum" else -100  # an ignored row
    labels[1, 2] = 3
    check(randomize(LMHead(loss=loss), seed=3), (ids, labels))


class Pointwise(nn.Module):
    def forward(self, x, y):
        a, b = x.chunk(2, dim=-1)
        z = torch.where(x > 0, x, 0.0) + x.masked_fill(x < 0, 1.0) + F.relu(y) * 2 - 1
        z = z + x[:, 0][:, None] + torch.softmax(x, -1) + torch.exp(-x.abs()) / (1 + y.sigmoid())
        w = (a * b).sum(-1, keepdim=True) + x.amax(-1, keepdim=True) - x.var(-1, keepdim=True)
        return z * w + (1 - x), torch.tanh(a) @ b.t(), F.layer_norm(x, (8,)), F.rms_norm(x, (8,), eps=1e-6)


class MoreOps(nn.Module):
    def forward(self, x, y, b):
        u = torch.maximum(x, y) - torch.minimum(x, y) + 2 - x + x.abs().pow(y.sigmoid()) + torch.sqrt(x.abs() + 1).log()
        u = u + torch.where(x < y, 1.0, y) + torch.where(x >= y, x, y).masked_fill(y > 0, torch.tensor(0.5))
        u = u + torch.full((4, 8), 0.25) * torch.ones_like(x) + torch.zeros(8) + torch.erf(x).reciprocal().clamp_max(10)
        p, q = x.unbind(0)[:2]
        v = torch.matmul(b, b.transpose(-1, -2)) + torch.bmm(b, b.permute(0, 2, 1)).flatten(0, 1).unflatten(0, (2, 3))
        w = (x.mean() + y.sum() + x.amin(0).sum(0)) * p * q.unsqueeze(0).squeeze(0)
        return u + w, v.relu(), torch.log_softmax(x.double(), 0), x.float().to(torch.float64).to(torch.int32)


def test_pointwise_reductions_and_views():
    torch.manual_seed(4)
    check(Pointwise(), (torch.randn(4, 8), torch.randn(4, 8)))
    check(MoreOps(), (torch.randn(4, 8), torch.randn(4, 8), torch.randn(2, 3, 5)))


@pytest.mark.parametrize("loss", ["cross_entropy", "nll"])
def test_core_aten_decompositions(loss):
    """decompose=True: native_layer_norm, _log_softmax, nll_loss_forward, addmm, t, ..."""
    torch.manual_seed(6)
    ids, labels = torch.randint(0, 24, (2, 6)), torch.randint(0, 24, (2, 6))
    labels[1, 1] = -100
    module = randomize(LMHead(loss=loss), seed=6)
    program = fuser.torch.compile(module, (ids, labels), decompose=True)
    with torch.no_grad():
        want = module(ids, labels)
    assert rel_err(program(ids, labels)[0], want) < 1e-5
    check(Pointwise(), (torch.randn(4, 8), torch.randn(4, 8)))


class DirectOps(nn.Module):
    """ATen overloads that torch.export emits for other spellings or torch versions."""

    def forward(self, q, k, v, x, labels):
        aten = torch.ops.aten
        out, lse = aten._scaled_dot_product_flash_attention_for_cpu(q, k, v, is_causal=True)[:2]
        y, mean, rstd = aten.native_layer_norm(x, [8], None, None, 1e-5)
        nll, total = aten.nll_loss_forward(aten._log_softmax(x, 1, False), labels, None, 1, -100)
        return out, lse, y, mean, rstd, nll, total, aten._softmax(x, 0, False)


class Overloads(nn.Module):
    """One call of each remaining overload of the table."""

    def forward(self, x, y, labels):
        aten = torch.ops.aten
        logp = torch.log_softmax(x, -1)
        xs, ys = (x > 0).float(), (y > 0).float()
        return (
            aten._unsafe_view(x, [8, 4]), aten.add.Scalar(x, 2), aten.alias(x) * 1, aten.clamp.Tensor(x, y),
            aten.clamp.default(x, -0.5, 0.5), aten.clamp_min(x, 0.1), aten.clone(x) + aten.contiguous(x) + aten.detach(x),
            aten.div.Scalar(x, 3), aten.eq.Scalar(xs, 0.0), aten.eq.Tensor(xs, ys),
            aten.full_like(x, 3.0), aten.ge.Scalar(x, 0.1), aten.gt.Tensor(x, y), aten.le.Scalar(x, 0.2),
            aten.le.Tensor(x, y), aten.mul.Scalar(x, 1.5), aten.ne.Tensor(x, y), aten.ones([2, 3]),
            aten.rsub.Tensor(x, y, alpha=2), aten.rsub.Scalar(x, 1.0), aten.split_with_sizes(x, [3, 5], 1)[1],
            aten.squeeze.default(x[None]), aten.sub.Scalar(x, 0.5), aten.sub.Tensor(x, y, alpha=3),
            aten.var.correction(x, [1], correction=0), aten.where.Scalar(x > 0, 1.0, 2.0), aten.zeros_like(x),
            aten.nll_loss(logp, labels), aten.to.dtype_layout(x, dtype=torch.float64), aten.to.device(x, "cpu", torch.float64),
        )


def test_each_overload():
    torch.manual_seed(8)
    check(Overloads(), (torch.randn(4, 8), torch.randn(4, 8), torch.tensor([1, 7, -100, 0])))


def test_direct_aten_overloads():
    torch.manual_seed(7)
    q, k, v = torch.randn(1, 2, 6, 8), torch.randn(1, 2, 6, 8), torch.randn(1, 2, 6, 8)
    check(DirectOps(), (q, k, v, torch.randn(5, 8), torch.tensor([1, 7, -100, 0, 3])))


# -- gradients --------------------------------------------------------------------------------


def test_mlp_backward_matches_autograd():
    torch.manual_seed(5)
    module = randomize(MLP(), seed=5)
    x = torch.randn(2, 4, 16)
    program = fuser.torch.compile(module, (x,))
    params = [i for i, s in enumerate(program.inputs) if s.kind == "parameter"]
    bw = program.fd.backward(wrt=params)
    g = torch.randn(2, 4, 16)
    (out,), grads = bw.execute(program.arguments(x), [g.numpy()])
    module.zero_grad()
    y = module(x)
    y.backward(g)
    assert rel_err(torch.from_numpy(out), y) < 1e-5
    for i, grad in zip(params, grads):
        want = dict(module.named_parameters())[program.input_names[i]].grad
        assert rel_err(torch.from_numpy(grad), want) < 1e-5, program.input_names[i]


def grads_of(module: nn.Module):
    return {n: p.grad.clone() for n, p in module.named_parameters()}


@pytest.mark.parametrize("which", ["mlp", "gpt2", "llama"])
def test_autograd_function_gives_torch_gradients(which):
    """`program.forward(...)` is a torch.autograd.Function: `loss.backward()` fills the module's
    parameter gradients (and the input's) as torch autograd does."""
    torch.manual_seed(9)
    if which == "mlp":
        module, args = randomize(MLP(), seed=9), (torch.randn(2, 4, 16),)
    elif which == "gpt2":
        module, args = randomize(GPT2Block(), seed=9), (torch.randn(2, 8, 32),)
    else:
        module, args = randomize(LlamaBlock(), seed=9), (torch.randn(2, 8, 32), *rope(8, 8))
    program = fuser.torch.compile(module, args)
    x = args[0].clone().requires_grad_(True)
    target = torch.randn(args[0].shape)

    module.zero_grad()
    ((module(x, *args[1:]) - target) ** 2).mean().backward()
    want, want_dx = grads_of(module), x.grad.clone()

    module.zero_grad()
    x.grad = None
    (y,) = program.forward(x, *args[1:])
    assert y.requires_grad
    ((y - target) ** 2).mean().backward()
    for name, g in grads_of(module).items():
        assert rel_err(g, want[name]) < 1e-4, (name, rel_err(g, want[name]))
    assert rel_err(x.grad, want_dx) < 1e-4


def test_training_loop_matches_torch():
    """Ten SGD steps through the imported program give torch's losses (same module, same
    data, same optimizer)."""
    torch.manual_seed(10)
    ref = randomize(GPT2Block(dim=16, heads=2), seed=10)
    mine = randomize(GPT2Block(dim=16, heads=2), seed=10)
    xs, targets = torch.randn(10, 2, 4, 16), torch.randn(10, 2, 4, 16)
    program = fuser.torch.compile(mine, (xs[0],))
    opt_ref = torch.optim.SGD(ref.parameters(), lr=0.1)
    opt_mine = torch.optim.SGD(mine.parameters(), lr=0.1)
    for x, t in zip(xs, targets):
        opt_ref.zero_grad()
        loss_ref = ((ref(x) - t) ** 2).mean()
        loss_ref.backward()
        opt_ref.step()
        opt_mine.zero_grad()
        loss = ((program.forward(x)[0] - t) ** 2).mean()
        loss.backward()
        opt_mine.step()
        got, want = loss.item(), loss_ref.item()
        assert abs(got - want) < 1e-5 * abs(want), (got, want)


# -- errors -----------------------------------------------------------------------------------


class Sorts(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lin = nn.Linear(8, 8)

    def forward(self, x):
        y = self.lin(x)
        return torch.sort(y, dim=-1).values  # the unsupported op


def line_of(marker: str) -> int:
    lines, start = inspect.getsourcelines(Sorts) if "sort" in marker else inspect.getsourcelines(MaskedAttention)
    return start + next(i for i, text in enumerate(lines) if marker in text)


def test_unsupported_op_names_op_schema_and_line():
    with pytest.raises(fuser.FuserValueError) as info:
        fuser.torch.compile(Sorts(), (torch.randn(4, 8),))
    e = info.value
    text = str(e)
    assert isinstance(e, fuser.FuserError) and isinstance(e, ValueError)
    assert "unsupported ATen op aten.sort.default" in text
    assert "aten::sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)" in text
    line = line_of("torch.sort(")
    assert f"{os.path.basename(__file__)}:{line}" in text
    assert e.line == line and os.path.samefile(e.file, __file__)
    assert "torch.sort(y, dim=-1)" in text  # the rendered source line
    assert "never falls back" in text


class FFT(nn.Module):
    def forward(self, x):
        return torch.fft.fft(x).real


def test_unsupported_fft():
    with pytest.raises(fuser.FuserValueError, match=r"unsupported ATen op aten\.fft_fft\.default \(schema: aten::fft_fft\("):
        fuser.torch.compile(FFT(), (torch.randn(4, 8),))


class MaskedAttention(nn.Module):
    def forward(self, q, k, v, mask):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)  # masked


def test_unsupported_arguments_name_the_reason():
    q = torch.randn(1, 2, 4, 8)
    with pytest.raises(fuser.FuserValueError) as info:
        fuser.torch.compile(MaskedAttention(), (q, q, q, torch.ones(4, 4, dtype=torch.bool)))
    text = str(info.value)
    assert "aten.scaled_dot_product_attention.default" in text and "attn_mask" in text
    assert info.value.line == line_of("# masked")


class Repeats(nn.Module):
    def forward(self, x):
        y = x * 2
        return x, y, y


def test_outputs_that_repeat_or_are_inputs():
    """An input returned as is and one value returned twice: values and gradients as torch's."""
    program = fuser.torch.compile(Repeats(), (torch.randn(3),))
    x = torch.randn(3, requires_grad=True)
    outs = program.forward(x)
    assert [rel_err(o, w) for o, w in zip(outs, (x, 2 * x, 2 * x))] == [0.0, 0.0, 0.0]
    (outs[0].sum() + outs[1].sum() + 3 * outs[2].sum()).backward()
    assert torch.equal(x.grad, torch.full((3,), 9.0))


def test_state_mutation_is_an_error():
    bn = nn.Sequential(nn.Linear(8, 8), nn.BatchNorm1d(8)).train()
    with pytest.raises(fuser.FuserValueError, match=r"aten\.add_\.Tensor .* in module 1 \(BatchNorm1d\); it writes its argument in place"):
        fuser.torch.compile(bn, (torch.randn(4, 8),))


def test_replicated_over_a_mesh():
    """mesh=: every tensor replicated over the mesh; two cpu ranks compute the same block."""
    torch.manual_seed(11)
    module, x = randomize(GPT2Block(dim=16, heads=2), seed=11), torch.randn(2, 4, 16)
    program = fuser.torch.compile(module, (x,), mesh=fuser.Mesh([0, 1]))
    assert "fusion.mesh" in program.fd.mlir()
    (y,) = program.execute(x, ranks=2)
    with torch.no_grad():
        assert rel_err(y, module(x)) < 1e-5


def test_training_dropout_and_plans_are_errors():
    with pytest.raises(fuser.FuserValueError, match="dropout in training mode"):
        fuser.torch.compile(GPT2MLP(8).train(), (torch.randn(2, 8),))
    with pytest.raises(fuser.FuserValueError, match="plan"):
        fuser.torch.compile(MLP(), (torch.randn(2, 16),), plan={"fc1": "colwise"})


# -- the docs' table --------------------------------------------------------------------------


def test_docs_list_the_op_table():
    with open(os.path.join(ROOT, "docs", "pytorch.md")) as f:
        text = f.read()
    block = text.split("<!-- aten-ops:begin -->")[1].split("<!-- aten-ops:end -->")[0]
    listed = re.findall(r"`(aten\.[^`]+)`", block)
    assert sorted(listed) == sorted(set(listed)), "an op is listed twice"
    assert set(listed) == set(ATEN_OPS), (
        f"docs/pytorch.md lacks {sorted(set(ATEN_OPS) - set(listed))}, lists unknown {sorted(set(listed) - set(ATEN_OPS))}"
    )


def test_docs_blocks_run_in_order():
    """docs/pytorch.md's Python blocks run in order in one namespace, each at its lines."""
    path = os.path.join(ROOT, "docs", "pytorch.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    found = list(re.finditer(r"^```python\n(.*?)^```", text, re.S | re.M))
    assert len(found) >= 3
    namespace = {"__file__": path, "__name__": "docs"}
    for m in found:
        first_line = text.count("\n", 0, m.start(1))
        exec(compile("\n" * first_line + m.group(1), path, "exec"), namespace)
    # The error text the page shows is the one the block prints.
    shown = text.split("prints\n\n```text\n")[1].split("```")[0]
    try:
        fuser.torch.compile(namespace["Sorts"](), (torch.randn(4, 8),))
    except fuser.FuserValueError as e:
        assert str(e).replace(path, "docs/pytorch.md") == shown.rstrip("\n")
