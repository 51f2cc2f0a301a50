"""`program.to_rank(fuser.torch.Rank(backend="cpu"))` under torchrun: an imported torch block
(Llama- and GPT-2-style, TP+SP plan) runs one rank per process on local shards, forward and
backward (python/tests/torch_torchrun_worker.py is each rank's program). The outputs and the
gradients of the input and of every parameter, gathered here from the ranks' local pieces,
equal the unsharded torch module's; AdamW on the local shards gives torch's losses.

GPT-2's backward gathers the gradient of the row-parallel `attn.c_proj`'s input on its last
axis (an inner axis, lowered through a rank-leading staging buffer: docs/dev/lowering.md §5)."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Optional

import pytest

torch = pytest.importorskip("torch", reason="fuser.torch needs torch (not importable here)")

import fuser  # noqa: E402
import fuser.torch  # noqa: E402
from fuser._torch_rank import Layout, signature_layouts  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(HERE, "torch_torchrun_worker.py")
sys.path.insert(0, HERE)
import torch_torchrun_worker as worker  # noqa: E402
from test_torch_cpu_rank import fuser_env, torchrun  # noqa: E402
from torch_modules import rel_err  # noqa: E402

TOL = 1e-5


def run_worker(tmp_path, world: int, *args: str, backend: str = "cpu") -> None:
    exe = torchrun()
    if exe is None:
        pytest.skip("torchrun is not installed next to this Python")
    cmd = [exe, "--standalone", "--nproc-per-node", str(world), WORKER, str(tmp_path), *args]
    env = fuser_env({"OMP_NUM_THREADS": "1", "FUSER_TEST_BACKEND": backend})
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def layouts(model: str, world: int):
    """The program's input layouts (by name) and output layouts, from its lowered signature."""
    _, _, program = worker.compile_case(model, world)
    args, results = signature_layouts(program.fd.lower().print(), program.fd.name)
    return dict(zip(program.input_names, args)), results


@pytest.mark.parametrize("world", [2, 4])
def test_gpt2_local_shards_forward_matches_torch(tmp_path, world: int) -> None:
    run_worker(tmp_path, world, "gpt2", "forward")
    pieces = [torch.load(os.path.join(tmp_path, f"gpt2.forward.{r}.pt")) for r in range(world)]
    _, outs = layouts("gpt2", world)
    module, args, _ = worker.case("gpt2")
    with torch.no_grad():
        want = module(*args)
    if world > 1:
        assert pieces[0].shape[1] == want.shape[1] // world  # sequence-parallel output
    got = outs[0].gather(pieces)
    assert rel_err(got, want) < TOL, rel_err(got, want)


def gpu_missing() -> Optional[str]:
    """Why the cuda ranks cannot run here (None when they can)."""
    if not hasattr(fuser._fuser, "CudaRank"):
        return "built without the cuda feature"
    if not torch.cuda.is_available():
        return "no CUDA device visible to torch"
    return None


@pytest.mark.parametrize("model, world", [("llama", 1), ("llama", 2), ("llama", 4), ("gpt2", 2), ("gpt2", 4)])
def test_local_shards_forward_and_backward_match_torch(tmp_path, model: str, world: int) -> None:
    check_grads(tmp_path, model, world, "cpu", TOL)


@pytest.mark.parametrize("model, world", [("llama", 1), ("llama", 2), ("gpt2", 1), ("gpt2", 2)])
def test_cuda_ranks_forward_and_backward_match_torch(tmp_path, model: str, world: int) -> None:
    """The same blocks on the cuda backend (f32): every rank on the current GPU, so at
    world 2 two processes share it and the collectives go through cuda_ipc."""
    why = gpu_missing()
    if why is not None:
        pytest.skip(f"GPU test skipped: {why}")
    check_grads(tmp_path, model, world, "cuda", 1e-4)


def check_grads(tmp_path, model: str, world: int, backend: str, tol: float) -> None:
    """The workers' gathered output and gradients against the unsharded torch module's (cpu)."""
    run_worker(tmp_path, world, model, "grads", backend=backend)
    got = [torch.load(os.path.join(tmp_path, f"{model}.grads.{r}.pt")) for r in range(world)]
    ins, outs = layouts(model, world)
    module, args, _ = worker.case(model)
    x = args[0].clone().requires_grad_(True)
    y = module(x, *args[1:])
    (y * worker.weights(x.shape)).sum().backward()

    y_got = outs[0].gather([g["y"] for g in got])
    assert rel_err(y_got, y.detach()) < tol, rel_err(y_got, y.detach())
    x_got = ins["x"].gather([g["x"] for g in got])
    assert rel_err(x_got, x.grad) < tol, rel_err(x_got, x.grad)
    names = [n for n, _ in module.named_parameters()]
    assert sorted(got[0]["params"]) == sorted(names)
    for name, p in module.named_parameters():
        pieces = [g["params"][name] for g in got]
        assert all(q.shape == pieces[0].shape for q in pieces)
        if world > 1 and not ins[name].replicated:
            assert pieces[0].shape != p.shape, f"{name}: not sharded"
        g_got = ins[name].gather(pieces)
        assert rel_err(g_got, p.grad) < tol, (name, rel_err(g_got, p.grad))


