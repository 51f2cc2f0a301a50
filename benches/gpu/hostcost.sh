#!/usr/bin/env bash
# Host cost per stream chunk on one GPU, eager vs CUDA graph replay (--cuda-graph): a
# stream-parallel matmul of tiny 64 x 64 x 64 bf16 GEMM chunks (C[64, 64·S] = A[64, 64] ·
# B[64, 64·S], N split in S stream chunks over 2 worker streams, tp-default{streams=2}) for
# S = 1, 2, 4, ..., 256 (S = 256 also with the other --gemm libraries), then the
# 2048 x 2048 x 2048 matmul in S = 1, 8, 16 chunks.
# Each row: wall-clock per iteration (host enqueue + GPU + final synchronization; eager:
# run_program, graph: cuGraphLaunch + synchronization), mean and min of ITERS after WARMUP.
# CSV on stdout: m,k,n,chunks,mode,gemm,mean_ms,min_ms,us_per_chunk_mean,us_per_chunk_min,check
# Binaries in $BIN_DIR (default .gpu, see benches/gpu/README.md).
set -uo pipefail
BIN=${BIN_DIR:-.gpu}/fuser-run
WARMUP=${WARMUP:-10}
ITERS=${ITERS:-200}
TMP=${TMPDIR:-/tmp}/fuser-hostcost.$$
mkdir -p "$TMP"
export NCCL_NVLS_ENABLE=0
inst() { # M K N S -> file
  sed -e "s/\${DEVICES}/0/g" -e "s/\${DT}/bf16/g" -e "s/\${M}/$1/g" -e "s/\${K}/$2/g" -e "s/\${N}/$3/g" \
    -e "s/\${S}/$4/g" test/Run/matrix/stream_parallel_matmul.mlir.in > "$TMP/spm-$1-$2-$3-$4.mlir"
  echo "$TMP/spm-$1-$2-$3-$4.mlir"
}
row() { # M K N S mode(eager|graph) check(0|1) gemm iters
  local f; f=$(inst "$1" "$2" "$3" "$4")
  local flags=(--backend cuda --warmup "$WARMUP" --iters "${8:-$ITERS}" --gemm "$7"
    --pass-pipeline "builtin.module(tp-default{streams=2})" --csv "$TMP/row.csv")
  [ "$5" = graph ] && flags+=(--cuda-graph)
  [ "$6" = 1 ] && flags+=(--check)
  local out; out=$("$BIN" "$f" "${flags[@]}" 2>&1)
  local status=$?
  local check=-
  [ "$6" = 1 ] && check=$(echo "$out" | grep -o "check: [A-Z]*" | head -1 | cut -d' ' -f2)
  if [ $status -ne 0 ] || [ ! -s "$TMP/row.csv" ]; then
    echo "$1,$2,$3,$4,$5,$7,error,error,error,error,${check:-FAIL}"
    echo "$out" | tail -5 >&2
    return
  fi
  tail -1 "$TMP/row.csv" | awk -F, -v s="$4" -v mode="$5" -v g="$7" -v c="$check" -v m="$1" -v k="$2" -v n="$3" \
    '{ printf "%s,%s,%s,%s,%s,%s,%.4f,%.4f,%.3f,%.3f,%s\n", m, k, n, s, mode, g, $7, $9, $7*1000/s, $9*1000/s, c }'
  rm -f "$TMP/row.csv"
}
echo "m,k,n,chunks,mode,gemm,mean_ms,min_ms,us_per_chunk_mean,us_per_chunk_min,check"
for s in 1 2 4 8 16 32 64 128 256; do
  for mode in eager graph; do
    row 64 64 $((64 * s)) "$s" "$mode" "$([ "$s" = 256 ] && echo 1 || echo 0)" "${GEMM:-auto}"
  done
done
# The same 256 chunks with the other GEMM libraries (their per-call host cost differs).
for g in cublas cublaslt; do
  [ "$g" = "${GEMM:-auto}" ] && continue
  for mode in eager graph; do
    row 64 64 16384 256 "$mode" 0 "$g"
  done
done
for s in 1 8 16; do
  for mode in eager graph; do
    row 2048 2048 2048 "$s" "$mode" 0 "${GEMM:-auto}" 50
  done
done
rm -rf "$TMP"
