"""Placements and tensor-parallel plans of imported torch modules (`fuser.torch.compile(...,
mesh=, placements=, plan=, stream=)`, issue 26 item 2): the MLP, GPT-2-style and Llama-style
blocks sharded by Megatron TP and TP+SP plans run on 2 and 4 cpu ranks and give the unsharded
torch module's outputs; the lowered programs hold the collectives the plan calls for; bad
plans are errors naming the module and why."""

from __future__ import annotations

import re

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed: the torch importer is not tested")

import fuser  # noqa: E402
import fuser.torch  # noqa: E402
from fuser.torch import (  # noqa: E402
    ColwiseParallel,
    Partial,
    PrepareModuleInput,
    PrepareModuleOutput,
    Replicate,
    RowwiseParallel,
    SequenceParallel,
    Shard,
)
from fuser._torch_placements import placement  # noqa: E402
from torch_modules import MLP, GPT2Block, LlamaBlock, gpt2_plan, llama_plan, randomize, rel_err, rope  # noqa: E402

TOL = 1e-5


def collectives(program, pipeline: str = "builtin.module(tp-default)") -> set:
    text = program.fd.lower(pipeline).print()
    return set(re.findall(r"comm\.(\w+)", text)) - {"wait"}


class NormMLP(torch.nn.Module):
    """x + mlp(norm(x)): the MLP with a norm and a residual, for sequence parallelism."""

    def __init__(self, dim: int = 16, hidden: int = 32) -> None:
        super().__init__()
        self.norm = torch.nn.LayerNorm(dim)
        self.mlp = MLP(dim, hidden)

    def forward(self, x):
        return x + self.mlp(self.norm(x))


def mlp_case(sp: bool):
    module = randomize(NormMLP(), seed=3)
    x = torch.randn(1 if sp else 2, 8, 16)
    if not sp:
        return module, (x,), {"mlp.fc1": ColwiseParallel(), "mlp.fc2": RowwiseParallel()}, {}
    plan = {
        "norm": SequenceParallel(),
        "mlp.fc1": ColwiseParallel(input_layouts=Shard(1)),
        "mlp.fc2": RowwiseParallel(output_layouts=Shard(1)),
    }
    return module, (x,), plan, {"placements": {"x": [Shard(1)]}, "output_placements": [[Shard(1)]]}


def gpt2_case(sp: bool):
    # The fused QKV projection stays replicated here (split by columns, it is gathered before
    # q/k/v are sliced: test_fused_qkv_colwise_matches_torch).
    module = randomize(GPT2Block(), seed=4)
    x = torch.randn(1 if sp else 2, 8, 32)
    if not sp:
        return module, (x,), gpt2_plan(False), {}
    return module, (x,), gpt2_plan(True), {"placements": {"x": [Shard(1)]}, "output_placements": [[Shard(1)]]}


def llama_case(sp: bool):
    # 8 heads, 4 key/value heads: the k/v projections split by whole heads over 4 ranks.
    module = randomize(LlamaBlock(heads=8, kv_heads=4), seed=5)
    x = torch.randn(1 if sp else 2, 8, 32)
    args = (x,) + rope(8, 4)
    extra = {"placements": {"x": [Shard(1)]}, "output_placements": [[Shard(1)]]} if sp else {}
    return module, args, llama_plan(sp), extra


CASES = {"mlp": mlp_case, "gpt2": gpt2_case, "llama": llama_case}


def run_case(module, args, plan, extra, ranks, **kw):
    program = fuser.torch.compile(module, args, mesh=fuser.Mesh(list(range(ranks))), plan=plan, **extra, **kw)
    (y,) = program.execute(*args, ranks=ranks)
    with torch.no_grad():
        want = module(*args)
    assert y.shape == want.shape
    assert rel_err(y, want) < TOL, rel_err(y, want)
    return program


