"""Training a torch Llama-style block with tensor + sequence parallelism, one process per rank
(issue 26; docs/pytorch.md, "Under torchrun"):

    torchrun --nproc-per-node 2 examples/python/torch_tp_train.py --backend cpu
    torchrun --nproc-per-node 2 examples/python/torch_tp_train.py --backend cuda   # on GPUs

Every process imports the same plain torch module with a torchtitan-style TP+SP plan
(`fuser.torch.compile`), takes its rank's shards of the parameters and of the input
(`program.to_rank(rank)`), and trains them with torch's AdamW for `--steps` steps: the forward
and the backward run the program's `fwd`/`bwd` on the rank, with the collectives the plan calls
for between the ranks. Rank 0 also trains an unsharded copy of the module with torch alone
and prints both losses per step (the per-rank losses are summed through torch.distributed,
gloo). The cpu backend needs no GPU. With `--backend cuda` every rank runs on the current
GPU: on one H200 it gives torch's losses to 2e-6 at 1 and 2 processes (2 sharing the GPU,
their collectives on cuda_ipc: benches/results/h200-training.md).
"""

from __future__ import annotations

import argparse
import os
import sys

import torch
import torch.distributed as dist
import torch.nn.functional as F

import fuser.torch
from fuser.torch import ColwiseParallel, PrepareModuleInput, Replicate, RowwiseParallel, SequenceParallel, Shard


class RMSNorm(torch.nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.eps, self.weight = eps, torch.nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class Attention(torch.nn.Module):
    def __init__(self, dim: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.q_proj, self.k_proj, self.v_proj, self.o_proj = (torch.nn.Linear(dim, dim, bias=False) for _ in range(4))

    def forward(self, x):
        B, S, C = x.shape
        q, k, v = (p(x).view(B, S, self.heads, C // self.heads).transpose(1, 2) for p in (self.q_proj, self.k_proj, self.v_proj))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o_proj(y.transpose(1, 2).reshape(B, S, C))


class MLP(torch.nn.Module):
    def __init__(self, dim: int, hidden: int) -> None:
        super().__init__()
        self.gate_proj = torch.nn.Linear(dim, hidden, bias=False)
        self.up_proj = torch.nn.Linear(dim, hidden, bias=False)
        self.down_proj = torch.nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class Block(torch.nn.Module):
    def __init__(self, dim: int = 32, heads: int = 4, hidden: int = 64) -> None:
        super().__init__()
        self.input_layernorm, self.post_attention_layernorm = RMSNorm(dim), RMSNorm(dim)
        self.self_attn, self.mlp = Attention(dim, heads), MLP(dim, hidden)

    def forward(self, x):
        h = x + self.self_attn(self.input_layernorm(x))
        return h + self.mlp(self.post_attention_layernorm(h))


# torchtitan's plan: q/k/v and gate/up column-parallel, o/down row-parallel, the norms and
# the residual stream sequence-parallel (split on the sequence axis, dimension 1).
PLAN = {
    "self_attn.[qkv]_proj": ColwiseParallel(),
    "mlp.gate_proj": ColwiseParallel(),
    "mlp.up_proj": ColwiseParallel(),
    "*_layernorm": SequenceParallel(),
    "self_attn": PrepareModuleInput(input_layouts=(Shard(1),), desired_input_layouts=(Replicate(),)),
    "self_attn.o_proj": RowwiseParallel(output_layouts=Shard(1)),
    "mlp": PrepareModuleInput(input_layouts=(Shard(1),), desired_input_layouts=(Replicate(),)),
    "mlp.down_proj": RowwiseParallel(output_layouts=Shard(1)),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()

    rank = fuser.torch.Rank(backend=args.backend)
    dist.init_process_group("gloo")  # only to sum the ranks' losses for printing
    torch.manual_seed(0)  # the same module, input and target in every process
    module = Block()
    x, target = torch.randn(1, 16, 32), torch.randn(1, 16, 32)

    program = fuser.torch.compile(
        module, (x,), mesh=rank.world, plan=PLAN,
        placements={"x": [Shard(1)]}, output_placements=[[Shard(1)]],
    )
    local = program.to_rank(rank)  # a torch module: this rank's parameter shards
    x_local = local.shard_input(0, x)  # this rank's rows of the sequence
    target_local = local.output_layouts[0].piece(target, rank.rank).to(local.device)
    opt = torch.optim.AdamW(local.parameters(), lr=1e-2)

    reference = Block()
    reference.load_state_dict(module.state_dict())
    ref_opt = torch.optim.AdamW(reference.parameters(), lr=1e-2)

    if rank.rank == 0:
        print(f"{args.steps} AdamW steps on {rank.world} {args.backend} ranks (TP+SP); loss: fuser | torch")
    worst = 0.0
    for step in range(args.steps):
        opt.zero_grad()
        (y,) = local(x_local)  # local shards in and out
        # This rank's part of the mean squared error over the whole output.
        loss = ((y - target_local) ** 2).sum() / target.numel()
        loss.backward()  # the program's bwd on this rank: local gradient shards
        opt.step()
        total = loss.detach().cpu().reshape(1)
        dist.all_reduce(total)
        if rank.rank == 0:
            ref_opt.zero_grad()
            want = F.mse_loss(reference(x), target)
            want.backward()
            ref_opt.step()
            worst = max(worst, abs(total.item() - want.item()) / abs(want.item()))
            print(f"step {step:2d}: {total.item():.6f} | {want.item():.6f}")
    if rank.rank == 0:
        print(f"largest relative difference: {worst:.2e}")
    dist.destroy_process_group()
    return 0 if worst < 1e-4 else 1


if __name__ == "__main__":
    sys.exit(main())
