"""`fuser.torch.Rank(backend="cpu")`: one cpu rank per process, as torchrun starts them, on torch
CPU tensors (python/tests/torch_cpu_rank_worker.py is each rank's program). The gathered
outputs are compared with torch's unsharded computation at 1, 2 and 4 processes; a rank that
fails before its run makes the others fail at once, naming it."""

from __future__ import annotations

import os
import random
import secrets
import shutil
import socket
import subprocess
import sys
import time
from typing import Dict, List, Optional, Tuple

import pytest

torch = pytest.importorskip("torch", reason="fuser.torch needs torch (not importable here)")

import fuser  # noqa: E402
import fuser.torch  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(HERE, "torch_cpu_rank_worker.py")
sys.path.insert(0, HERE)
import torch_cpu_rank_worker as worker  # noqa: E402


def free_port() -> int:
    """A loopback port that was free a moment ago, chosen at random below the kernel's
    ephemeral range (as fuser-run --launch does: ports in that range may be handed to any
    outgoing connection between this check and rank 0's bind)."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range", encoding="ascii") as f:
            lowest = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        lowest = 32768
    floor = 10000
    rng = random.Random(os.getpid() ^ time.time_ns())
    for _ in range(64 if lowest > floor + 1000 else 0):
        port = rng.randrange(floor, lowest)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fuser_env(extra: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    """This environment, with fuser's store port and a fresh secret token."""
    env = dict(os.environ)
    env.update(FUSER_STORE_PORT=str(free_port()), FUSER_STORE_TOKEN=secrets.token_hex(16))
    env.pop("FUSER_TEST_RANK_FAULT", None)
    env.update(extra or {})
    return env


def torchrun() -> Optional[str]:
    """torchrun next to this Python, if there is one."""
    exe = os.path.join(os.path.dirname(sys.executable), "torchrun")
    return exe if os.access(exe, os.X_OK) else shutil.which("torchrun")


def launch(world: int, args: List[str], env: Dict[str, str], timeout: float) -> List[Tuple[int, str]]:
    """Runs the worker as ranks 0..world of one run (RANK/WORLD_SIZE/MASTER_ADDR set here, as
    torchrun would); each rank's exit status and output."""
    port = free_port()
    procs = []
    for r in range(world):
        e = dict(env, RANK=str(r), WORLD_SIZE=str(world), LOCAL_RANK=str(r), MASTER_ADDR="127.0.0.1")
        e.update(MASTER_PORT=str(port))
        procs.append(
            subprocess.Popen(
                [sys.executable, WORKER, *args], env=e, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
            )
        )
    deadline = time.monotonic() + timeout
    results = []
    try:
        for p in procs:
            out, _ = p.communicate(timeout=max(deadline - time.monotonic(), 0.1))
            results.append((p.returncode, out))
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    return results


def gathered(out_dir: str, name: str, world: int) -> torch.Tensor:
    """The output of program `name` put together from the ranks' pieces."""
    ys = [torch.load(os.path.join(out_dir, f"{name}.{r}.pt")) for r in range(world)]
    if name == "tp_mlp":
        # Replicated: every rank holds all of it, the same.
        for r, y in enumerate(ys[1:], 1):
            assert torch.equal(y, ys[0]), f"rank {r}'s replicated y differs from rank 0's"
        return ys[0]
    return torch.cat(ys, dim=0)


@pytest.mark.parametrize("world", [1, 2, 4])
def test_torchrun_processes_match_torch_unsharded(tmp_path, world: int) -> None:
    exe = torchrun()
    if exe is None:
        pytest.skip("torchrun is not installed next to this Python")
    cmd = [exe, "--standalone", "--nproc-per-node", str(world), WORKER, str(tmp_path), "run"]
    env = fuser_env({"OMP_NUM_THREADS": "1"})
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    t = worker.globals_()
    for name in ("tp_mlp", "sp_mlp"):
        got, want = gathered(str(tmp_path), name, world), worker.unsharded(name, t)
        assert got.shape == want.shape and got.dtype == torch.float32
        err = float((got - want).abs().max() / want.abs().max())
        assert err < 1e-5, f"{name} at {world} rank(s): max rel err {err:.2e} vs torch"


def test_the_sequence_parallel_program_communicates_by_allgather_and_reduce_scatter() -> None:
    text = worker.sp_mlp(2).lower().print()
    assert "comm.allgather" in text and "comm.reduce_scatter" in text, text


def test_a_rank_raising_before_its_run_fails_the_others_naming_it(tmp_path) -> None:
    # The ranks' timeout is long: the others must fail at once (rank 1's abort), not by it.
    env = fuser_env({"WORKER_TIMEOUT": "120"})
    start = time.monotonic()
    results = launch(4, [str(tmp_path), "raise-before-run", "1"], env, timeout=100)
    assert time.monotonic() - start < 60, results
    (s1, out1) = results[1]
    assert s1 != 0 and "boom on rank 1 before its run" in out1, out1
    for status, out in results[:1] + results[2:]:
        assert status == 3, out
        assert "FAILED" in out and "rank 1" in out and "RuntimeError: boom on rank 1" in out, out


def test_a_rank_killed_in_its_run_is_named_by_the_others(tmp_path) -> None:
    # FUSER_TEST_RANK_FAULT (test-only): rank 1 sends itself SIGKILL at its first communication.
    env = fuser_env({"WORKER_TIMEOUT": "120", "FUSER_TEST_RANK_FAULT": "1:kill"})
    start = time.monotonic()
    results = launch(2, [str(tmp_path), "run"], env, timeout=100)
    assert time.monotonic() - start < 60, results
    (s0, out0), (s1, _) = results
    assert s1 == -9, results
    assert s0 == 3 and "rank 1 left the run before finishing" in out0, out0