@pytest.mark.parametrize("ranks", [2, 4])
@pytest.mark.parametrize("sp", [False, True], ids=["tp", "tpsp"])
@pytest.mark.parametrize("model", sorted(CASES))
def test_plans_match_the_unsharded_module(model, sp, ranks):
    torch.manual_seed(ranks)
    module, args, plan, extra = CASES[model](sp)
    program = run_case(module, args, plan, extra, ranks)
    found = collectives(program)
    if sp:
        # Megatron SP: allgather before the column-parallel GEMMs, reduce-scatter after the
        # row-parallel ones, no allreduce.
        assert {"allgather", "reduce_scatter"} <= found and "allreduce" not in found, found
    else:
        assert found == {"allreduce"}, found
    text = program.fd.mlir()
    assert "[DIDx], []]>>" in text  # a column-parallel weight, rows over DIDx


def test_torch_placements_and_styles_are_accepted():
    tp = pytest.importorskip("torch.distributed.tensor.parallel")
    dt = pytest.importorskip("torch.distributed.tensor")
    assert placement(dt.Shard(1), "p") == Shard(1)
    assert placement(dt.Replicate(), "p") == Replicate()
    assert placement(dt.Partial(), "p") == Partial()

    class Styles:  # torch's styles and placements under fuser.torch's names
        ColwiseParallel, RowwiseParallel, SequenceParallel = tp.ColwiseParallel, tp.RowwiseParallel, tp.SequenceParallel
        PrepareModuleInput, Shard, Replicate = tp.PrepareModuleInput, dt.Shard, dt.Replicate

    torch.manual_seed(7)
    module, args, _, extra = llama_case(True)
    extra = {"placements": {"x": [dt.Shard(1)]}, "output_placements": [[dt.Shard(1)]]}
    program = run_case(module, args, llama_plan(True, Styles), extra, 2)
    assert {"allgather", "reduce_scatter"} <= collectives(program)


def test_explicit_placements_without_a_plan():
    """placements= alone: Megatron's MLP written as parameter placements; the rest is fuser's
    propagation (the row-parallel partial sums are allreduced)."""
    torch.manual_seed(8)
    module, x = randomize(MLP(), seed=8), torch.randn(2, 4, 16)
    placements = {"fc1.weight": [Shard(0)], "fc1.bias": [Shard(0)], "fc2.weight": [Shard(1)], "x": [Replicate()]}
    program = fuser.torch.compile(module, (x,), mesh=2, placements=placements)
    (y,) = program.execute(x, ranks=2)
    with torch.no_grad():
        assert rel_err(y, module(x)) < TOL
    assert collectives(program) == {"allreduce"}
    # An output placement: the result stays sharded on its rows (batch) over the ranks.
    program = fuser.torch.compile(module, (x,), mesh=2, placements=placements, output_placements={0: [Shard(0)]})
    assert "-> tensor<2x4x16xf32, #fusion.shard<@tp, [[DIDx], [], []]>>" in program.fd.mlir()
    (y,) = program.execute(x, ranks=2)
    with torch.no_grad():
        assert rel_err(y, module(x)) < TOL


def test_partial_input_is_reduced_first():
    """A `Partial()` input is a pending sum: the program reduces it before the nonlinear MLP."""
    torch.manual_seed(9)
    module, x = randomize(MLP(), seed=9), torch.randn(2, 4, 16)
    program = fuser.torch.compile(module, (x,), mesh=2, placements={"x": [Partial()]})
    assert "partial = [DIDx]" in program.fd.mlir()
    assert "allreduce" in collectives(program)
    # The cpu runner hands the ranks summands of the global input.
    (y,) = program.execute(x, ranks=2)
    with torch.no_grad():
        assert rel_err(y, module(x)) < TOL


