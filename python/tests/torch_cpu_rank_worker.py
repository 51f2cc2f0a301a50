"""One rank of python/tests/test_torch_cpu_rank.py's runs (started by torchrun or by the test
with RANK/WORLD_SIZE/MASTER_ADDR set): `fuser.torch.Rank(backend="cpu")` running the programs
below on this rank's pieces of seeded global tensors; each output piece is saved for the test
to gather and compare with torch's unsharded computation.

    python torch_cpu_rank_worker.py OUT_DIR run                 # both programs
    python torch_cpu_rank_worker.py OUT_DIR raise-before-run R  # rank R raises after joining
    python torch_cpu_rank_worker.py OUT_DIR raise-before-join R # rank R raises before joining

A rank whose run fails prints `FAILED: <message>` and exits with status 3.
"""

from __future__ import annotations

import os
import sys
from typing import Dict, List

import torch

import fuser
import fuser.torch
from fuser import DIDx

# Small sizes, divisible by 1, 2 and 4 ranks.
TOKENS, HIDDEN, FFN = 8, 16, 32


def tp_mlp(ranks: int) -> fuser.FusionDefinition:
    """Column-parallel W1 (+ bias), a square, row-parallel W2: y replicated (an allreduce)."""
    with fuser.FusionDefinition(mesh=fuser.Mesh(list(range(ranks))), name="tp_mlp") as fd:
        x = fd.define_tensor([TOKENS, HIDDEN], "f32")
        w1 = fd.define_tensor([FFN, HIDDEN], "f32", splits=[DIDx, []])
        b1 = fd.define_tensor([FFN], "f32", splits=[DIDx])
        w2 = fd.define_tensor([HIDDEN, FFN], "f32", splits=[[], DIDx])
        h = fd.ops.linear(x, w1, b1, splits=[[], DIDx])
        a = h * h
        y = fd.ops.linear(a, w2, splits=[[], []])
        fd.add_output(y)
    return fd


def sp_mlp(ranks: int) -> fuser.FusionDefinition:
    """Sequence parallel: x's rows split over the ranks, gathered for a column-parallel W1 (an
    allgather), a square, a row-parallel W2 whose partial sums come back split by rows (a
    reduce-scatter)."""
    with fuser.FusionDefinition(mesh=fuser.Mesh(list(range(ranks))), name="sp_mlp") as fd:
        x = fd.define_tensor([TOKENS, HIDDEN], "f32", splits=[DIDx, []])
        w1 = fd.define_tensor([FFN, HIDDEN], "f32", splits=[DIDx, []])
        w2 = fd.define_tensor([HIDDEN, FFN], "f32", splits=[[], DIDx])
        xg = fd.ops.set(x, splits=[[], []])
        h = fd.ops.linear(xg, w1, splits=[[], DIDx])
        a = h * h
        y = fd.ops.linear(a, w2, splits=[DIDx, []])
        fd.add_output(y)
    return fd


def globals_() -> Dict[str, torch.Tensor]:
    """The global tensors, the same in every process (one seed)."""
    g = torch.Generator().manual_seed(0)
    return {
        "x": torch.randn(TOKENS, HIDDEN, generator=g),
        "w1": torch.randn(FFN, HIDDEN, generator=g) / 4,
        "b1": torch.randn(FFN, generator=g),
        "w2": torch.randn(HIDDEN, FFN, generator=g) / 4,
    }


def unsharded(name: str, t: Dict[str, torch.Tensor]) -> torch.Tensor:
    """torch's computation of program `name` on the global tensors."""
    if name == "tp_mlp":
        return ((t["x"] @ t["w1"].T + t["b1"]) ** 2) @ t["w2"].T
    return ((t["x"] @ t["w1"].T) ** 2) @ t["w2"].T


def pieces(name: str, t: Dict[str, torch.Tensor], rank: int, world: int) -> List[torch.Tensor]:
    """Rank `rank`'s pieces of program `name`'s inputs."""
    f, n = FFN // world, TOKENS // world
    cols = slice(rank * f, (rank + 1) * f)
    w1, w2 = t["w1"][cols].contiguous(), t["w2"][:, cols].contiguous()
    if name == "tp_mlp":
        return [t["x"], w1, t["b1"][cols].contiguous(), w2]
    return [t["x"][rank * n : (rank + 1) * n].contiguous(), w1, w2]


def main() -> int:
    out_dir, mode = sys.argv[1], sys.argv[2]
    faulty = int(sys.argv[3]) if len(sys.argv) > 3 else -1
    me = int(os.environ.get("RANK", "0"))
    timeout = float(os.environ.get("WORKER_TIMEOUT", "60"))
    if mode == "raise-before-join" and me == faulty:
        raise RuntimeError(f"rank {me} fails before joining")
    rank = fuser.torch.Rank(backend="cpu", timeout=timeout)
    if mode == "raise-before-run" and rank.rank == faulty:
        raise RuntimeError(f"boom on rank {rank.rank} before its run")
    t = globals_()
    try:
        for name, build in (("tp_mlp", tp_mlp), ("sp_mlp", sp_mlp)):
            program = rank.compile(build(rank.world))
            # Twice: a rank runs any number of programs, one after the other.
            mine = pieces(name, t, rank.rank, rank.world)
            before = [p.clone() for p in mine]
            for _ in range(2):
                (y,) = rank.execute(program, mine)
            # Used in place (zero copy), and left as they were.
            assert all(torch.equal(a, b) for a, b in zip(mine, before)), f"{name} changed its inputs"
            torch.save(y, os.path.join(out_dir, f"{name}.{rank.rank}.pt"))
    except fuser.FuserError as e:
        print(f"FAILED: {e}", flush=True)
        return 3
    print(f"rank {rank.rank}/{rank.world} done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
