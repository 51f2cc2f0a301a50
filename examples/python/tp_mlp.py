"""A tensor-parallel MLP block (Megatron style) built with the fuser frontend and run on the
cpu backend, checked against NumPy's unsharded computation.

    h = x · W1ᵀ + b1      column-parallel: W1 [F, D] split by output features over the devices
    a = h * h             the activation (the fusion dialect has no gelu; a square stands in)
    y = a · W2ᵀ           row-parallel: W2 [D, F] split along F, the contraction axis, so each
                          device holds a partial sum of y; the replicated result is an allreduce

Run on the cpu backend (NumPy): python examples/python/tp_mlp.py [ranks]
Run on GPUs (torch, one process per rank, each holding its weight shards):
    torchrun --nproc_per_node N examples/python/tp_mlp.py --cuda
    torchrun --nproc_per_node 2 examples/python/tp_mlp.py --cuda --share-gpu   # ranks on GPU 0
Run on cpu processes (torch CPU tensors, no GPU; what CI runs):
    torchrun --nproc_per_node N examples/python/tp_mlp.py --torch-cpu
With --share-gpu the allreduce is the copy-engine collective over CUDA IPC
(tp-overlap-collective{backend=cuda_ipc}): NCCL refuses two ranks of one communicator on one GPU.
Each rank's output (the replicated y) is compared with torch's own unsharded computation.
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

import fuser
from fuser import DIDx


def tp_mlp(ranks: int, tokens: int = 32, hidden: int = 64, ffn: int = 128) -> fuser.FusionDefinition:
    """The MLP block on a mesh of `ranks` devices, in f32."""
    with fuser.FusionDefinition(mesh=fuser.Mesh(list(range(ranks))), name="tp_mlp") as fd:
        x = fd.define_tensor([tokens, hidden], "f32")
        w1 = fd.define_tensor([ffn, hidden], "f32", splits=[DIDx, []])
        b1 = fd.define_tensor([ffn], "f32", splits=[DIDx])
        w2 = fd.define_tensor([hidden, ffn], "f32", splits=[[], DIDx])
        h = fd.ops.linear(x, w1, b1, splits=[[], DIDx])
        a = h * h
        y = fd.ops.linear(a, w2, splits=[[], []])
        fd.add_output(y)
    return fd


def main_cuda(share_gpu: bool, tokens: int = 128, hidden: int = 512, ffn: int = 2048, iters: int = 20) -> None:
    """One rank of the torchrun run: its shards of W1, b1, W2 as torch CUDA tensors."""
    import torch

    import fuser.torch

    device = 0 if share_gpu else int(os.environ.get("LOCAL_RANK", "0"))
    torch.cuda.set_device(device)
    rank = fuser.torch.Rank(device=device)
    fd = tp_mlp(rank.world, tokens, hidden, ffn)
    # Ranks sharing a GPU cannot meet in NCCL: their allreduce goes over CUDA IPC instead.
    pipeline = "builtin.module(tp-overlap-collective{backend=cuda_ipc})" if share_gpu else fuser.torch.DEFAULT_PIPELINE
    program = rank.compile(fd, pipeline)
    # The same global tensors on every rank (one seed); each rank keeps its shards.
    g = torch.Generator().manual_seed(0)
    x = torch.randn(tokens, hidden, generator=g).cuda()
    w1 = (torch.randn(ffn, hidden, generator=g) / 8).cuda()
    b1 = torch.randn(ffn, generator=g).cuda()
    w2 = (torch.randn(hidden, ffn, generator=g) / 8).cuda()
    part = ffn // rank.world
    cols = slice(rank.rank * part, (rank.rank + 1) * part)
    pieces = [x, w1[cols].contiguous(), b1[cols].contiguous(), w2[:, cols].contiguous()]
    (y,) = rank.execute(program, pieces)
    want = ((x @ w1.T + b1) ** 2) @ w2.T  # torch, unsharded
    err = float((y - want).abs().max() / want.abs().max())
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(iters):
        rank.execute(program, pieces)
    torch.cuda.synchronize()
    ms = (time.perf_counter() - start) / iters * 1e3
    print(
        f"tp_mlp rank {rank.rank}/{rank.world} on cuda:{device}: y {tuple(y.shape)} {y.dtype}, "
        f"max rel err vs torch {err:.2e}, {ms:.3f} ms/call (mean of {iters})",
        flush=True,
    )
    assert err < 1e-2, err


def main_torch_cpu(tokens: int = 32, hidden: int = 64, ffn: int = 128) -> None:
    """One rank of the torchrun run on the cpu backend: its shards as torch CPU tensors."""
    import torch

    import fuser.torch

    rank = fuser.torch.Rank(backend="cpu")
    program = rank.compile(tp_mlp(rank.world, tokens, hidden, ffn))
    g = torch.Generator().manual_seed(0)
    x, w1 = torch.randn(tokens, hidden, generator=g), torch.randn(ffn, hidden, generator=g) / 8
    b1, w2 = torch.randn(ffn, generator=g), torch.randn(hidden, ffn, generator=g) / 8
    part = ffn // rank.world
    cols = slice(rank.rank * part, (rank.rank + 1) * part)
    (y,) = rank.execute(program, [x, w1[cols].contiguous(), b1[cols].contiguous(), w2[:, cols].contiguous()])
    want = ((x @ w1.T + b1) ** 2) @ w2.T  # torch, unsharded
    err = float((y - want).abs().max() / want.abs().max())
    print(f"tp_mlp rank {rank.rank}/{rank.world} on the cpu backend: max rel err vs torch {err:.2e}", flush=True)
    assert err < 1e-5, err


def main() -> None:
    if "--torch-cpu" in sys.argv:
        main_torch_cpu()
        return
    if "--cuda" in sys.argv:
        main_cuda("--share-gpu" in sys.argv)
        return
    ranks = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    fd = tp_mlp(ranks)
    rng = np.random.default_rng(0)
    x, w1 = rng.standard_normal((32, 64)), rng.standard_normal((128, 64)) / 8
    b1, w2 = rng.standard_normal(128), rng.standard_normal((64, 128)) / 8
    (y,) = fd.execute([x, w1, b1, w2], ranks=ranks, check=True)
    want = ((x @ w1.T + b1) ** 2) @ w2.T
    err = float(np.max(np.abs(y - want)) / np.max(np.abs(want)))
    print(f"tp_mlp on {ranks} cpu ranks: max rel err vs NumPy {err:.2e}, reference check {fd.last_check}")
    assert err < 1e-5, err


if __name__ == "__main__":
    main()