def test_two_dimensional_mesh_annotations():
    """On a 2-D mesh a placement list has one entry per mesh axis (axis 0 is DIDy, the last
    DIDx); a plan shards over the last axis. (fuser lowers 1-D meshes only today, so this
    checks the fusion program.)"""
    module, x = randomize(MLP(), seed=10), torch.randn(2, 4, 16)
    program = fuser.torch.compile(
        module, (x,), mesh=(2, 2),
        placements={"x": [Shard(0), Replicate()], "fc1.weight": [Shard(0), Shard(0)]},
        plan={"fc2": RowwiseParallel()},
    )
    text = program.fd.mlir()
    assert "fusion.mesh @tp = [[0, 1], [2, 3]]" in text
    assert "tensor<2x4x16xf32, #fusion.shard<@tp, [[DIDy], [], []]>>" in text
    assert "tensor<32x16xf32, #fusion.shard<@tp, [[DIDy, DIDx], []]>>" in text
    assert "tensor<16x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>" in text
    with pytest.raises(fuser.FuserError, match="resharding changes 2 device axes"):  # the compiler's limits
        program.execute(x, ranks=4)


def test_stream_chunks_pipeline_the_row_parallel_gemms():
    """stream=2: the residual stream in 2 stream chunks; under tp-overlap-collective each
    row-parallel GEMM's reduce-scatter runs per chunk in the GEMM's loop."""
    torch.manual_seed(11)
    module, args, plan, extra = llama_case(True)
    pipeline = "builtin.module(tp-overlap-collective{chunks=2})"
    program = fuser.torch.compile(module, args, mesh=2, plan=plan, stream=2, **extra)
    assert "Stream(2), DIDx" in program.fd.mlir()
    (y,) = program.execute(*args, ranks=2, pipeline=pipeline)
    with torch.no_grad():
        assert rel_err(y, module(*args)) < TOL
    report = program.report(pipeline)
    rows = {g["module"]: g for g in report.gemms}
    for name in ("self_attn.o_proj (Linear)", "mlp.down_proj (Linear)"):
        assert rows[name]["chunks"] == 2 and "reduce_scatter" in rows[name]["collectives_in_loop"], rows[name]
        assert "pipelined in a stream loop of 2 chunks" in rows[name]["overlap"]
        # The lowering's own verdict (fusion-to-host{report=true}).
        assert rows[name]["lowering"].startswith("fusion.linear: GEMM+RS (reduce_scatter per chunk)"), rows[name]
    assert "pipelined" in str(report) and "lowering: fusion.linear: GEMM+RS" in str(report)
    # The ring pipeline finds no allgather + GEMM loop to turn into a ring: same program.
    (y,) = program.execute(*args, ranks=2, pipeline="builtin.module(tp-overlap-p2p{chunks=2})")
    with torch.no_grad():
        assert rel_err(y, module(*args)) < TOL


def test_report_lists_gemms_and_collectives():
    torch.manual_seed(12)
    module, args, plan, extra = llama_case(False)
    program = fuser.torch.compile(module, args, mesh=2, plan=plan)
    report = program.report()
    assert [g["module"] for g in report.gemms] == [
        "self_attn.q_proj (Linear)", "self_attn.k_proj (Linear)", "self_attn.v_proj (Linear)", "self_attn.o_proj (Linear)",
        "mlp.gate_proj (Linear)", "mlp.up_proj (Linear)", "mlp.down_proj (Linear)",
    ]
    assert all(re.fullmatch(r".*torch_modules\.py:\d+", g["source"]) for g in report.gemms), report.gemms
    assert [(c["kind"], c["module"]) for c in report.collectives] == [
        ("allreduce", "self_attn.o_proj (Linear)"), ("allreduce", "mlp.down_proj (Linear)"),
    ]
    q = report.gemms[0]
    assert "[[DIDx], []]" in q["shardings"] and q["overlap"] == "not chunked (no overlap)"
    assert all(g["lowering"].startswith("fusion.linear: none (not stream-chunked") for g in report.gemms), report.gemms
    assert report.gemms[3]["collectives"] == ["allreduce"]
    text = str(report)
    assert "allreduce at" in text and "mlp.down_proj (Linear)" in text


