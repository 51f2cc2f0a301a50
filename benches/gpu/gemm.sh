#!/usr/bin/env bash
# GEMM throughput on one GPU: the cuda backend's cublasGemmEx and cuBLASLt paths
# (gpu_gemm_bench, crates/runtime/examples) and torch.matmul / F.linear (gemm_torch.py) on the
# same bf16 shapes: matmul C = A·B, linear y = x·wᵀ, linear_bias y = x·wᵀ + b.
# CSV on stdout: impl,op,m,n,k,mean_us,tflops,round (fuser: 2 rounds, the libraries in
# alternating order). SKIP_TORCH=1 leaves torch out; TORCH_FIRST=1 runs it before fuser (the
# GPU's clocks drift over a long run: compare both orders). Binaries in $BIN_DIR (default .gpu).
set -uo pipefail
DIR=$(cd "$(dirname "$0")" && pwd)
BIN=${BIN_DIR:-.gpu}/gpu_gemm_bench
SHAPES=${SHAPES:-"4096x16384x1024 4096x16384x4096 4096x16384x8192 8192x16384x1024 8192x16384x4096 8192x16384x8192 16384x16384x1024 16384x16384x4096 16384x16384x8192"}
ITERS=${ITERS:-20}
torch() {
  [ "${SKIP_TORCH:-0}" = 1 ] && return
  # shellcheck disable=SC2086
  python3 "$DIR/gemm_torch.py" --iters "$ITERS" $SHAPES | tail -n +"$1"
}
[ "${TORCH_FIRST:-0}" = 1 ] && torch 1
# shellcheck disable=SC2086
"$BIN" --iters "$ITERS" $SHAPES | tail -n +"$([ "${TORCH_FIRST:-0}" = 1 ] && [ "${SKIP_TORCH:-0}" != 1 ] && echo 2 || echo 1)"
[ "${TORCH_FIRST:-0}" = 1 ] || torch 2