def test_adamw_on_local_shards_matches_torch_losses(tmp_path) -> None:
    world, steps = 4, 20
    run_worker(tmp_path, world, "llama", "train", str(steps))
    per_rank = [torch.load(os.path.join(tmp_path, f"llama.train.{r}.pt")) for r in range(world)]
    got = [sum(rank[s] for rank in per_rank) for s in range(steps)]
    module, args, _ = worker.case("llama")
    target = worker.weights(args[0].shape)
    opt = torch.optim.AdamW(module.parameters(), lr=1e-2)
    want = []
    for _ in range(steps):
        opt.zero_grad()
        loss = ((module(*args) - target) ** 2).mean()
        loss.backward()
        opt.step()
        want.append(loss.item())
    assert want[-1] < want[0] * 0.9, want  # it trains
    for s, (a, b) in enumerate(zip(got, want)):
        assert abs(a - b) <= 1e-4 * abs(b), (s, got, want)


def test_layout_pieces_and_gather_round_trip() -> None:
    full = torch.arange(2 * 8 * 6, dtype=torch.float32).reshape(2, 8, 6)
    lay = Layout(full.shape, "f32", [[], ["DIDx"], []], mesh_shape=(4,), devices=[0, 1, 2, 3])
    pieces = [lay.piece(full, r) for r in range(4)]
    assert torch.equal(pieces[1], full[:, 2:4])
    assert torch.equal(lay.gather(pieces), full)
    strided = Layout(full.shape, "f32", [[], ["Stream(2)", "DIDx"], []], mesh_shape=(2,), devices=[0, 1])
    assert torch.equal(strided.piece(full, 1), full[:, [2, 3, 6, 7]])
    assert torch.equal(strided.gather([strided.piece(full, r) for r in range(2)]), full)
    part = Layout(full.shape, "f32", [[], [], []], partial=["DIDx"], mesh_shape=(2,), devices=[0, 1])
    assert torch.equal(part.gather([part.piece(full, r) for r in range(2)]), full)
    with pytest.raises(ValueError, match="shape"):
        lay.piece(full[0], 0)


def test_signature_layouts_read_the_lowered_program() -> None:
    _, _, program = worker.compile_case("llama", 2)
    args, results = signature_layouts(program.fd.lower().print(), program.fd.name)
    by_name = dict(zip(program.input_names, args))
    assert by_name["x"].splits == [[], ["DIDx"], []]
    assert by_name["self_attn.q_proj.weight"].splits == [["DIDx"], []]
    assert by_name["self_attn.o_proj.weight"].splits == [[], ["DIDx"]]
    assert by_name["input_layernorm.weight"].replicated
    assert results[0].splits == [[], ["DIDx"], []] and results[0].devices == [0, 1]


def test_to_rank_needs_a_mesh_of_the_run_size() -> None:
    class OneRank:
        rank, world = 0, 1

        def compile(self, program, pipeline):
            return fuser.torch.CpuRank.compile(self, program, pipeline)  # type: ignore[arg-type]

        def execute(self, program, pieces):  # pragma: no cover - not reached
            raise AssertionError

    _, _, program = worker.compile_case("gpt2", 2)
    with pytest.raises(fuser.FuserValueError, match=r"runs on 2 ranks .* the run has 1"):
        program.to_rank(OneRank())


def test_dtensor_inputs_give_dtensor_outputs(tmp_path) -> None:
    """With torch.distributed initialized (gloo), a DTensor input (sharded on the sequence)
    is taken by `.to_local()`, the output comes back a DTensor with the plan's placement, and
    the gradient reaches the input DTensor."""
    world = 2
    run_worker(tmp_path, world, "llama", "dtensor")
    module, args, _ = worker.case("llama")
    x = args[0].clone().requires_grad_(True)
    y = module(x, *args[1:])
    (y * worker.weights(x.shape)).sum().backward()
    for r in range(world):
        got = torch.load(os.path.join(tmp_path, f"llama.dtensor.{r}.pt"))
        assert got["placements"] == ["Shard(dim=1)"]
        assert rel_err(got["y"], y.detach()) < TOL
        assert rel_err(got["x"], x.grad) < TOL


def test_the_example_script_trains_under_torchrun() -> None:
    """examples/python/torch_tp_train.py (docs/pytorch.md's torchrun section) on 2 processes:
    its losses match the unsharded torch module's (the script exits 1 otherwise)."""
    exe = torchrun()
    if exe is None:
        pytest.skip("torchrun is not installed next to this Python")
    script = os.path.join(os.path.dirname(os.path.dirname(HERE)), "examples", "python", "torch_tp_train.py")
    cmd = [exe, "--standalone", "--nproc-per-node", "2", script, "--backend", "cpu", "--steps", "5"]
    done = subprocess.run(cmd, env=fuser_env({"OMP_NUM_THREADS": "1"}), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "5 AdamW steps on 2 cpu ranks (TP+SP)" in done.stdout
    assert "step  4:" in done.stdout and "largest relative difference" in done.stdout