# -- errors ----------------------------------------------------------------------------------


def compile_mlp(**kw):
    return fuser.torch.compile(randomize(NormMLP()), (torch.randn(1, 8, 16),), **kw)


def test_a_pattern_that_matches_nothing():
    with pytest.raises(fuser.FuserValueError, match=r"plan\['layers\.\*\.wq'\]: the pattern matches no submodule of NormMLP"):
        compile_mlp(mesh=2, plan={"layers.*.wq": ColwiseParallel()})


def test_colwise_on_a_non_linear():
    with pytest.raises(fuser.FuserValueError, match=r"module 'mlp\.act' is a GELU, but ColwiseParallel applies to nn\.Linear and nn\.Embedding only"):
        compile_mlp(mesh=2, plan={"mlp.act": ColwiseParallel()})


def test_a_split_that_does_not_divide():
    with pytest.raises(fuser.FuserValueError, match=r"ColwiseParallel of 'mlp\.fc1' .*Shard\(dim=0\) does not divide: axis 0 of shape \[32, 16\]"):
        compile_mlp(mesh=3, plan={"mlp.fc1": ColwiseParallel(), "mlp.fc2": RowwiseParallel()})


def test_inconsistent_layouts_name_the_module():
    # The SP norm hands out Shard(1), the column-parallel linear says its input is replicated.
    with pytest.raises(
        fuser.FuserValueError,
        match=r"ColwiseParallel of 'mlp\.fc1' expects its input #0 as Replicate\(\) \(input_layouts\), but it arrives as "
        r"Shard\(dim=1\) \(SequenceParallel of 'norm'\)",
    ):
        compile_mlp(mesh=2, plan={"norm": SequenceParallel(), "mlp.fc1": ColwiseParallel()})


@pytest.mark.parametrize("ranks", [2, 4])
def test_fused_qkv_colwise_matches_torch(ranks):
    """GPT-2's fused c_attn split by columns: its [B, S, 3E] output is split on the last axis,
    and `.split(E, dim=-1)` cuts q/k/v at column 32 and 64, inside the ranks' blocks. The
    slices read the axis whole, so it is gathered on an inner axis (B and S outer), through a
    staging buffer whose leading axis is the rank (docs/dev/lowering.md §5)."""
    torch.manual_seed(ranks)
    module, x = randomize(GPT2Block(), seed=4), torch.randn(2, 8, 32)
    program = run_case(module, (x,), {"attn.c_attn": ColwiseParallel()}, {}, ranks)
    assert "allgather" in collectives(program)


@pytest.mark.parametrize("ranks", [2, 4])
def test_sequence_parallel_with_batch(ranks):
    """Megatron SP on [batch, sequence, hidden] activations with batch 2: the allgather and
    reduce-scatter of the sequence axis work on an inner axis."""
    torch.manual_seed(ranks)
    module, args, plan, extra = mlp_case(sp=True)
    args = (torch.randn(2, 8, 16),)
    program = run_case(module, args, plan, extra, ranks)
    assert {"allgather", "reduce_scatter"} <= collectives(program)


class EmbeddingNorm(torch.nn.Module):
    """norm(embedding(ids)): with a column-parallel embedding the norm reads the hidden axis,
    split over the ranks and inner to [batch, sequence], whole."""

    def __init__(self) -> None:
        super().__init__()
        self.emb = torch.nn.Embedding(32, 16)
        self.norm = torch.nn.LayerNorm(16)

    def forward(self, ids):
        return self.norm(self.emb(ids))


@pytest.mark.parametrize("ranks", [2, 4])
def test_colwise_embedding_then_norm(ranks):
    torch.manual_seed(ranks)
    module, ids = randomize(EmbeddingNorm(), seed=6), torch.randint(0, 32, (2, 8))
    program = run_case(module, (ids,), {"emb": ColwiseParallel()}, {}, ranks)
    assert "allgather" in collectives(program)


