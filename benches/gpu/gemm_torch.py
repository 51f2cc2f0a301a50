"""torch.matmul / F.linear timing on the shapes of benches/gpu/gemm.sh (bf16, one GPU).

Usage: gemm_torch.py [--iters N] MxNxK...; CSV on stdout: impl,op,m,n,k,mean_us,tflops,round, timed
with CUDA events around N back-to-back calls after 3 warmup calls (as gpu_gemm_bench).
"""
import sys

import torch
import torch.nn.functional as F


def main():
    args = sys.argv[1:]
    iters = 20
    if args[:1] == ["--iters"]:
        iters, args = int(args[1]), args[2:]
    print("impl,op,m,n,k,mean_us,tflops,round")
    for shape in args:
        m, n, k = (int(v) for v in shape.split("x"))
        dev = torch.device("cuda")
        a = torch.randn(m, k, dtype=torch.bfloat16, device=dev)
        b = torch.randn(k, n, dtype=torch.bfloat16, device=dev)
        w = torch.randn(n, k, dtype=torch.bfloat16, device=dev)
        bias = torch.randn(n, dtype=torch.bfloat16, device=dev)
        ops = {
            "matmul": lambda: torch.matmul(a, b),
            "linear": lambda: F.linear(a, w),
            "linear_bias": lambda: F.linear(a, w, bias),
        }
        for name, op in ops.items():
            for _ in range(3):
                op()
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(iters):
                op()
            end.record()
            torch.cuda.synchronize()
            us = start.elapsed_time(end) * 1e3 / iters
            print(f"torch-{torch.__version__},{name},{m},{n},{k},{us:.2f},{2 * m * n * k / (us * 1e-6) / 1e12:.1f},0")


if __name__ == "__main__":
    main()
