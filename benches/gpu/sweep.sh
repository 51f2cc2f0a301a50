#!/usr/bin/env bash
# Timing sweep of the tensor-parallel pipelines on the cuda backend: every row is one
# `fuser-run --backend ${BACKEND:-cuda}` of a template of test/Run/matrix, instantiated at a large bf16
# size, lowered by one pipeline; times are host wall-clock per iteration including the final
# stream synchronization (mean of ITERS after WARMUP). Prints one CSV row per run with a label.
# Usage (on the GPU machine, from the checkout): benches/gpu/sweep.sh [SIZE...]
# LAUNCH=1: one process per rank (--launch; the CUDA IPC rows are left out).
set -uo pipefail
BIN=${FUSER_RUN_BIN:-$PWD/.gpu/fuser-run}
D=${RANKS:-2}
WARMUP=${WARMUP:-5}
ITERS=${ITERS:-20}
SIZES=${*:-4096 8192}
DEVICES=$(seq -s ', ' 0 $((D - 1)))
export NCCL_NVLS_ENABLE=0
tmp=$(mktemp -d)
echo "label,m,n,k,dtype,implementation,option,mean_time_ms,std_time_ms,min_time_ms,max_time_ms,throughput_tflops,world_size"
# run LABEL TEMPLATE DEVICES RANKS M K N S PIPELINE
run() {
  local label=$1 file=$2 devs=$3 ranks=$4 m=$5 k=$6 n=$7 s=$8 pipe=$9
  sed -e "s/\${DEVICES}/$devs/g" -e "s/\${DT}/bf16/g" -e "s/\${M}/$m/g" -e "s/\${K}/$k/g" \
      -e "s/\${N}/$n/g" -e "s/\${H}/$n/g" -e "s/\${S}/$s/g" "test/Run/matrix/$file.mlir.in" >"$tmp/p.mlir"
  if "$BIN" "$tmp/p.mlir" --backend ${BACKEND:-cuda} --ranks "$ranks" --warmup "$WARMUP" --iters "$ITERS" ${LAUNCH:+--launch} \
      --pass-pipeline "$pipe" --csv "$tmp/row.csv" >"$tmp/log" 2>&1; then
    echo "$label,$(tail -1 "$tmp/row.csv")"
  else
    echo "$label,FAILED: $(tail -2 "$tmp/log" | tr '\n' ' ')"
  fi
}
for n in $SIZES; do
  half=$((n / D))
  # Compute floor: the per-rank GEMM of the row-parallel linear alone on one GPU.
  run "gemm-only m=$n k=$half" stream_parallel_matmul 0 1 "$n" "$half" "$n" 1 "builtin.module(tp-default{streams=1})"
  # Row-parallel linear (Linear + Allreduce): S stream chunks, one loop, streams overlap.
  for s in 1 2 4 8; do
    w=$((s < 4 ? s : 4))
    run "row-parallel S=$s W=$w" row_parallel_linear "$DEVICES" "$D" "$n" "$n" "$n" "$s" "builtin.module(tp-default{streams=$w})"
  done
  # Column-parallel linear (AllGather + Linear), one chunk per device.
  run "col-parallel default" column_parallel_linear "$DEVICES" "$D" "$n" "$n" "$n" "$D" "builtin.module(tp-default{streams=2})"
  run "col-parallel collective" column_parallel_linear "$DEVICES" "$D" "$n" "$n" "$n" "$D" "builtin.module(tp-overlap-collective{streams=2 chunks=$D})"
  pairs=("nccl get")
  [ -z "${LAUNCH:-}" ] && pairs+=("cuda_ipc get" "cuda_ipc put")
  for bp in "${pairs[@]}"; do
    set -- $bp
    run "col-parallel p2p $1 $2" column_parallel_linear "$DEVICES" "$D" "$n" "$n" "$n" "$D" \
      "builtin.module(tp-overlap-p2p{streams=2 chunks=$D backend=$1 protocol=$2})"
  done
  # Linear + ReduceScatter (row-parallel with a sequence-parallel output).
  run "reduce-scatter default" matmul_reduce_scatter "$DEVICES" "$D" "$n" "$n" "$n" "$D" "builtin.module(tp-default{streams=2})"
  run "reduce-scatter collective" matmul_reduce_scatter "$DEVICES" "$D" "$n" "$n" "$n" "$D" "builtin.module(tp-overlap-collective{streams=2 chunks=$D})"
  run "reduce-scatter p2p ring" matmul_reduce_scatter "$DEVICES" "$D" "$n" "$n" "$n" "$D" "builtin.module(tp-overlap-p2p{streams=2 chunks=$D backend=nccl})"
  if [ -z "${LAUNCH:-}" ]; then
    for p in get put; do
      run "reduce-scatter p2p ring cuda_ipc $p" matmul_reduce_scatter "$DEVICES" "$D" "$n" "$n" "$n" "$D" \
        "builtin.module(tp-overlap-p2p{streams=2 chunks=$D backend=cuda_ipc protocol=$p})"
    done
  fi
done
rm -rf "$tmp"