def test_bad_arguments():
    with pytest.raises(fuser.FuserValueError, match="need a mesh"):
        compile_mlp(plan={"mlp.fc1": ColwiseParallel()})
    with pytest.raises(fuser.FuserValueError, match=r"placements\['y'\]: no input of that name"):
        compile_mlp(mesh=2, placements={"y": [Shard(0)]})
    with pytest.raises(fuser.FuserValueError, match=r"2 placements for a 1-D mesh"):
        compile_mlp(mesh=2, placements={"x": [Shard(0), Shard(1)]})
    with pytest.raises(fuser.FuserValueError, match=r"Partial\('avg'\) is not supported"):
        compile_mlp(mesh=2, placements={"x": [Partial("avg")]})
    with pytest.raises(fuser.FuserValueError, match=r"'colwise' is not a parallel style"):
        compile_mlp(mesh=2, plan={"mlp.fc1": "colwise"})
    with pytest.raises(fuser.FuserValueError, match="input_kwarg_layouts is not supported"):
        compile_mlp(mesh=2, plan={"mlp": PrepareModuleInput(input_kwarg_layouts={"x": Shard(1)})})
    with pytest.raises(fuser.FuserValueError, match=r"matched by both 'mlp\.\*' and 'mlp\.fc1'"):
        compile_mlp(mesh=2, plan={"mlp.*": ColwiseParallel(), "mlp.fc1": ColwiseParallel()})
    with pytest.raises(
        fuser.FuserValueError,
        match=r"ColwiseParallel of 'mlp\.fc1' shards mlp\.fc1\.weight as \[Shard\(dim=0\)\], but "
        r"placements\['mlp\.fc1\.weight'\] says \[Replicate\(\)\]",
    ):
        compile_mlp(mesh=2, placements={"mlp.fc1.weight": [Replicate()]}, plan={"mlp.fc1": ColwiseParallel()})
    with pytest.raises(fuser.FuserValueError, match=r"stream must be a positive number"):
        compile_mlp(mesh=2, stream=0)
    with pytest.raises(fuser.FuserValueError, match=r"output_placements: no output #3"):
        compile_mlp(mesh=2, output_placements={3: [Shard(0)]})


def test_prepare_module_output_reshards_for_the_consumers():
    """PrepareModuleOutput: the MLP's output arrives replicated (the row-parallel allreduce)
    and the residual add uses it split on the sequence (a local slice)."""
    torch.manual_seed(13)
    module, (x,), _, _ = mlp_case(True)
    plan = {
        "mlp.fc1": ColwiseParallel(),
        "mlp.fc2": RowwiseParallel(),
        "mlp": PrepareModuleOutput(output_layouts=Replicate(), desired_output_layouts=Shard(1)),
    }
    program = fuser.torch.compile(module, (x,), mesh=2, plan=plan, placements={"x": [Shard(1)]})
    (y,) = program.execute(x, ranks=2)
    with torch.no_grad():
        assert rel_err(y, module(x)) < TOL
    assert program.placement.out_converts


