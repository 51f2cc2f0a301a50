#!/usr/bin/env bash
# Multi-GPU benchmark (issue 17): one call on a machine with D GPUs, one process per GPU.
#
#   bash benches/gpu/multi.sh [OUTDIR]          # on the GPU machine, from the checkout
#
# Binaries come from .gpu/ (benches/gpu/README.md: build here, strip, carry). Writes to OUTDIR
# (default $OUT, else benches/results/multi-out):
#   correctness.txt   every pipeline at d = 2, 4, 8 (those <= D) against the f64 reference
#   rows.csv          one row per timed configuration (ours and PyTorch's)
#   then benches/gpu/multi_report.py turns rows.csv into report.md and the PNG plots.
# Each timed run: fuser-run --launch (one process per rank), WARMUP untimed then ITERS timed
# iterations; the time of an iteration is the slowest rank's (fuser-run's --csv); PyTorch peers
# run under torchrun (benches/gpu/torch_peers.py) with a barrier before every iteration and the
# max over ranks. T_gemm (the per-rank GEMM alone on one GPU) and T_comm (the collective alone,
# all ranks) are measured in the same call, for % of ideal = max(T_gemm, T_comm) / T.
# Environment: D (GPUs to use; default all), WARMUP (3), ITERS (10), QUICK=1 (smallest shapes
# only, for a smoke run), BACKEND (cuda; cpu runs the same script on tiny shapes for a test),
# CE_PIPE_OPT (the collective pipeline's copy-engine option, see docs/dev/copy-engine.md).
set -uo pipefail
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
BIN=${FUSER_RUN_BIN:-$PWD/.gpu/fuser-run}
BACKEND=${BACKEND:-cuda}
OUTDIR=${1:-${OUT:-benches/results/multi-out}}
mkdir -p "$OUTDIR"
WARMUP=${WARMUP:-3}
ITERS=${ITERS:-10}
CE_PIPE_OPT=${CE_PIPE_OPT:-backend=cuda_ipc}
if [ "$BACKEND" = cuda ]; then
  D=${D:-$(nvidia-smi -L 2>/dev/null | wc -l)}
  DT=bf16
else
  D=${D:-4}
  DT=f32
