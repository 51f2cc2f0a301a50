#!/usr/bin/env bash
# GPU performance on one H200 (issue 14): one device call, one table, PNG plots.
#
#   bash benches/gpu/run.sh [OUTDIR]       # on the GPU machine, from the checkout
#
# Binaries come from .gpu/ (benches/gpu/README.md). Each section writes a CSV to OUTDIR
# (default $OUT, else benches/results/h200-out); benches/gpu/run_report.py then prints one
# markdown table per section (report.md) and draws the plots:
#   gemm.csv        ours (cuBLAS, cuBLASLt) vs torch.matmul / F.linear on the same shapes
#   chunks.csv      a GEMM split in S stream chunks, eager and CUDA graph: time against S
#   hostcost.csv    host cost per chunk against the chunk count, eager and CUDA graph
#   contention.csv  a GEMM beside a transfer on another stream: copy engine, SM copy, SM reduce
# Environment: QUICK=1 (fewer shapes and iterations, a smoke run), SECTIONS="gemm chunks
# hostcost contention" (a subset).
set -uo pipefail
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
cd "$(dirname "$0")/../.."
OUTDIR=${1:-${OUT:-benches/results/h200-out}}
mkdir -p "$OUTDIR"
BIN=${FUSER_RUN_BIN:-$PWD/.gpu/fuser-run}
SECTIONS=${SECTIONS:-gemm chunks hostcost contention}
WARMUP=${WARMUP:-5}
ITERS=${ITERS:-${QUICK:+5}}
ITERS=${ITERS:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$OUTDIR/gpu.txt"

# chunks: stream_parallel_matmul M x K x N bf16 on one GPU, N split in S stream chunks over
# min(S, 4) streams, eager and replayed as a CUDA graph.
chunks() {
  local sizes=${CHUNK_SIZES:-${QUICK:+2048}}
  sizes=${sizes:-2048 4096 8192}
  echo "size,chunks,mode,mean_ms,min_ms,std_ms"
  for n in $sizes; do
    for s in 1 2 4 8 16; do
      w=$((s < 4 ? s : 4))
      sed -e "s/\${DEVICES}/0/g" -e "s/\${DT}/bf16/g" -e "s/\${M}/$n/g" -e "s/\${K}/$n/g" -e "s/\${N}/$n/g" \
          -e "s/\${S}/$s/g" test/Run/matrix/stream_parallel_matmul.mlir.in >"$tmp/p.mlir"
      for mode in eager graph; do
        flag=(); [ "$mode" = graph ] && flag=(--cuda-graph)
        if "$BIN" "$tmp/p.mlir" --backend cuda --ranks 1 --warmup "$WARMUP" --iters "$ITERS" "${flag[@]}" \
            --pass-pipeline "builtin.module(tp-default{streams=$w})" --csv "$tmp/row.csv" >"$tmp/log" 2>&1; then
          IFS=, read -r _ _ _ _ _ _ mean std min _ _ _ < <(tail -1 "$tmp/row.csv")
          echo "$n,$s,$mode,$mean,$min,$std"
        else
          echo "$n,$s,$mode,FAILED,," ; echo "run.sh: chunks $n S=$s $mode: $(tail -2 "$tmp/log" | tr '\n' ' ')" >&2
        fi
      done
    done
  done
}

for section in $SECTIONS; do
  echo "run.sh: $section" >&2
  case $section in
    gemm) bash benches/gpu/gemm.sh >"$OUTDIR/gemm.csv" ;;
    chunks) chunks >"$OUTDIR/chunks.csv" ;;
    hostcost) bash benches/gpu/hostcost.sh >"$OUTDIR/hostcost.csv" ;;
    contention) bash benches/gpu/contention.sh >"$OUTDIR/contention.csv" ;;
    *) echo "run.sh: unknown section $section" >&2 ;;
  esac
done
python3 benches/gpu/run_report.py "$OUTDIR"
