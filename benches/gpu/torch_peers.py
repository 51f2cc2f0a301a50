"""PyTorch peers of benches/gpu/multi.sh, run under torchrun (one process per GPU).

Prints CSV rows `bench,m,k,n,d,impl,mean_ms,min_ms,max_ms` on stdout (rank 0 only) for the
same configurations as multi.sh:
  ag_gemm  torch_allgather_matmul      all_gather_into_tensor, then x_full @ w.T
           torch_fused_ag_matmul       torch.ops.symm_mem.fused_all_gather_matmul (if present)
  gemm_rs  torch_matmul_reduce_scatter x @ w.T, then reduce_scatter_tensor
           torch_fused_matmul_rs       torch.ops.symm_mem.fused_matmul_reduce_scatter (if present)
  row_ar   torch_matmul_allreduce      x @ w.T, then all_reduce
Each iteration starts after a barrier; its time is the slowest rank's (CUDA events, max
all-reduced). Multicast stays off (NCCL_NVLS_ENABLE=0, TORCH_SYMM_MEM_DISABLE_MULTICAST=1).
"""

import argparse
import os
import sys

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
os.environ.setdefault("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1")
os.environ.setdefault("NVSHMEM_DISABLE_NVLS", "1")

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402


def ints(text):
    return [int(v) for v in text.split()]


def timed(fn, warmup, iters):
    """Mean/min/max over iterations of the slowest rank's time, in ms."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        dist.barrier()
        torch.cuda.synchronize()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        t = torch.tensor([start.elapsed_time(end)], device="cuda")
        dist.all_reduce(t, op=dist.ReduceOp.MAX)
        times.append(t.item())
    return sum(times) / len(times), min(times), max(times)


def emit(bench, m, k, n, d, impl, result):
    if dist.get_rank() == 0:
        mean, lo, hi = result
        print(f"{bench},{m},{k},{n},{d},{impl},{mean:.4f},{lo:.4f},{hi:.4f}", flush=True)


def symm_mem_group():
    """The group name for torch.ops.symm_mem fused ops, or None where they are missing."""
    try:
        import torch.distributed._symmetric_memory as symm_mem

        if not hasattr(torch.ops.symm_mem, "fused_all_gather_matmul"):
            return None, None
        group = dist.group.WORLD
        symm_mem.enable_symm_mem_for_group(group.group_name)
        return symm_mem, group.group_name
    except Exception as e:  # an older torch, or a build without symmetric memory
        print(f"torch_peers: symmetric memory unavailable: {e}", file=sys.stderr)
        return None, None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--ag-m", default="8192")
    p.add_argument("--ag-k", type=int, default=16384)
    p.add_argument("--ag-nl", default="1024 8192")
    p.add_argument("--rs-m", type=int, default=8192)
    p.add_argument("--rs-kg", default="16384")
    p.add_argument("--rs-n", type=int, default=8192)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--iters", type=int, default=10)
    a = p.parse_args()
    local = int(os.environ.get("LOCAL_RANK", "0"))
    torch.cuda.set_device(local)
    dist.init_process_group("nccl", device_id=torch.device("cuda", local))
    d = dist.get_world_size()
    symm_mem, group = symm_mem_group()
    dt = torch.bfloat16
    k = a.ag_k
    for m in ints(a.ag_m):
        for nl in ints(a.ag_nl):
            x = torch.randn(m // d, k, dtype=dt, device="cuda")
            w = torch.randn(nl, k, dtype=dt, device="cuda")
            full = torch.empty(m, k, dtype=dt, device="cuda")

            def ag_then_mm():
                dist.all_gather_into_tensor(full, x)
                return full @ w.T

            emit("ag_gemm", m, k, nl, d, "torch_allgather_matmul", timed(ag_then_mm, a.warmup, a.iters))
            if symm_mem is not None:
                try:
                    fused = lambda: torch.ops.symm_mem.fused_all_gather_matmul(x, [w.T], gather_dim=0, group_name=group)
                    emit("ag_gemm", m, k, nl, d, "torch_fused_ag_matmul", timed(fused, a.warmup, a.iters))
                except Exception as e:
                    print(f"torch_peers: fused_all_gather_matmul m={m} n={nl}: {e}", file=sys.stderr)
            del x, w, full
    m, n = a.rs_m, a.rs_n
    for kg in ints(a.rs_kg):
        x = torch.randn(m, kg // d, dtype=dt, device="cuda")
        w = torch.randn(n, kg // d, dtype=dt, device="cuda")
        out = torch.empty(m // d, n, dtype=dt, device="cuda")

        def mm_then_rs():
            dist.reduce_scatter_tensor(out, x @ w.T)

        def mm_then_ar():
            y = x @ w.T
            dist.all_reduce(y)

        emit("gemm_rs", m, kg, n, d, "torch_matmul_reduce_scatter", timed(mm_then_rs, a.warmup, a.iters))
        if symm_mem is not None and hasattr(torch.ops.symm_mem, "fused_matmul_reduce_scatter"):
            try:
                fused = lambda: torch.ops.symm_mem.fused_matmul_reduce_scatter(x, w.T, "sum", scatter_dim=0, group_name=group)
                emit("gemm_rs", m, kg, n, d, "torch_fused_matmul_rs", timed(fused, a.warmup, a.iters))
            except Exception as e:
                print(f"torch_peers: fused_matmul_reduce_scatter k={kg}: {e}", file=sys.stderr)
        emit("row_ar", m, kg, n, d, "torch_matmul_allreduce", timed(mm_then_ar, a.warmup, a.iters))
        del x, w, out
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