def test_docs_report_is_the_one_printed():
    """docs/pytorch.md's report text is what its sequence-parallel example prints."""
    import os

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    path = os.path.join(root, "docs", "pytorch.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    namespace = {"__file__": path, "__name__": "docs"}
    for m in re.finditer(r"^```python\n(.*?)^```", text, re.S | re.M):
        exec(compile("\n" * text.count("\n", 0, m.start(1)) + m.group(1), path, "exec"), namespace)
    shown = text.split("pipeline builtin.module(tp-default)\nGEMMs (2):")[1].split("```")[0]
    got = str(namespace["sp"].report()).replace(os.path.relpath(path), "docs/pytorch.md")
    assert got == ("pipeline builtin.module(tp-default)\nGEMMs (2):" + shown).rstrip("\n")


@pytest.mark.parametrize("sp", [False, True], ids=["tp", "tpsp"])
@pytest.mark.parametrize("model", ["mlp", "llama"])
def test_sharded_program_gradients_match_autograd(model, sp):
    """program.forward under a plan: the program's fwd/bwd run on the mesh's 2 cpu ranks
    (gradients sharded like their parameters) and give torch autograd's gradients."""
    torch.manual_seed(14)
    module, args, plan, extra = CASES[model](sp)
    program = fuser.torch.compile(module, args, mesh=2, plan=plan, **extra)
    x = args[0].clone().requires_grad_(True)
    (y,) = program.forward(x, *args[1:])
    weights = torch.randn(y.shape)
    (y * weights).sum().backward()
    got = {n: p.grad.clone() for n, p in module.named_parameters()}
    module.zero_grad()
    x_ref = args[0].clone().requires_grad_(True)
    (module(x_ref, *args[1:]) * weights).sum().backward()
    for n, p in module.named_parameters():
        assert rel_err(got[n], p.grad) < TOL, n
    assert rel_err(x.grad, x_ref.grad) < TOL


def test_plan_with_core_aten_decomposition():
    """decompose=True: the linears become view/addmm/view; the plan still fixes the modules'
    outputs (their last nodes) and the row-parallel sum is allreduced."""
    torch.manual_seed(15)
    module, x = randomize(MLP(), seed=15), torch.randn(2, 4, 16)
    program = fuser.torch.compile(module, (x,), mesh=2, plan={"fc1": ColwiseParallel(), "fc2": RowwiseParallel()}, decompose=True)
    assert "fusion.matmul" in program.fd.mlir()
    (y,) = program.execute(x, ranks=2)
    with torch.no_grad():
        assert rel_err(y, module(x)) < TOL
    assert collectives(program) == {"allreduce"}


class TinyLM(torch.nn.Module):
    """Embedding, norm, LM head: torchtitan's tok_embeddings / norm / output."""

    def __init__(self, vocab: int = 64, dim: int = 16) -> None:
        super().__init__()
        self.tok_embeddings = torch.nn.Embedding(vocab, dim)
        self.norm = torch.nn.LayerNorm(dim)
        self.output = torch.nn.Linear(dim, vocab, bias=False)

    def forward(self, ids):
        return self.output(self.norm(self.tok_embeddings(ids)))


@pytest.mark.parametrize("ranks", [2, 4])
@pytest.mark.parametrize("sp", [False, True], ids=["tp", "tpsp"])
def test_vocab_parallel_embedding_and_lm_head(sp, ranks):
    """RowwiseParallel on nn.Embedding: the table split by vocabulary rows (each rank looks up
    its rows, the partial embeddings summed); the LM head column-parallel (logits split by
    vocabulary)."""
    torch.manual_seed(16)
    module, ids = randomize(TinyLM(), seed=16), torch.randint(0, 64, (1, 8))
    if sp:
        plan = {
            "tok_embeddings": RowwiseParallel(input_layouts=Replicate(), output_layouts=Shard(1)),
            "norm": SequenceParallel(),
            "output": ColwiseParallel(input_layouts=Shard(1)),
        }
    else:
        plan = {"tok_embeddings": RowwiseParallel(input_layouts=Replicate()), "output": ColwiseParallel()}
    program = fuser.torch.compile(module, (ids,), mesh=ranks, plan=plan)
    assert "tensor<64x16xf32, #fusion.shard<@tp, [[DIDx], []]>>" in program.fd.mlir()
    (y,) = program.execute(ids, ranks=ranks)
    with torch.no_grad():
        assert rel_err(y, module(ids)) < TOL
    assert collectives(program) == ({"allgather", "reduce_scatter"} if sp else {"allreduce"})