def test_a_rank_that_never_joins_is_named_within_the_timeout(tmp_path) -> None:
    env = fuser_env({"WORKER_TIMEOUT": "5"})
    results = launch(2, [str(tmp_path), "raise-before-join", "1"], env, timeout=60)
    (s0, out0), (s1, out1) = results
    assert s1 != 0 and "fails before joining" in out1, out1
    assert s0 != 0 and "rank 1 never joined the run" in out0, out0


def test_a_rank_alone_without_torchrun() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("RANK", "WORLD_SIZE")}
    code = (
        "import torch, fuser.torch, torch_cpu_rank_worker as w\n"
        "r = fuser.torch.Rank(backend='cpu')\n"
        "t = w.globals_()\n"
        "(y,) = r.execute(w.tp_mlp(1), w.pieces('tp_mlp', t, 0, 1))\n"
        "assert (r.rank, r.world) == (0, 1)\n"
        "print(float((y - w.unsharded('tp_mlp', t)).abs().max()))\n"
    )
    env["PYTHONPATH"] = os.pathsep.join([HERE, env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert float(done.stdout.strip()) < 1e-3


def test_arguments_are_checked() -> None:
    with pytest.raises(fuser.FuserValueError, match="backend must be"):
        fuser.torch.Rank(backend="tpu")
    with pytest.raises(fuser.FuserValueError, match="a cpu rank takes none"):
        fuser.torch.Rank(device=0, backend="cpu")


@pytest.mark.skipif("RANK" in os.environ, reason="needs a process outside any run (RANK unset)")
def test_tensors_are_checked_against_the_program() -> None:
    rank = fuser.torch.Rank(backend="cpu")
    program = rank.compile(worker.tp_mlp(1))
    assert isinstance(program, fuser._fuser.CpuProgram)
    assert program.arg_types()[1] == ([worker.FFN, worker.HIDDEN], "f32")
    good = worker.pieces("tp_mlp", worker.globals_(), 0, 1)
    with pytest.raises(fuser.FuserError, match=r"input #1: shape \[16, 32\], rank 0 of the program takes \[32, 16\]"):
        rank.execute(program, [good[0], good[1].T.contiguous(), good[2], good[3]])
    with pytest.raises(fuser.FuserError, match="input #0: element type Some\\(\"f64\"\\), the program's is f32"):
        rank.execute(program, [good[0].double(), *good[1:]])
    with pytest.raises(fuser.FuserError, match="input #1: not dense row-major"):
        rank.execute(program, [good[0], good[1].T.contiguous().T, *good[2:]])
    with pytest.raises(fuser.FuserError, match="takes 4 inputs"):
        rank.execute(program, good[:3])
    (y,) = rank.execute(program, good)
    assert float((y - worker.unsharded("tp_mlp", worker.globals_())).abs().max()) < 1e-3


@pytest.mark.skipif("RANK" in os.environ, reason="needs a process outside any run (RANK unset)")
def test_inputs_are_used_in_place() -> None:
    # A host program that doubles its argument in place and returns it: the caller's tensor
    # is the argument's memory (zero copy); the output is a new tensor.
    text = """func.func @twice(%a: !host.buf<4xf32>) -> !host.buf<4xf32> {
  host.elementwise add %a, %a into %a : !host.buf<4xf32>, !host.buf<4xf32>, !host.buf<4xf32>
  return %a : !host.buf<4xf32>
}"""
    rank = fuser.torch.Rank(backend="cpu")
    x = torch.arange(4, dtype=torch.float32)
    (y,) = rank.execute(rank.compile(fuser.parse(text, "twice.mlir")), [x])
    assert torch.equal(x, torch.tensor([0.0, 2.0, 4.0, 6.0]))
    assert torch.equal(y, x) and y.data_ptr() != x.data_ptr()


@pytest.mark.skipif("RANK" in os.environ, reason="needs a process outside any run (RANK unset)")
def test_a_tensor_passed_twice_is_borrowed_once() -> None:
    # The second argument shares the first's memory: it is copied, the first used in place.
    text = """func.func @f(%a: !host.buf<4xf32>, %b: !host.buf<4xf32>) -> !host.buf<4xf32> {
  host.elementwise add %b, %b into %a : !host.buf<4xf32>, !host.buf<4xf32>, !host.buf<4xf32>
  return %a : !host.buf<4xf32>
}"""
    rank = fuser.torch.Rank(backend="cpu")
    x = torch.arange(4, dtype=torch.float32)
    (y,) = rank.execute(rank.compile(fuser.parse(text, "twice2.mlir")), [x, x])
    assert torch.equal(x, torch.tensor([0.0, 2.0, 4.0, 6.0])) and torch.equal(y, x)


@pytest.mark.skipif("RANK" in os.environ, reason="needs a process outside any run (RANK unset)")
def test_bf16_pieces_match_torch() -> None:
    with fuser.FusionDefinition(mesh=fuser.Mesh([0]), name="bf16_linear") as fd:
        x = fd.define_tensor([8, 16], "bf16")
        w = fd.define_tensor([32, 16], "bf16")
        fd.add_output(fd.ops.linear(x, w))
    rank = fuser.torch.Rank(backend="cpu")
    g = torch.Generator().manual_seed(1)
    x, w = torch.randn(8, 16, generator=g).bfloat16(), torch.randn(32, 16, generator=g).bfloat16()
    (y,) = rank.execute(fd, [x, w])
    want = x.float() @ w.float().T
    assert y.dtype == torch.bfloat16 and float((y.float() - want).abs().max() / want.abs().max()) < 1e-2