fi
[ "$D" -ge 1 ] || { echo "multi.sh: no GPU found" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rows=$OUTDIR/rows.csv
echo "bench,m,k,n,d,impl,mean_ms,min_ms,max_ms" >"$rows"

devices() { seq -s ', ' 0 $(($1 - 1)); }
# inst TEMPLATE D M K N S -> instantiated file path
inst() {
  local file=$1 d=$2 m=$3 k=$4 n=$5 s=$6 src
  src=test/Run/matrix/$file.mlir.in
  [ -f "$src" ] || src=benches/gpu/templates/$file.mlir.in
  sed -e "s/\${DEVICES}/$(devices "$d")/g" -e "s/\${DT}/$DT/g" -e "s/\${M}/$m/g" -e "s/\${K}/$k/g" \
      -e "s/\${N}/$n/g" -e "s/\${H}/$n/g" -e "s/\${S}/$s/g" "$src" >"$tmp/$file.$d.mlir"
  echo "$tmp/$file.$d.mlir"
}
launch_flag() { [ "$1" -gt 1 ] && echo --launch; }
# timed BENCH IMPL TEMPLATE D M K N S PIPELINE [KEY_K]: one CSV row in rows.csv, keyed by the
# configuration (BENCH, M, KEY_K (default K), N, the machine's D) whatever ranks the run uses.
timed() {
  local bench=$1 impl=$2 file=$3 d=$4 m=$5 k=$6 n=$7 s=$8 pipe=$9 key=${10:-$6} prog
  prog=$(inst "$file" "$d" "$m" "$k" "$n" "$s")
  if "$BIN" "$prog" --backend "$BACKEND" --ranks "$d" $(launch_flag "$d") --warmup "$WARMUP" \
      --iters "$ITERS" --timeout 120 --pass-pipeline "$pipe" --csv "$tmp/row.csv" >"$tmp/log" 2>&1; then
    # fuser-run's columns: m,n,k,dtype,implementation,option,mean,std,min,max,tflops,world_size
    IFS=, read -r _ _ _ _ _ _ mean _ min max _ _ < <(tail -1 "$tmp/row.csv")
    echo "$bench,$m,$key,$n,$D,$impl,$mean,$min,$max" >>"$rows"
  else
    echo "$bench,$m,$key,$n,$D,$impl,FAILED,," >>"$rows"
    echo "multi.sh: $bench $impl m=$m k=$k n=$n d=$d failed: $(tail -3 "$tmp/log" | tr '\n' ' ')" >&2
  fi
}

# 1. Correctness of every pipeline at d = 2, 4, 8 (one process per GPU), small f32 shapes.
pipelines=(
  "tp-default{streams=2}"
  "tp-overlap-collective{streams=2 chunks=\$D}"
  "tp-overlap-collective{streams=2 chunks=\$D $CE_PIPE_OPT}"
  "tp-overlap-p2p{streams=2 chunks=\$D backend=nccl}"
  "tp-overlap-p2p{streams=2 chunks=\$D backend=cuda_ipc protocol=get}"
  "tp-overlap-p2p{streams=2 chunks=\$D backend=cuda_ipc protocol=put}"
)
{
  for d in 2 4 8; do
    [ "$d" -le "$D" ] || continue
    for t in column_parallel_linear row_parallel_linear matmul_reduce_scatter linear_reduce_scatter; do
      [ -f "test/Run/matrix/$t.mlir.in" ] || continue
      saved=$DT; DT=f32
      prog=$(inst "$t" "$d" $((16 * d)) $((8 * d)) $((4 * d)) "$d")
      DT=$saved
      for p in "${pipelines[@]}"; do
        pipe="builtin.module(${p//\$D/$d})"
        if out=$("$BIN" "$prog" --backend "$BACKEND" --ranks "$d" --launch --check --timeout 60 \
            --pass-pipeline "$pipe" 2>&1); then
          echo "PASS d=$d $t $pipe"
        else
          echo "FAIL d=$d $t $pipe: $(echo "$out" | tail -3 | tr '\n' ' ')"
        fi
      done
    done
  done
} | tee "$OUTDIR/correctness.txt"

# 2. Timed configurations. Full sizes on the GPU; QUICK=1 or the cpu backend shrink them.
if [ "$BACKEND" = cuda ] && [ -z "${QUICK:-}" ]; then
  AG_M="8192 32768"; AG_K=16384; AG_NL="1024 2048 4096 8192"
  RS_M=8192; RS_KG="8192 16384 32768"; RS_N=8192
else
  AG_M="256"; AG_K=128; AG_NL="32 64"
  RS_M=256; RS_KG="128 256"; RS_N=128
fi
ring=$((D > 1 ? D : 1))
multi=$((D > 1))

# AG+GEMM (column-parallel): x[m, k] rows split over the ranks, w[n_local, k] on every rank.
for m in $AG_M; do
  for nl in $AG_NL; do
    timed ag_gemm gemm_alone linear_alone 1 "$m" "$AG_K" "$nl" 1 "builtin.module(tp-default{streams=1})"
    timed ag_gemm comm_alone allgather_alone "$D" "$m" "$AG_K" "$nl" 1 "builtin.module(tp-default{streams=1})"
    timed ag_gemm gather_then_gemm allgather_before_linear "$D" "$m" "$AG_K" "$nl" 1 "builtin.module(tp-default{streams=1})"
    timed ag_gemm collective column_parallel_linear "$D" "$m" "$AG_K" "$nl" "$ring" "builtin.module(tp-overlap-collective{streams=2 chunks=$ring})"
    timed ag_gemm p2p_nccl column_parallel_linear "$D" "$m" "$AG_K" "$nl" "$ring" "builtin.module(tp-overlap-p2p{streams=2 chunks=$ring backend=nccl})"
    for proto in get put; do
      timed ag_gemm "p2p_ipc_$proto" column_parallel_linear "$D" "$m" "$AG_K" "$nl" "$ring" \
        "builtin.module(tp-overlap-p2p{streams=2 chunks=$ring backend=cuda_ipc protocol=$proto})"
    done
  done
done

# GEMM+ReduceScatter: x[m, k_global] columns split, the partial product reduce-scattered by rows.
for kg in $RS_KG; do
  timed gemm_rs gemm_alone linear_alone 1 "$RS_M" $((kg / D)) "$RS_N" 1 "builtin.module(tp-default{streams=1})" "$kg"
  timed gemm_rs comm_alone reduce_scatter_alone "$D" "$RS_M" "$kg" "$RS_N" 1 "builtin.module(tp-default{streams=1})"
  timed gemm_rs serial matmul_reduce_scatter "$D" "$RS_M" "$kg" "$RS_N" 1 "builtin.module(tp-default{streams=1})"
  timed gemm_rs collective matmul_reduce_scatter "$D" "$RS_M" "$kg" "$RS_N" "$ring" "builtin.module(tp-overlap-collective{streams=2 chunks=$ring})"
  timed gemm_rs collective_ce matmul_reduce_scatter "$D" "$RS_M" "$kg" "$RS_N" "$ring" "builtin.module(tp-overlap-collective{streams=2 chunks=$ring $CE_PIPE_OPT})"
  timed gemm_rs ring_nccl matmul_reduce_scatter "$D" "$RS_M" "$kg" "$RS_N" "$ring" "builtin.module(tp-overlap-p2p{streams=2 chunks=$ring backend=nccl})"
  for proto in get put; do
    timed gemm_rs "ring_ipc_$proto" matmul_reduce_scatter "$D" "$RS_M" "$kg" "$RS_N" "$ring" \
      "builtin.module(tp-overlap-p2p{streams=2 chunks=$ring backend=cuda_ipc protocol=$proto})"
  done
done

# Row-parallel Linear + Allreduce: x[m, k_global] columns split, the product allreduced.
for kg in $RS_KG; do
  timed row_ar gemm_alone linear_alone 1 "$RS_M" $((kg / D)) "$RS_N" 1 "builtin.module(tp-default{streams=1})" "$kg"
  timed row_ar comm_alone allreduce_alone "$D" "$RS_M" "$kg" "$RS_N" 1 "builtin.module(tp-default{streams=1})"
  timed row_ar serial row_parallel_linear "$D" "$RS_M" "$kg" "$RS_N" 1 "builtin.module(tp-default{streams=1})"
  timed row_ar streams_nccl row_parallel_linear "$D" "$RS_M" "$kg" "$RS_N" 4 "builtin.module(tp-default{streams=2})"
  timed row_ar streams_ce row_parallel_linear "$D" "$RS_M" "$kg" "$RS_N" 4 "builtin.module(tp-overlap-collective{streams=2 chunks=4 $CE_PIPE_OPT})"
done

# PyTorch peers in the same call (cuda only).
if [ "$BACKEND" = cuda ] && python3 -c 'import torch' 2>/dev/null; then
  torchrun --standalone --nproc-per-node "$D" benches/gpu/torch_peers.py \
    --ag-m "$AG_M" --ag-k "$AG_K" --ag-nl "$AG_NL" --rs-m "$RS_M" --rs-kg "$RS_KG" --rs-n "$RS_N" \
    --warmup "$WARMUP" --iters "$ITERS" >>"$rows" 2>"$OUTDIR/torch.log" ||
    echo "multi.sh: torch peers failed: $(tail -3 "$OUTDIR/torch.log" | tr '\n' ' ')" >&2
fi

python3 benches/gpu/multi_report.py "$rows" "$OUTDIR" && echo "multi.sh: wrote $OUTDIR/report.md"
[ "$multi" = 1 ] || echo "multi.sh: note: D = 1, the collectives are trivial; this run only checks the script"
