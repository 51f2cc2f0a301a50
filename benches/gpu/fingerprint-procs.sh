#!/usr/bin/env bash
# Issue 22 1c on the cuda backend: ranks started with different programs fail before running
# (their fingerprints are compared through rank 0's store, before NCCL or the GPU is touched),
# started as an outside launcher would (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT,
# FUSER_STORE_TOKEN). Rank 3 runs the row-parallel linear with K = 512 instead of 256 (the same
# collective sizes). Expected: every rank exits 1 and rank 0 prints `the ranks were not started
# alike: rank 3 differs from rank 0 in the program after lowering (its input file text
# differ(s) too)`. Then, with 4 GPUs or more, the same ranks with the same file pass --check.
# One GPU is enough for the first part (--devices 0,0,0,0). Binaries in .gpu/
# (benches/gpu/README.md); logs under $OUT.
set -uo pipefail
OUT=${OUT:-/tmp/fuser-gpu-out}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0
BIN=$PWD/.gpu/fuser-run
run_ranks() { # $1: tag; $2: the file of rank 3; other args: fuser-run flags
  local tag=$1 last=$2 port=$((20000 + RANDOM % 20000)) pids=()
  shift 2
  for r in 0 1 2 3; do
    local f=examples/row_parallel_linear.mlir
    [ "$r" = 3 ] && f=$last
    RANK=$r WORLD_SIZE=4 LOCAL_RANK=$r MASTER_ADDR=127.0.0.1 MASTER_PORT=$port \
      FUSER_STORE_TOKEN=0123456789abcdef-gpu-fingerprint \
      timeout 120 "$BIN" "$f" --backend cuda --timeout 20 "$@" >"$OUT/$tag-rank$r.log" 2>&1 &
    pids+=($!)
  done
  for r in 0 1 2 3; do
    wait "${pids[$r]}"
    echo "rank $r exit status: $?"
  done
  for r in 0 1 2 3; do echo "-- rank $r"; cat "$OUT/$tag-rank$r.log"; done
}
sed 's/256/512/g' examples/row_parallel_linear.mlir >"$OUT/row_parallel_k512.mlir"
echo "== different programs (expected: all exit 1, rank 3 named)"
run_ranks differ "$OUT/row_parallel_k512.mlir" --devices 0,0,0,0
if [ "$(nvidia-smi -L | wc -l)" -ge 4 ]; then
  echo "== the same program (expected: all exit 0, rank 0 prints check: PASS)"
  run_ranks same examples/row_parallel_linear.mlir --check
fi
