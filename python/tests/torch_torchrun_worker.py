"""One rank of python/tests/test_torch_torchrun.py's runs (started by torchrun): a torch block
imported with a TP+SP plan, run on this rank by `program.to_rank(fuser.torch.Rank(backend=
"cpu"))` with this rank's local shards; what it computes is saved for the test to gather and
compare with the unsharded torch module.

    python torch_torchrun_worker.py OUT_DIR MODEL forward        # one forward, no gradients
    python torch_torchrun_worker.py OUT_DIR MODEL grads          # one forward and backward
    python torch_torchrun_worker.py OUT_DIR MODEL train STEPS    # AdamW on the local shards
    python torch_torchrun_worker.py OUT_DIR MODEL dtensor        # DTensor input and output (gloo)

MODEL: llama or gpt2. `forward` saves `MODEL.forward.RANK.pt` (the local output); `grads` saves `MODEL.grads.RANK.pt` (the local output, the input's
local gradient, every parameter's local gradient); `train` saves `MODEL.train.RANK.pt` (this
rank's part of each step's loss); `dtensor` saves `MODEL.dtensor.RANK.pt` (the output's and
the input gradient's `full_tensor()` and the output's placements). A rank whose run fails prints `FAILED: <message>` and exits
with status 3.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Dict, Tuple

import torch

import fuser
import fuser.torch
from fuser.torch import Shard

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_modules import GPT2Block, LlamaBlock, gpt2_plan, llama_plan, randomize, rope  # noqa: E402

# FUSER_TEST_BACKEND=cuda runs the ranks on the GPU (every rank on the current device, so two
# ranks share one GPU: the programs' collectives go through cuda_ipc, no NCCL).
BACKEND = os.environ.get("FUSER_TEST_BACKEND", "cpu")

SP = {"placements": {"x": [Shard(1)]}, "output_placements": [[Shard(1)]]}


def case(model: str) -> Tuple[torch.nn.Module, tuple, Dict[str, Any]]:
    """The module (seeded), its example inputs and its TP+SP plan (torch_modules.py's)."""
    g = torch.Generator().manual_seed(11)
    if model == "llama":
        module = randomize(LlamaBlock(heads=8, kv_heads=4), seed=5)
        return module, (torch.randn(1, 8, 32, generator=g),) + rope(8, 4), llama_plan(True)
    return randomize(GPT2Block(), seed=4), (torch.randn(1, 8, 32, generator=g),), gpt2_plan(True)


def weights(shape) -> torch.Tensor:
    """The loss's weights (grads) or targets (train), the same in every process."""
    return torch.randn(shape, generator=torch.Generator().manual_seed(12))


def compile_case(model: str, world: int):
    module, args, plan = case(model)
    return module, args, fuser.torch.compile(module, args, mesh=world, plan=plan, **SP)


def main() -> int:
    out_dir, model, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    rank = fuser.torch.Rank(backend=BACKEND)
    module, args, program = compile_case(model, rank.world)
    local = program.to_rank(rank)
    me = rank.rank
    try:
        if mode == "dtensor":
            import torch.distributed as dist
            from torch.distributed.device_mesh import init_device_mesh
            from torch.distributed.tensor import distribute_tensor
            from torch.distributed.tensor import Shard as TorchShard

            dist.init_process_group("gloo")
            mesh = init_device_mesh("cpu", (rank.world,))
            x = distribute_tensor(args[0], mesh, [TorchShard(1)]).requires_grad_(True)
            (y,) = local(x, *args[1:])
            w = distribute_tensor(weights(args[0].shape), mesh, [TorchShard(1)])
            (y * w).sum().backward()
            found = {"y": y.full_tensor().detach(), "x": x.grad.full_tensor(), "placements": [repr(p) for p in y.placements]}
            torch.save(found, os.path.join(out_dir, f"{model}.dtensor.{me}.pt"))
            dist.destroy_process_group()
            print(f"rank {me}/{rank.world} done", flush=True)
            return 0
        x = local.shard_input(0, args[0]).requires_grad_(True)
        rest = [local.shard_input(i, a) for i, a in enumerate(args[1:], 1)]
        if mode == "forward":
            with torch.no_grad():
                (y,) = local(x, *rest)
            torch.save(y.cpu(), os.path.join(out_dir, f"{model}.forward.{me}.pt"))
        elif mode == "grads":
            (y,) = local(x, *rest)
            w = local.output_layouts[0].piece(weights(args[0].shape), me).to(y.device)
            (y * w).sum().backward()
            grads = {name: p.grad.cpu() for name, p in local.named_parameters()}
            torch.save({"y": y.detach().cpu(), "x": x.grad.cpu(), "params": grads}, os.path.join(out_dir, f"{model}.grads.{me}.pt"))
        else:
            steps = int(sys.argv[4])
            target = local.output_layouts[0].piece(weights(args[0].shape), me).to(x.device)
            opt = torch.optim.AdamW(local.parameters(), lr=1e-2)
            losses = []
            for _ in range(steps):
                opt.zero_grad()
                (y,) = local(x.detach(), *rest)
                loss = ((y - target) ** 2).sum() / target.numel() / rank.world
                loss.backward()
                opt.step()
                losses.append(loss.item())
            torch.save(losses, os.path.join(out_dir, f"{model}.train.{me}.pt"))
    except fuser.FuserError as e:
        print(f"FAILED: {e}", flush=True)
        return 3
    print(f"rank {me}/{rank.world} done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
